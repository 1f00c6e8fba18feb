import { useMemo, useState } from "preact/hooks";
import type { Entry } from "../fields/types";

/** The service's messages by full field path (`seo.title`, `faq[1].question`). */
export type Issues = ReadonlyMap<string, readonly string[]>;

/**
 * The entry form's state: the values being edited (by field key, as the entry answers them), the
 * changed ones (what a save sends), the address slug, whether anything differs from the entry, and
 * the service's issues. `reset` takes a
 * fresh entry (after a save) and clears the issues.
 */
export function useEntryForm(entry: Entry | null) {
  const [base, setBase] = useState<Entry | null>(entry);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...(entry?.fields ?? {}) }));
  const [slug, setSlug] = useState<string>(entry?.slug ?? "");
  const [issues, setIssues] = useState<Issues>(new Map());
  if (entry && base?.instance_id !== entry.instance_id) {
    // A different entry (another language tab): start over from it.
    setBase(entry);
    setValues({ ...entry.fields });
    setSlug(entry.slug ?? "");
    setIssues(new Map());
  }
  // What a save sends: only the fields changed here (a save merges them over the draft, and a role
  // with a write field limit may send only what it may write — unchanged fields are not "written").
  const changes = useMemo(() => {
    const out: Record<string, unknown> = {};
    if (!base) return out;
    for (const key of new Set([...Object.keys(values), ...Object.keys(base.fields)])) {
      if (stable(values[key] ?? null) !== stable(base.fields[key] ?? null)) out[key] = values[key] ?? null;
    }
    return out;
  }, [values, base]);
  const dirty = base !== null && (Object.keys(changes).length > 0 || slug !== (base.slug ?? ""));
  return {
    values,
    changes,
    slug,
    dirty,
    issues,
    setIssues,
    setSlug,
    setValue: (key: string, value: unknown) =>
      setValues((prior) => {
        const next = { ...prior };
        if (value === null || value === undefined) next[key] = null;
        else next[key] = value;
        return next;
      }),
    /** Puts values back into the form (a recovery draft): the form is dirty against the entry. */
    restore: (next: Record<string, unknown>) => setValues((prior) => ({ ...prior, ...next })),
    reset: (next: Entry) => {
      setBase(next);
      setValues({ ...next.fields });
      setSlug(next.slug ?? "");
      setIssues(new Map());
    },
  };
}

/** JSON with object keys sorted and nulls dropped, so key order and "cleared vs absent" do not count as changes. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v as object).sort()) if ((v as Record<string, unknown>)[k] !== null) out[k] = (v as Record<string, unknown>)[k];
      return out;
    }
    return v;
  });
}
