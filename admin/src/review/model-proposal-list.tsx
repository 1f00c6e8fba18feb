import { manage } from "../api/client";
import { paths } from "../router";
import { Link } from "../ui/controls";
import { ProposalListFrame } from "./list-frame";
import { readModels } from "./entry-lookup";
import { useLoad } from "../screens/use-load";
import { CellLabel, ProposalState, reviewPaths, SourceLine, When } from "./words";

const STATES = [
  { value: "open", label: "Open" },
  { value: "applied", label: "Applied" },
  { value: "dismissed", label: "Dismissed" },
  { value: "all", label: "All" },
] as const;

/**
 * Model proposals (GET /models/proposals), newest first, `open` unless the filter says otherwise:
 * a new model or a change to one, who proposed it, when, whether it is out of date and how many
 * content-breaking changes it was found to hold.
 */
export function ModelProposalList({ site, state, onState }: { site: string; state: string; onState: (state: string) => void }) {
  const base = paths.review(site);
  const loaded = useLoad(
    async (signal) => {
      const [list, models] = await Promise.all([manage("listModelProposals", { query: state === "all" ? {} : { state: state as "open" }, signal }), readModels(signal)]);
      return { list: list.data, models };
    },
    [state],
  );
  const rows = loaded.data?.list ?? [];
  return (
    <ProposalListFrame
      id="model-proposals-heading"
      heading="Model proposals"
      states={STATES}
      state={state}
      onState={onState}
      error={loaded.error}
      empty={loaded.data && rows.length === 0 ? (state === "open" ? "No model proposal is waiting for review." : "No model proposal matches this filter.") : null}
      caption="Model proposals, newest first"
      columns={["Proposal", "Proposed by", "When", "State"]}
      loading={loaded.loading && !loaded.data ? "Loading model proposals…" : null}
      rows={rows.map((p) => {
        const current = p.model_id ? loaded.data?.models.get(p.model_id) : undefined;
        const what = p.mode === "create" ? `New model “${p.definition.model.name}”` : `Change to “${current?.name ?? p.definition.model.name}”`;
        return (
          <tr>
            <td>
              <strong>{what}</strong>
              <div class="muted review-small">
                {p.definition.fields.length} {p.definition.fields.length === 1 ? "field" : "fields"}
                {p.changes.length ? ` · ${p.changes.length} content-breaking ${p.changes.length === 1 ? "change" : "changes"}` : ""}
              </div>
            </td>
            <td>
              <SourceLine source={p.source} />
            </td>
            <td>
              <CellLabel>Proposed </CellLabel>
              <When at={p.created_at} />
            </td>
            <td>
              <span class="row">
                <ProposalState state={p.state} />
                {p.state === "open" && p.stale ? <ProposalState state="stale" /> : null}
              </span>
            </td>
            <td>
              <Link class="button" href={reviewPaths.modelProposal(base, p.id)} aria-label={`Review the proposal: ${what}`}>
                Review
              </Link>
            </td>
          </tr>
        );
      })}
    />
  );
}
