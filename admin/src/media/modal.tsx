import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A modal as a native <dialog> (showModal: the page behind is inert, Escape closes): focus goes to
 * the first control marked `data-autofocus` (else the first button) and returns to where it was
 * when the dialog closes. `onClose` runs for Escape as for the caller's own buttons.
 */
export function Modal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const before = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      before.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
      const first = dialog.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.querySelector<HTMLElement>("input, select, textarea, button");
      first?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      const back = before.current;
      before.current = null;
      if (back && document.contains(back)) back.focus();
    }
  }, [open]);
  // Unmounted while open (a caller that renders the dialog only while needed): close, focus back.
  useEffect(
    () => () => {
      const dialog = ref.current;
      if (dialog?.open) dialog.close();
      const back = before.current;
      if (back && document.contains(back)) queueMicrotask(() => back.focus());
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      class="media-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
