import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import { Field, Link, Loading, Notice } from "../ui/controls";
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
  const failure = loaded.error ? describeError(loaded.error) : null;
  const rows = loaded.data?.list ?? [];
  return (
    <section aria-labelledby="model-proposals-heading" class="stack">
      <div class="row review-toolbar">
        <h2 id="model-proposals-heading">Model proposals</h2>
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
      {loaded.loading && !loaded.data ? <Loading label="Loading model proposals…" /> : null}
      {loaded.data && rows.length === 0 ? (
        <p class="muted" role="status">
          {state === "open" ? "No model proposal is waiting for review." : "No model proposal matches this filter."}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <table class="list responsive review-list">
          <caption class="visually-hidden">Model proposals, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Proposal</th>
              <th scope="col">Proposed by</th>
              <th scope="col">When</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => {
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
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
