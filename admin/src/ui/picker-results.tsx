import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { Button, Loading, Notice } from "./controls";

/**
 * What the entry and media pickers share (entry-picker.tsx, media-picker.tsx): a list read page by
 * page — `restart()` reads the first page afresh (showing the loading sign), `more()` follows the
 * cursor and appends — and the results block around the list: the refusal in words, the loading
 * sign, the count as a polite status, and "Load more" while there is a next page.
 */
export function usePages<T>(readPage: (cursor: string | null) => Promise<{ items: T[]; next: string | null }>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Only the latest read may answer: a slow first page of the previous filter (another model
  // chosen meanwhile) must not replace the page of the filter shown now.
  const latest = useRef(0);
  const load = async (from: string | null) => {
    const round = ++latest.current;
    setBusy(true);
    setError(null);
    try {
      const page = await readPage(from);
      if (round !== latest.current) return;
      setItems((before) => [...(from ? (before ?? []) : []), ...page.items]);
      setCursor(page.next);
    } catch (caught) {
      if (round === latest.current) setError(caught);
    } finally {
      if (round === latest.current) setBusy(false);
    }
  };
  return {
    items,
    cursor,
    busy,
    error,
    restart: () => {
      setItems(null);
      void load(null);
    },
    more: () => void load(cursor),
  };
}

export function PickerResults(props: { pages: { items: unknown[] | null; cursor: string | null; busy: boolean; error: unknown; more: () => void }; loading: string; status: string; children: ComponentChildren }) {
  const { pages } = props;
  const failure = pages.error ? describeError(pages.error) : null;
  return (
    <>
      {failure ? <Notice kind="error" title={failure.title}>{failure.detail}</Notice> : null}
      {pages.items === null ? (
        <Loading label={props.loading} />
      ) : (
        <>
          <p class="muted" role="status" aria-live="polite">
            {props.status}
          </p>
          {props.children}
          {pages.cursor ? (
            <Button busy={pages.busy} onClick={pages.more}>
              Load more
            </Button>
          ) : null}
        </>
      )}
    </>
  );
}
