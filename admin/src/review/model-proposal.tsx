import { admin, ApiError, manage } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { paths } from "../router";
import { Link, Loading, Notice } from "../ui/controls";
import { labelsOf, type Model } from "./entry-lookup";
import { definitionChanges, type FieldChange } from "./model-diff";
import { BackLink, DecisionButtons, DecisionFacts, ReadFailed, useDecision, useProposalRead, type Refused } from "./decision";
import { CHANGE_KINDS, ProposalState, reviewPaths, sourceWords, SourceLine, typeWords, When, type ModelProposal as Proposal } from "./words";

type Change = Proposal["changes"][number];

async function loadAll(id: string, signal: AbortSignal): Promise<{ proposal: Proposal; model: Model | null }> {
  const proposal = await manage("getModelProposal", { params: { id }, signal });
  const model = proposal.model_id
    ? await manage("getModel", { params: { id: proposal.model_id }, signal })
        .then((m) => m as Model)
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        })
    : null;
  return { proposal, model };
}

type Outcome = { kind: "applied"; modelId: string | null } | { kind: "dismissed" } | Refused;

/**
 * One model proposal: the proposed definition against the model as it is now (model settings,
 * fields added, removed and changed with their labels and types), the content-breaking changes
 * found when it was made, and Apply / Dismiss with `schema_proposal_stale` and
 * `model_change_blocked` (with its kinds) in words.
 */
