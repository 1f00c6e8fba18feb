import { admin, ApiError, manage, type ManageAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { paths } from "../router";
import { FieldDiff, richTextKeys } from "../ui/field-diff";
import { Link, Loading, Notice } from "../ui/controls";
import { BackLink, DecisionButtons, DecisionFacts, ReadFailed, useDecision, useProposalRead, type Refused } from "./decision";
import { fieldsOf, labelsOf, type Entry, type Model } from "./entry-lookup";
import { personWords, ProposalState, sourceWords, SourceLine, When, type Proposal } from "./words";

type Versions = ManageAnswer<"listEntryVersions">["data"];

interface Loaded {
  proposal: Proposal;
  entry: Entry | null;
  model: Model | null;
  versions: Versions;
}

async function loadAll(id: string, signal: AbortSignal): Promise<Loaded> {
  const proposal = await manage("getProposal", { params: { id }, signal });
  const entry = await manage("getEntry", { params: { id: proposal.instance_id }, signal }).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
  if (!entry) return { proposal, entry, model: null, versions: [] };
  const [model, versions] = await Promise.all([
    manage("getModel", { params: { id: entry.model_id }, signal }).then((m) => m as Model),
    manage("listEntryVersions", { params: { id: entry.instance_id }, signal }).then((v) => v.data),
  ]);
  return { proposal, entry, model, versions };
}

/** The outcome of the last action, kept until the next one. */
type Outcome = { kind: "applied" } | { kind: "rejected" } | Refused;

/**
 * One entry proposal: the proposed values against the version it was made on (the proposal's
 * `original_fields` are the base version's values of the proposed fields), separately whether the
 * entry changed since (its current version is no longer the base), and Apply / Reject with the
 * service's refusals in words — `proposal_stale` explained with what changed and what to do.
 */
export function EntryProposal({ site, id }: { site: string; id: string }) {
  const { loaded, heading } = useProposalRead((signal) => loadAll(id, signal), id);
  const { busy, outcome, decide } = useDecision<Outcome>(loaded.reload);
  const base = paths.review(site);
  const back = <BackLink href={base}>← All proposals</BackLink>;

  if (loaded.error) return <ReadFailed back={back} error={loaded.error} />;
  if (!loaded.data) return <Loading label="Loading the proposal…" />;
  const { proposal, entry, model, versions } = loaded.data;
  const labels = labelsOf(model);
  const order = fieldsOf(model).map((f) => f.key);
  const keys = Object.keys(proposal.fields);
  const title = entry ? entry.label || entry.slug || "Untitled entry" : "an entry that is no longer available";
  const baseVersion = versions.find((v) => v.id === proposal.base_version_id);
  const currentVersion = entry ? versions.find((v) => v.id === entry.current_version_id) : undefined;
  const changedSince = entry !== null && entry.current_version_id !== proposal.base_version_id;
  const savesSince = baseVersion ? versions.filter((v) => v.number > baseVersion.number) : [];
  const now = entry ? Object.fromEntries(keys.map((k) => [k, entry.fields[k]])) : {};
  const source = sourceWords(proposal.source);

  const apply = () => decide("apply", (key) => admin("applyProposal", { params: { id: proposal.id }, key }), () => ({ kind: "applied" }));
  const reject = () => decide("reject", (key) => admin("rejectProposal", { params: { id: proposal.id }, key }), () => ({ kind: "rejected" }));

  return (
    <article class="stack review-detail" aria-labelledby="proposal-heading">
      {back}
      <div class="page-header">
        <h1 id="proposal-heading" ref={heading} tabIndex={-1}>
          Proposal for “{title}”
        </h1>
        <ProposalState state={proposal.state} />
      </div>

      <dl class="review-facts">
        <dt>Entry</dt>
        <dd>
          {entry ? (
            <>
              <Link href={paths.entry(site, entry.instance_id, entry.lang)}>{title}</Link>{" "}
              <span class="muted">
                · {model?.name ?? entry.model_slug} · language <span lang={entry.lang}>{entry.lang}</span>
              </span>
            </>
          ) : (
            <span class="muted">Not available (deleted, or you may no longer read it).</span>
          )}
        </dd>
        <dt>Proposed by</dt>
        <dd>
          <SourceLine source={proposal.source} />
        </dd>
        <dt>When</dt>
        <dd>
          <When at={proposal.created_at} />
          {baseVersion ? <span class="muted"> · on version {baseVersion.number}</span> : null}
        </dd>
        <DecisionFacts proposal={proposal} declined="Rejected by" />
      </dl>

      <div aria-live="polite" class="stack">
        {outcome ? <OutcomeNotice outcome={outcome} site={site} entry={entry} labels={labels} sourceName={source.name} /> : null}
      </div>

      {entry?.trashed_at && proposal.state === "open" ? (
        <Notice kind="warning" title="This entry is in the Trash.">
          <p>Restore it from the Trash before applying this proposal, or reject the proposal.</p>
        </Notice>
      ) : null}
      {keys.length === 0 ? <p class="muted">This proposal changes only fields your role may not read.</p> : null}

      <section class="stack" aria-labelledby="proposed-heading">
        <h2 id="proposed-heading">Proposed changes</h2>
        <p class="muted">
          {baseVersion ? `Compared with version ${baseVersion.number}, the version the proposal was made on.` : "Compared with the version the proposal was made on."}
        </p>
        <FieldDiff before={proposal.original_fields} after={proposal.fields} labels={labels} order={order} richKeys={richTextKeys(fieldsOf(model))} headings={["Version it was made on", "Proposed"]} caption="Proposed values against the version the proposal was made on" />
      </section>

      {proposal.state === "open" && entry ? (
        <section class="stack" aria-labelledby="since-heading">
          <h2 id="since-heading">Since the proposal was made</h2>
          {changedSince ? (
            <ChangedSince entry={entry} savesSince={savesSince} currentNumber={currentVersion?.number} before={proposal.original_fields} now={now} labels={labels} order={order} site={site} />
          ) : (
            <p>
              <span aria-hidden="true">✓ </span>The entry has not changed since: the proposal applies to its current draft.
            </p>
          )}
        </section>
      ) : null}

      {proposal.state === "open" ? (
        <DecisionButtons
          busy={busy}
          apply={{ label: "Apply proposal", run: apply }}
          decline={{ name: "reject", label: "Reject proposal", busyLabel: "Rejecting…", question: "Reject this proposal?", confirm: "Reject", run: reject, children: <p>The entry stays as it is. {source.kind} “{source.name}” can make a new proposal later.</p> }}
        />
      ) : null}
    </article>
  );
}

/** How the entry moved past the proposal's version: saves since, and the proposed fields now. */
function ChangedSince(props: { entry: Entry; savesSince: Versions; currentNumber: number | undefined; before: Record<string, unknown>; now: Record<string, unknown>; labels: Record<string, string>; order: string[]; site: string }) {
  const last = props.savesSince.reduce<Versions[number] | undefined>((a, v) => (!a || v.number > a.number ? v : a), undefined);
  return (
    <div class="stack">
      <Notice kind="warning" title="The entry was saved after this proposal was made.">
        <p>
          {props.savesSince.length > 0 ? `${props.savesSince.length} ${props.savesSince.length === 1 ? "save" : "saves"} since` : "It changed since"}
          {props.currentNumber !== undefined ? `; it is now at version ${props.currentNumber}` : ""}
          {last ? (
            <>
              {" "}
              (last on <When at={last.created_at} />
              {last.created_by ? ` by ${personWords(last.created_by)}` : ""})
            </>
          ) : null}
          . The service applies a proposal only to the version it was made on, so applying it will be refused.
        </p>
      </Notice>
      <FieldDiff before={props.before} after={props.now} labels={props.labels} order={props.order} headings={["When proposed", "Now"]} caption="The proposed fields: their values when the proposal was made and now" />
      <p class="muted">
        The table lists the proposed fields that changed since; other fields may have changed too —{" "}
        <Link href={paths.versions(props.site, props.entry.instance_id, props.entry.lang)}>compare the versions</Link>.
      </p>
    </div>
  );
}

function OutcomeNotice({ outcome, site, entry, labels, sourceName }: { outcome: Outcome; site: string; entry: Entry | null; labels: Record<string, string>; sourceName: string }) {
  const open = entry ? <Link href={paths.entry(site, entry.instance_id, entry.lang)}>Open the entry</Link> : null;
  if (outcome.kind === "applied") {
    return (
      <Notice kind="success" title="Proposal applied: the entry's draft now holds the proposed values.">
        <p>It is saved as a new version of the draft; publish it from the entry when it is ready. {open}</p>
      </Notice>
    );
  }
  if (outcome.kind === "rejected") return <Notice kind="success" title="Proposal rejected. The entry was left as it is." />;
  const error = outcome.error;
  const failure = describeError(error);
  if (error instanceof ApiError && error.code === "proposal_stale" && typeof error.details.state === "string") {
    return (
      <Notice kind="warning" title={`This proposal was already ${error.details.state === "applied" ? "applied" : "rejected"}.`}>
        <p>Nothing more was changed. The page now shows who decided it and when.</p>
      </Notice>
    );
  }
  if (error instanceof ApiError && error.code === "proposal_stale") {
    return (
      <Notice kind="error" title="This proposal can no longer be applied: the entry was saved after it was made.">
        <p>Nothing was written. See “Since the proposal was made” below for what changed. What you can do:</p>
        <ul>
          <li>{open ?? "Open the entry"} and copy the proposed values in by hand where they still fit;</li>
          <li>ask {sourceName} for a new proposal based on the entry's current version;</li>
          <li>or reject this proposal.</li>
        </ul>
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
              <strong>{labels[path.split(/[.[]/)[0] ?? path] ?? path}</strong>
              {path.includes(".") || path.includes("[") ? ` (${path})` : ""}: {messages.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
      {error instanceof ApiError && (error.code === "locked" || error.code === "write_conflict") ? <p>Nothing was written. Try again once the entry is free, or {open ?? "open the entry"}.</p> : null}
    </Notice>
  );
}
