import { useEffect, useRef } from "preact/hooks";

/**
 * Reload or closing the tab with text the server does not keep yet asks first (the browser's own
 * question; issue #30 item 7). Text already kept (while typing, or by a take-over) is offered back
 * on return, so then the page goes without a question: nothing is lost.
 */
export function useUnloadQuestion(unkept: boolean): void {
  useEffect(() => {
    if (!unkept) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [unkept]);
}

/**
 * Ctrl/Cmd+S calls `onSave` (issue #30 item 8): the browser's "save page" never opens on the
 * editor. The listener is added once; the latest `onSave` is read at the key press, so it always
 * sees the form's current state.
 */
export function useSaveShortcut(onSave: () => void): void {
  const latest = useRef(onSave);
  latest.current = onSave;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        latest.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
