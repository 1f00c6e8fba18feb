import { useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice, PageHeader } from "../ui/controls";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { OutcomeNotice, SiteNav, useOutcome } from "./shared";
import "../styles/site.css";

type Redirect = ManageAnswer<"listRedirects">["data"][number];
type Review = ManageAnswer<"reviewRedirects">;
type Status = 301 | 302 | 307 | 308 | 410 | 451;
type Draft = { source: string; target: string; status: Status; note: string };

const STATUSES: readonly { value: Status; label: string }[] = [
  { value: 301, label: "301 Moved permanently" },
  { value: 308, label: "308 Moved permanently (keeps the method)" },
  { value: 302, label: "302 Found (temporary)" },
  { value: 307, label: "307 Temporary (keeps the method)" },
  { value: 410, label: "410 Gone" },
  { value: 451, label: "451 Unavailable for legal reasons" },
];
const needsTarget = (s: Status) => s !== 410 && s !== 451;
const EMPTY: Draft = { source: "", target: "", status: 301, note: "" };

/** The rule a refusal names, and the other rule, chain or live item it met, in words. */
function refusalItems(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const d = error.details as { rule?: { source?: string }; other?: { source?: string }; chain?: string[]; item?: { address?: string } };
  const out: string[] = [];
  if (d.rule?.source) out.push(`Rule: ${d.rule.source}`);
  if (d.other?.source) out.push(`Other rule: ${d.other.source}`);
  if (d.chain?.length) out.push(`Chain: ${d.chain.join(" → ")}`);
  if (d.item?.address) out.push(`Published item at ${d.item.address}`);
  return out;
}

/**
 * Redirects (issue #27 item 5, docs/redirects.md): the site's rules by source, each editable and
 * removable; a new rule can be checked first (`reviewRedirects`: problems, chains, where each
 * address lands, nothing written) and is then added. Every refusal is said in words, naming the
 * rule (and the other rule, the chain or the published item it met).
 */
