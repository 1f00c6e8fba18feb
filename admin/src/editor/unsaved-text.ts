import { useEffect, useRef, useState } from "preact/hooks";
import { dropRecovery, keepRecovery } from "./recovery-drafts";

/** Quiet time after the last keystroke before the text is kept (one write per pause, not per key). */
export const KEEP_AFTER_MS = 1_200;

/**
 * Keeps the form's unsaved text as the person's server-side recovery draft while they type (issue
 * #30 item 7; docs/recovery-drafts.md, reason `unsaved`), so a reload, a closed tab or a crash loses
 * nothing; the editor offers it back on return. Only while `active` (the person holds the lease and
 * no other recovery draft is waiting to be restored: that one is not overwritten). `saved()` after a
 * successful save drops it — after any keep still under way, so no stale draft outlives the save.
 */
export function useKeptWhileTyping(options: { id: string; values: Record<string, unknown>; slug: string | null; dirty: boolean; baseVersionId: string | null; active: boolean }) {
  const { id, values, slug, dirty, baseVersionId, active } = options;
  const [keptAt, setKeptAt] = useState<string | null>(null);
  /** The values (as JSON) the last successful keep stored: equal to the form's, nothing is at risk. */
  const [keptValues, setKeptValues] = useState<string | null>(null);
  const pending = useRef<Promise<unknown>>(Promise.resolve());
  const kept = useRef(false);

  useEffect(() => {
    if (!dirty || !active) return;
    const timer = window.setTimeout(() => {
      const draft = { values: structuredClone(values), base_version_id: baseVersionId, saved_at: new Date().toISOString(), reason: "unsaved" as const };
      pending.current = pending.current.then(() =>
        keepRecovery(id, draft, slug).then((ok) => {
          if (!ok) return;
          kept.current = true;
          setKeptAt(draft.saved_at);
          setKeptValues(JSON.stringify(draft.values));
        }),
      );
    }, KEEP_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [id, values, slug, dirty, active]);

  return {
    keptAt,
    /** Whether the form's text is what the server keeps (no question needed before the page goes). */
    keeps: (now: Record<string, unknown>) => keptValues !== null && keptValues === JSON.stringify(now),
    /** Another write of the draft (a take-over's or a conflict's keep) in the same queue, so a keep while typing never lands after it. */
    queue: (write: () => Promise<unknown>) => {
      pending.current = pending.current.then(write, write);
    },
    /** A save succeeded: the kept text is in the entry now. `restored`: the draft it came from goes too. */
    saved: (restored: boolean) => {
      setKeptAt(null);
      setKeptValues(null);
      pending.current = pending.current.then(() => {
        if (!kept.current && !restored) return;
        kept.current = false;
        return dropRecovery(id);
      });
    },
  };
}

/** Whether two sets of field values hold the same values (key order aside): the form still holds a restored draft's text. */
export function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => JSON.stringify(a[key] ?? null) === JSON.stringify(b[key] ?? null));
}
