import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import { Button, Field, Link, Loading, Notice } from "../ui/controls";
import { readEntries, readModels, labelsOf, type Entry, type Model } from "./entry-lookup";
import { CellLabel, ProposalState, reviewPaths, SourceLine, When, type Proposal } from "./words";

const PAGE = 20;
const STATES = [
  { value: "open", label: "Open" },
  { value: "applied", label: "Applied" },
  { value: "rejected", label: "Rejected" },
  { value: "all", label: "All" },
] as const;

/**
 * Entry proposals (GET /proposals), newest first, `open` unless the filter says otherwise, paged by
 * cursor with "Show more": each with the entry it is for (title, language, model, linked to the
 * editor), who proposed it, the fields it changes and when.
 */
export function EntryProposalList({ site, state, onState }: { site: string; state: string; onState: (state: string) => void }) {
  const base = paths.review(site);
  const [rows, setRows] = useState<Proposal[]>([]);
  const [entries, setEntries] = useState<Map<string, Entry | null>>(new Map());
  const [models, setModels] = useState<Map<string, Model>>(new Map());
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);

  const load = async (after: string | null, signal: AbortSignal) => {
    setLoading(true);
    setError(null);
    try {
      const [page, modelMap] = await Promise.all([
        manage("listProposals", { query: { ...(state === "all" ? {} : { state: state as "open" }), limit: String(PAGE), ...(after ? { cursor: after } : {}) }, signal }),
        models.size ? Promise.resolve(models) : readModels(signal),
      ]);
      const found = await readEntries(page.data.map((p) => p.instance_id), signal);
      if (signal.aborted) return;
      setModels(modelMap);
      setEntries((old) => new Map([...(after ? old : []), ...found]));
      setRows((old) => [...(after ? old : []), ...page.data]);
      setCursor(page.page.has_more ? page.page.next_cursor : null);
    } catch (thrown) {
      if (!signal.aborted) setError(thrown);
    } finally {
      if (!signal.aborted) setLoading(false);
    }
  };

  useEffect(() => {
    const abort = new AbortController();
    void load(null, abort.signal);
    return () => abort.abort();
  }, [state]);

  const failure = error ? describeError(error) : null;
  return (
    <section aria-labelledby="entry-proposals-heading" class="stack">
      <div class="row review-toolbar">
        <h2 id="entry-proposals-heading">Entry proposals</h2>
        <Field label="Show">
          {({ id }) => (
            <select id={id} value={state} onChange={(e) => onState((e.currentTarget as HTMLSelectElement).value)}>
              {STATES.map((s) => (
                <option value={s.value}>{s.label}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {failure ? (
        <Notice kind="error" title={failure.title}>
          {failure.detail ? <p>{failure.detail}</p> : null}
        </Notice>
      ) : null}
      {rows.length === 0 && !loading && !failure ? (
        <p class="muted" role="status">
          {state === "open" ? "No proposal is waiting for review." : "No proposal matches this filter."}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <table class="list responsive review-list">
          <caption class="visually-hidden">Entry proposals, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Entry</th>
              <th scope="col">Proposed by</th>
              <th scope="col">Fields</th>
              <th scope="col">When</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => {
              const entry = entries.get(p.instance_id);
              const model = entry ? models.get(entry.model_id) : undefined;
              const labels = labelsOf(model);
              const title = entry ? entry.label || entry.slug || "Untitled entry" : "Entry not available";
              return (
                <tr>
                  <td>
                    {entry ? (
                      <Link href={paths.entry(site, entry.instance_id, entry.lang)}>{title}</Link>
                    ) : (
                      <span class="muted">{title}</span>
                    )}
                    {entry ? (
                      <div class="muted review-small">
                        {model?.name ?? entry.model_slug} · <span lang={entry.lang}>{entry.lang}</span>
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <SourceLine source={p.source} />
                  </td>
                  <td>
                    <CellLabel>Fields: </CellLabel>
                    {Object.keys(p.fields).map((k) => labels[k] ?? k).join(", ") || <span class="muted">(none you may read)</span>}
                  </td>
                  <td>
                    <CellLabel>Proposed </CellLabel>
                    <When at={p.created_at} />
                  </td>
                  <td>
                    <ProposalState state={p.state} />
                  </td>
                  <td>
                    <Link class="button" href={reviewPaths.proposal(base, p.id)} aria-label={`Review the proposal for ${title}`}>
                      Review
                    </Link>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {loading ? <Loading label="Loading proposals…" /> : null}
      {cursor && !loading ? (
        <div>
          <Button
            onClick={() => {
              const abort = new AbortController();
              void load(cursor, abort.signal);
            }}
          >
            Show more proposals
          </Button>
        </div>
      ) : null}
    </section>
  );
}
