import type { ComponentChildren } from "preact";
import { Dialog } from "./dialog";

/**
 * The pickers' layout (entry-picker.tsx, media-picker.tsx) on the base Dialog (ui/dialog.tsx:
 * native modal <dialog>, Escape closes, focus returns to the opener): a heading with a Close
 * button, a scrolling body and a footer row for the choosing buttons.
 */
export function PickerDialog({ open, title, onClose, children, footer, wide }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren; footer: ComponentChildren; wide?: boolean }) {
  return (
    <Dialog open={open} title={title} onClose={onClose} dismiss="Close" class={`picker-dialog${wide ? " picker-wide" : ""}`}>
      <div class="picker-body">{children}</div>
      <div class="picker-foot row">{footer}</div>
    </Dialog>
  );
}
