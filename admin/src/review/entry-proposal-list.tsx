import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { paths } from "../router";
import { Button, Link } from "../ui/controls";
import { ProposalListFrame } from "./list-frame";
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

  return (
    <ProposalListFrame
      id="entry-proposals-heading"
      heading="Entry proposals"
      states={STATES}
      state={state}
      onState={onState}
      error={error}
      empty={rows.length === 0 && !loading ? (state === "open" ? "No proposal is waiting for review." : "No proposal matches this filter.") : null}
      caption="Entry proposals, newest first"
      columns={["Entry", "Proposed by", "Fields", "When", "State"]}
      loading={loading ? "Loading proposals…" : null}
      rows={rows.map((p) => {
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
    >
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
    </ProposalListFrame>
  );
}
