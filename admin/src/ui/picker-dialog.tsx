import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * A native modal `<dialog>` for the pickers (entry-picker.tsx, media-picker.tsx): the browser
 * moves focus into it, keeps it there and closes it on Escape; focus returns to the control that
 * opened it. The heading names the dialog.
 */
export function PickerDialog({ open, title, onClose, children, footer, wide }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; footer: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      class={`picker-dialog${wide ? " picker-wide" : ""}`}
      aria-labelledby={`${id}-title`}
      onClose={() => {
        onClose();
        // Back to the control that opened it, unless focus has already gone somewhere on purpose
        // (the close event comes a moment after the dialog closes).
        const active = document.activeElement;
        if (!active || active === document.body || ref.current?.contains(active)) opener.current?.focus();
      }}
    >
      <div class="picker-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" class="button-ghost" aria-label="Close" onClick={() => ref.current?.close()}>
          ✕
        </button>
      </div>
      {open ? <div class="picker-body">{children}</div> : null}
      <div class="picker-foot row">{footer}</div>
    </dialog>
  );
}
