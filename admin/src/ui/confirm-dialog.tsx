import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { Button } from "./controls";

/**
 * A modal question as a native <dialog> (focus is kept inside by the browser; Escape cancels):
 * opened with `showModal()` when `open` turns true, the first button of the dialog's own choices
 * (or `initialFocus`) gets focus, and focus returns to what had it before when it closes.
 * `confirm` names the action ("Take over", "Move to Trash"), never just "OK".
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: ComponentChildren;
  children?: ComponentChildren;
  confirm: string;
  cancel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      returnTo.current = document.activeElement;
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        (returnTo.current as HTMLElement | null)?.focus?.();
        if (props.open) props.onClose();
      }}
      onCancel={(event) => {
        if (props.busy) event.preventDefault();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div class="stack">{props.children}</div>
      <div class="row dialog-actions">
        <Button variant={props.danger ? "danger" : "primary"} busy={props.busy} onClick={props.onConfirm} data-autofocus>
          {props.confirm}
        </Button>
        <Button onClick={props.onClose} disabled={props.busy}>
          {props.cancel ?? "Cancel"}
        </Button>
      </div>
    </dialog>
  );
}
