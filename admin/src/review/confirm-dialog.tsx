import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { Button } from "../ui/controls";

/**
 * A confirmation as a native modal <dialog>: focus moves into it (to Cancel, the safe choice),
 * Escape cancels, and focus returns to the control that opened it when it closes.
 */
export function ConfirmDialog(props: { open: boolean; title: string; children?: ComponentChildren; confirmLabel: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        opener.current?.focus();
        if (props.open) props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div class="row review-dialog-actions">
        <button ref={cancelRef} type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <Button variant={props.danger ? "danger" : "primary"} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