export function ModelProposalView({ site, id }: { site: string; id: string }) {
  const { loaded, heading } = useProposalRead((signal) => loadAll(id, signal), id);
  const { busy, outcome, decide } = useDecision<Outcome>(loaded.reload);
  const base = paths.review(site);
  const back = <BackLink href={reviewPaths.list(base, "models")}>← All model proposals</BackLink>;

  if (loaded.error) return <ReadFailed back={back} error={loaded.error} />;
  if (!loaded.data) return <Loading label="Loading the model proposal…" />;
  const { proposal, model } = loaded.data;
  const proposedName = proposal.definition.model.name;
  const title = proposal.mode === "create" ? `New model “${proposedName}”` : `Change to the model “${model?.name ?? proposedName}”`;
  const changes = definitionChanges(proposal.definition, proposal.mode === "update" && model ? model.definition : null);
  const source = sourceWords(proposal.source);
  // Field labels by key: the model's now, and the proposal's own (new fields).
  const labels = { ...labelsOf(model), ...Object.fromEntries(proposal.definition.fields.filter((f) => typeof f.key === "string" && typeof f.label === "string").map((f) => [f.key as string, f.label as string])) };

  const apply = () =>
    decide(
      "apply",
      (key) => admin("applyModelProposal", { params: { id: proposal.id }, key }),
      (value): Outcome => {
        const answer = value as { model?: { model_id?: unknown } };
        return { kind: "applied", modelId: typeof answer.model?.model_id === "string" ? answer.model.model_id : proposal.model_id };
      },
    );
  const dismiss = () => decide("dismiss", (key) => admin("dismissModelProposal", { params: { id: proposal.id }, key }), () => ({ kind: "dismissed" }));

  return (
    <article class="stack review-detail" aria-labelledby="model-proposal-heading">
      {back}
      <div class="page-header">
        <h1 id="model-proposal-heading" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <span class="row">
          <ProposalState state={proposal.state} />
          {proposal.state === "open" && proposal.stale ? <ProposalState state="stale" /> : null}
        </span>
      </div>

      <dl class="review-facts">
        <dt>Proposed by</dt>
        <dd>
          <SourceLine source={proposal.source} />
        </dd>
        <dt>When</dt>
        <dd>
          <When at={proposal.created_at} />
        </dd>
        <DecisionFacts proposal={proposal} declined="Dismissed by" />
      </dl>

      <div aria-live="polite" class="stack">
        {outcome ? <OutcomeNotice outcome={outcome} site={site} sourceName={source.name} labels={labels} /> : null}
      </div>

      {proposal.state === "open" && proposal.stale ? (
        <Notice kind="warning" title="The model changed after this proposal was made.">
          <p>
            It can no longer be applied as it is; only dismissing it is possible. Ask {source.name} for a new proposal based on the model as it is now. The comparison below is against the model
            as it is now.
          </p>
        </Notice>
      ) : null}
      {proposal.mode === "update" && !model ? <Notice kind="warning" title="The model this proposal changes no longer exists (or you may no longer read it)." /> : null}

      <section class="stack" aria-labelledby="definition-heading">
        <h2 id="definition-heading">Proposed definition</h2>
        {proposal.mode === "create" ? (
          <p>
            A new {proposal.definition.model.kind === "single" ? "single-entry" : "collection"} model named <strong>{proposedName}</strong> with the address{" "}
            <code>{proposal.definition.model.slug}</code>
            {proposal.definition.model.enableI18n ? ", translated into the site's languages" : ""}.
          </p>
        ) : null}
        {changes.model.length > 0 ? (
          <table class="list responsive review-settings">
            <caption>Model settings that change</caption>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Now</th>
                <th scope="col">Proposed</th>
              </tr>
            </thead>
            <tbody>
              {changes.model.map((c) => (
                <tr>
                  <th scope="row">{c.setting}</th>
                  <td>
                    <del>{c.before}</del>
                  </td>
                  <td>
                    <ins>{c.after}</ins>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <FieldGroup title={proposal.mode === "create" ? "Fields" : "Fields added"} mark="+" fields={changes.added} />
        <FieldGroup title="Fields removed" mark="−" fields={changes.removed} />
        <FieldGroup title="Fields changed" mark="~" fields={changes.changed} />
        {proposal.mode === "update" && model && changes.model.length + changes.added.length + changes.removed.length + changes.changed.length === 0 ? (
          <p class="muted">This proposal changes nothing against the model as it is now.</p>
        ) : null}
        {changes.unchanged > 0 ? (
          <p class="muted">
            {changes.unchanged} {changes.unchanged === 1 ? "field stays" : "fields stay"} as {changes.unchanged === 1 ? "it is" : "they are"}.
          </p>
        ) : null}
      </section>

      {proposal.changes.length > 0 ? (
        <section class="stack" aria-labelledby="breaking-heading">
          <h2 id="breaking-heading">Changes that affect existing content</h2>
          <p class="muted">Found when the proposal was made; the service checks again when it is applied and refuses while content would still break.</p>
          <ChangeList changes={proposal.changes} labels={labels} />
        </section>
      ) : null}

      {proposal.state === "open" ? (
        <DecisionButtons
          busy={busy}
          apply={{ label: "Apply model proposal", run: apply }}
          decline={{ name: "dismiss", label: "Dismiss model proposal", busyLabel: "Dismissing…", question: "Dismiss this model proposal?", confirm: "Dismiss", run: dismiss, children: <p>The model stays as it is.</p> }}
        />
      ) : null}
    </article>
  );
}

function FieldGroup({ title, mark, fields }: { title: string; mark: string; fields: FieldChange[] }) {
  if (fields.length === 0) return null;
  return (
    <div class="stack review-field-group">
      <h3>
        {title} ({fields.length})
      </h3>
      <ul class="review-fields">
        {fields.map((f) => (
          <li>
            <span aria-hidden="true" class="review-mark">
              {mark}
            </span>
            <strong>{f.label}</strong> <span class="muted">({typeWords(f.type)}, key <code>{f.key}</code>)</span>
            {f.settings.length > 0 ? (
              <ul>
                {f.settings.map((s) => (
                  <li>
                    {s.setting}: <del>{s.before}</del> → <ins>{s.after}</ins>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Content-breaking changes (a proposal's `changes`, or model_change_blocked's) with their kinds in words. */
function ChangeList({ changes, labels }: { changes: readonly Change[]; labels: Record<string, string> }) {
  return (
    <ul class="stack review-changes">
      {changes.map((c) => (
        <li>
          <span class="review-change-kind">{CHANGE_KINDS[c.kind] ?? c.kind}</span>
          {c.field ? (
            <>
              {" "}
              — field {labels[c.field] && labels[c.field] !== c.field ? `${labels[c.field]} ` : ""}
              <code>{c.field}</code>
            </>
          ) : null}
          {c.affected_count ? ` (${c.affected_count} ${c.affected_count === 1 ? "entry" : "entries"})` : ""}
          {c.message ? <div>{c.message}</div> : null}
          {c.suggestion ? <div class="muted">What to do: {c.suggestion}</div> : null}
        </li>
      ))}
    </ul>
  );
}

function isChange(value: unknown): value is Change {
  return typeof value === "object" && value !== null && typeof (value as Change).kind === "string";
}

function OutcomeNotice({ outcome, site, sourceName, labels }: { outcome: Outcome; site: string; sourceName: string; labels: Record<string, string> }) {
  if (outcome.kind === "applied") {
    return (
      <Notice kind="success" title="Model proposal applied: the model now has the proposed definition.">
        {outcome.modelId ? (
          <p>
            <Link href={paths.entries(site, outcome.modelId)}>Open the model's entries</Link>
          </p>
        ) : null}
      </Notice>
    );
  }
  if (outcome.kind === "dismissed") return <Notice kind="success" title="Model proposal dismissed. The model was left as it is." />;
  const error = outcome.error;
  const failure = describeError(error);
  if (error instanceof ApiError && error.code === "schema_proposal_stale") {
    if (typeof error.details.state === "string") {
      return (
        <Notice kind="warning" title={`This proposal was already ${error.details.state === "applied" ? "applied" : "dismissed"}.`}>
          <p>Nothing more was changed. The page now shows who decided it and when.</p>
        </Notice>
      );
    }
    return (
      <Notice kind="error" title="This proposal can no longer be applied: the model changed after it was made.">
        <p>
          Nothing was written.
          {typeof error.details.current_updated_at === "string" ? (
            <>
              {" "}
              The model was last changed on <When at={error.details.current_updated_at} />.
            </>
          ) : (
            " The model no longer exists."
          )}{" "}
          Dismiss this proposal and ask {sourceName} for a new one based on the model as it is now.
        </p>
      </Notice>
    );
  }
  if (error instanceof ApiError && error.code === "model_change_blocked") {
    const list = Array.isArray(error.details.changes) ? error.details.changes.filter(isChange) : [];
    return (
      <Notice kind="error" title="This change would break existing content, so it was not applied.">
        <p>Nothing was written; the proposal stays open. Change the content first, or dismiss the proposal and ask {sourceName} for one that keeps the content valid.</p>
        {list.length ? <ChangeList changes={list} labels={labels} /> : null}
      </Notice>
    );
  }
  const issues = fieldIssues(error);
  return (
    <Notice kind="error" title={failure.title}>
      {failure.detail ? <p>{failure.detail}</p> : null}
      {issues.size > 0 ? (
        <ul>
          {[...issues].map(([path, messages]) => (
            <li>
              <code>{path}</code>: {messages.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}
