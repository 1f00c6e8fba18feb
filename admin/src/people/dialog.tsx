import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A modal as a native <dialog> (docs/admin-ui.md, accessibility): opened with showModal, so focus
 * moves into it and stays there, Escape closes it (not while `busy`), and on closing the focus goes
 * back to the control that opened it. Titled by its heading.
 */
export function Dialog(props: { open: boolean; title: ComponentChildren; busy?: boolean; onClose: () => void; children: ComponentChildren; class?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
      opener.current?.focus();
      opener.current = null;
    }
  }, [props.open]);
  // Closing while mounted (the component may unmount open, e.g. a removed row): give focus back.
  useEffect(() => () => opener.current?.isConnected && opener.current.focus(), []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      class={["people-dialog", props.class ?? ""].join(" ").trim()}
      onCancel={(event) => {
        event.preventDefault();
        if (!props.busy) props.onClose();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}