export default function RedirectsScreen({ site }: ScreenProps) {
  const loaded = useLoad((signal) => manage("listRedirects", { signal }), []);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<Redirect | null>(null);
  const [removing, setRemoving] = useState<Redirect | null>(null);
  const [review, setReview] = useState<Review | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const note = useOutcome();
  const rules = loaded.data?.data ?? [];

  const body = () => ({ source: draft.source.trim(), status: draft.status, ...(needsTarget(draft.status) ? { target: draft.target.trim() } : { target: null }), note: draft.note.trim() || null });

  const check = async () => {
    setBusy("check");
    note.clear();
    try {
      const answer = await manage("reviewRedirects", { body: { rules: [body()] } });
      setReview(answer);
      note.say(answer.valid ? "This rule can be added." : "This rule would be refused. The review lists why.", answer.valid ? "success" : "error");
    } catch (error) {
      note.fail(error);
    } finally {
      setBusy(null);
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy("save");
    try {
      const saved = editing
        ? await manage("updateRedirect", { params: { id: editing.id }, body: { ...body(), expected_revision: editing.revision }, key: newActionKey() })
        : await manage("createRedirect", { body: body(), key: newActionKey() });
      note.say(editing ? `The redirect from ${saved.source} is saved.` : `The redirect from ${saved.source} is added.`);
      setDraft(EMPTY);
      setEditing(null);
      setReview(null);
      loaded.reload();
    } catch (error) {
      note.fail(error, {}, refusalItems(error));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (rule: Redirect) => {
    setBusy("remove");
    try {
      await manage("deleteRedirect", { params: { id: rule.id }, key: newActionKey() });
      note.say(`The redirect from ${rule.source} is removed.`);
      loaded.reload();
    } catch (error) {
      note.fail(error);
    } finally {
      setRemoving(null);
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title="Redirects" />
      <SiteNav site={site} />
      <OutcomeNotice outcome={note.outcome} />
      {loaded.loading && !loaded.data ? <Loading label="Loading redirects…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.data ? (
        <section class="stack site-panel" aria-labelledby="redirects-heading">
          <h2 id="redirects-heading">Rules</h2>
          <p class="muted">
            {rules.length} of {loaded.data.limits.redirects} rules ({rules.filter((r) => r.source.includes("*")).length} of {loaded.data.limits.patterns} patterns). The website reads them at /v1/_redirects.
          </p>
          {rules.length === 0 ? (
            <p class="muted">No redirect yet.</p>
          ) : (
            <table class="list responsive">
              <caption class="visually-hidden">Redirects by source</caption>
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">Status</th>
                  <th scope="col">To</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rules.map((r) => (
                  <tr>
                    <td class="mono">{r.source}</td>
                    <td>{r.status}</td>
                    <td class="mono">{r.target ?? "—"}</td>
                    <td>
                      <span class="row">
                        <Button
                          aria-label={`Edit the redirect from ${r.source}`}
                          onClick={() => {
                            setEditing(r);
                            setReview(null);
                            setDraft({ source: r.source, target: r.target ?? "", status: r.status as Status, note: r.note ?? "" });
                          }}
                        >
                          Edit
                        </Button>
                        <Button variant="danger" aria-label={`Remove the redirect from ${r.source}`} onClick={() => setRemoving(r)}>
                          Remove
                        </Button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      <form class="stack site-panel" aria-labelledby="redirect-form-heading" onSubmit={(e) => void save(e)}>
        <h2 id="redirect-form-heading">{editing ? `Edit the redirect from ${editing.source}` : "New redirect"}</h2>
        <Field label="From (a site path)" hint="Like /old-page, or a pattern with one * like /docs/*.">
          {({ id, describedBy }) => <input id={id} type="text" class="mono" required maxLength={512} value={draft.source} aria-describedby={describedBy} onInput={(e) => setDraft({ ...draft, source: (e.currentTarget as HTMLInputElement).value })} />}
        </Field>
        <Field label="Status">
          {({ id }) => (
            <select id={id} value={String(draft.status)} onChange={(e) => setDraft({ ...draft, status: Number((e.currentTarget as HTMLSelectElement).value) as Status })}>
              {STATUSES.map((s) => (
                <option value={String(s.value)}>{s.label}</option>
              ))}
            </select>
          )}
        </Field>
        {needsTarget(draft.status) ? (
          <Field label="To (a site path or an https URL)" hint="A pattern's target may repeat its *.">
            {({ id, describedBy }) => <input id={id} type="text" class="mono" required maxLength={1000} value={draft.target} aria-describedby={describedBy} onInput={(e) => setDraft({ ...draft, target: (e.currentTarget as HTMLInputElement).value })} />}
          </Field>
        ) : null}
        <Field label="Note (optional)">{({ id }) => <input id={id} type="text" maxLength={500} value={draft.note} onInput={(e) => setDraft({ ...draft, note: (e.currentTarget as HTMLInputElement).value })} />}</Field>
        {review ? (
          <div class="stack" aria-labelledby="review-heading">
            <h3 id="review-heading">Review</h3>
            {review.problems.length ? (
              <ul>
                {review.problems.map((p) => (
                  <li>
                    {describeError(new ApiError(422, p.code, p.message, {})).title} ({p.rule.source}
                    {p.other ? ` and ${p.other.source}` : ""}
                    {p.chain ? `: ${p.chain.join(" → ")}` : ""})
                  </li>
                ))}
              </ul>
            ) : null}
            <ul>
              {review.resolutions.map((r) => (
                <li>
                  <span class="mono">{r.path}</span> → {r.status === null ? "no redirect" : `${r.status}${r.location ? ` to ${r.location}` : ""}`}
                  {r.chain ? ` (a chain of ${r.hops.length} redirects)` : ""}
                  {r.cycle ? " (a cycle)" : ""}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div class="row">
          <Button busy={busy === "check"} onClick={() => void check()} disabled={!draft.source.trim()}>
            Check the rule
          </Button>
          <Button type="submit" variant="primary" busy={busy === "save"}>
            {editing ? "Save the redirect" : "Add the redirect"}
          </Button>
          {editing ? (
            <Button
              variant="ghost"
              onClick={() => {
                setEditing(null);
                setDraft(EMPTY);
                setReview(null);
              }}
            >
              Cancel editing
            </Button>
          ) : null}
        </div>
      </form>
      <ConfirmDialog open={removing !== null} title={`Remove the redirect from ${removing?.source ?? ""}?`} confirm="Remove the redirect" danger busy={busy === "remove"} onClose={() => setRemoving(null)} onConfirm={() => removing && void remove(removing)}>
        <p>Visitors of this address are no longer sent on.</p>
      </ConfirmDialog>
    </>
  );
}
