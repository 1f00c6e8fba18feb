import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

/**
 * The one modal of the admin UI, a native <dialog> opened with `showModal()` (the page behind is
 * inert and focus stays inside): focus goes to the control marked `data-autofocus`, else the first
 * control; Escape asks `onClose` (not while `busy`); when it closes — or is unmounted while open,
 * as by a caller that renders it only while needed — focus returns to the control that opened it,
 * unless focus has already gone somewhere else on purpose. Titled by its heading; `dismiss` adds a
 * ✕ button with that accessible name beside it. The content is rendered only while open, so a
 * form inside starts afresh each time.
 */
export function Dialog(props: { open: boolean; title: ComponentChildren; onClose: () => void; busy?: boolean; class?: string; dismiss?: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = useRef(props.open);
  open.current = props.open;
  const titleId = useId();

  const giveFocusBack = () => {
    const back = opener.current;
    opener.current = null;
    const active = document.activeElement;
    const elsewhere = active && active !== document.body && !ref.current?.contains(active);
    if (back && back.isConnected && !elsewhere) back.focus();
  };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      const first = dialog.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.querySelector<HTMLElement>("input, select, textarea, button");
      first?.focus();
    } else if (!props.open && dialog.open) {
      dialog.close();
      giveFocusBack();
    }
  }, [props.open]);

  useEffect(
    () => () => {
      if (ref.current?.open) ref.current.close();
      if (opener.current) queueMicrotask(giveFocusBack);
    },
    [],
  );

  const heading = <h2 id={titleId}>{props.title}</h2>;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      class={props.class}
      onCancel={(event) => {
        event.preventDefault();
        if (!props.busy) props.onClose();
      }}
      onClose={() => {
        // Closed another way than by `open` turning false (a form with method="dialog").
        giveFocusBack();
        if (open.current) props.onClose();
      }}
    >
      {props.dismiss ? (
        <div class="dialog-head">
          {heading}
          <button type="button" class="button-ghost" aria-label={props.dismiss} disabled={props.busy} onClick={props.onClose}>
            ✕
          </button>
        </div>
      ) : (
        heading
      )}
      {props.open ? props.children : null}
    </dialog>
  );
}
