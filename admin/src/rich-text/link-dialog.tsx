import { useEffect, useId, useRef, useState } from "preact/hooks";
import { Button } from "../ui/controls";

/**
 * The link dialog: a native modal `<dialog>` (focus moves into it and back to the editor when it
 * closes; Escape cancels) asking for the address. The service decides which addresses it keeps
 * (http, https, mailto, tel or relative); the dialog only says so beside the field. "Open in a
 * new tab" writes `target="_blank"` (the service adds `rel="noopener noreferrer"`; docs/rich-text.md).
 */
export function LinkDialog({
  open,
  initial,
  initialNewTab,
  error,
  onApply,
  onRemove,
  onClose,
}: {
  open: boolean;
  initial: string;
  initialNewTab: boolean;
  error: string | null;
  onApply: (href: string, newTab: boolean) => void;
  onRemove: (() => void) | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [href, setHref] = useState(initial);
  const [newTab, setNewTab] = useState(initialNewTab);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setHref(initial);
      setNewTab(initialNewTab);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="rt-link-dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form
        method="dialog"
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          const value = href.trim();
          if (value) onApply(value, newTab);
          else onRemove?.();
        }}
      >
        <h2 id={`${id}-title`}>{onRemove ? "Edit link" : "Add link"}</h2>
        <div class="field">
          <label for={`${id}-href`}>Address</label>
          <input id={`${id}-href`} type="text" inputMode="url" autoComplete="url" spellcheck={false} autoFocus value={href} onInput={(e) => setHref(e.currentTarget.value)} aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`} aria-invalid={error ? "true" : undefined} placeholder="https://…" />
          <div class="hint" id={`${id}-hint`}>
            A web address (https://…), an email (mailto:…), a phone number (tel:…) or a path on the site (/about).
          </div>
          {error ? (
            <div class="error" id={`${id}-error`} role="alert">
              {error}
            </div>
          ) : null}
        </div>
        <label class="rt-new-tab" for={`${id}-new-tab`}>
          <input id={`${id}-new-tab`} type="checkbox" checked={newTab} onChange={(e) => setNewTab(e.currentTarget.checked)} aria-describedby={`${id}-new-tab-hint`} />
          Open in a new tab
        </label>
        <div class="hint" id={`${id}-new-tab-hint`}>
          Readers stay on this page; the new tab cannot reach back to it.
        </div>
        <div class="row">
          <Button type="submit" variant="primary">
            Apply link
          </Button>
          {onRemove ? (
            <Button variant="danger" onClick={onRemove}>
              Remove link
            </Button>
          ) : null}
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </dialog>
  );
}
