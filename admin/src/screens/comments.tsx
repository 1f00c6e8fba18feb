import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import { ProposalListFrame } from "../review/list-frame";
import { CellLabel, When } from "../review/words";
import { Button, Link, Notice, PageHeader, StateBadge } from "../ui/controls";
import "../styles/review.css";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";

type Comment = ManageAnswer<"listComments">["data"][number];
type Decision = "approved" | "rejected" | "spam";

const STATUSES = [
  { value: "pending", label: "Waiting for moderation" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
  { value: "spam", label: "Spam" },
  { value: "all", label: "All" },
] as const;

const ACTIONS: readonly { status: Decision; label: string; done: string }[] = [
  { status: "approved", label: "Approve", done: "approved: it is shown on the website" },
  { status: "rejected", label: "Reject", done: "rejected" },
  { status: "spam", label: "Spam", done: "marked as spam" },
];

/**
 * Comment moderation (issue #29 item 5, docs/comments.md): readers' comments, newest first,
 * waiting ones by default (`?status=`), each with Approve / Reject / Spam and Delete. A decision
 * someone else made meanwhile is explained in words (409 `conflict` carries the comment's state).
 */
export default function Comments({ site, search }: ScreenProps) {
  const status = search.get("status") ?? "pending";
  const loaded = useLoad((signal) => manage("listComments", { query: status === "all" ? {} : { status: status as "pending" }, signal }), [status]);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ kind: "success" | "error"; title: string; detail?: string } | null>(null);
  const rows = loaded.data?.data ?? [];

  async function act(comment: Comment, run: () => Promise<unknown>, done: string) {
    if (busy) return;
    setBusy(comment.id);
    try {
      await run();
      setOutcome({ kind: "success", title: `The comment by ${comment.author_name} was ${done}.` });
    } catch (error) {
      const words = describeError(error);
      setOutcome({ kind: "error", title: words.title, ...(words.detail ? { detail: words.detail } : {}) });
    } finally {
      setBusy(null);
      loaded.reload();
    }
  }

  return (
    <>
      <PageHeader title="Comments" />
      <p class="muted">
        Readers' comments on the website. New ones wait here until someone approves them (<Link href={paths.settingsComments(site)}>comment settings</Link>).
      </p>
      {/* The Notice is itself the live region (status, or alert for a refusal): one announcement, not two. */}
      {outcome ? (
        <Notice kind={outcome.kind} title={outcome.title}>
          {outcome.detail ? <p>{outcome.detail}</p> : null}
        </Notice>
      ) : null}
      <ProposalListFrame
        id="comments-heading"
        heading="Comments"
        states={STATUSES}
        state={status}
        onState={(s) => navigate(`${paths.comments(site)}?status=${encodeURIComponent(s)}`, { replace: true })}
        error={loaded.error}
        empty={loaded.data && rows.length === 0 ? (status === "pending" ? "No comment is waiting for moderation." : "No comment matches this filter.") : null}
        caption="Comments, newest first"
        columns={["Comment", "Posted", "Status"]}
        loading={loaded.loading && !loaded.data ? "Loading comments…" : null}
        rows={rows.map((c) => (
          <tr>
            <td>
              <strong>{c.author_name}</strong>
              <p class="comment-body">{c.body}</p>
              <Link href={paths.entry(site, c.instance_id)} aria-label={`Open the entry ${c.author_name} commented on`}>
                Open the entry
              </Link>
            </td>
            <td>
              <CellLabel>Posted </CellLabel>
              <When at={c.created_at} />
            </td>
            <td>
              <StateBadge state={c.status} />
            </td>
            <td>
              <span class="row">
                {ACTIONS.filter((a) => a.status !== c.status).map((a) => (
                  <Button
                    busy={busy === c.id}
                    aria-label={`${a.label} the comment by ${c.author_name}`}
                    onClick={() => act(c, () => manage("moderateComment", { params: { id: c.id }, body: { status: a.status }, key: newActionKey() }), a.done)}
                  >
                    {a.label}
                  </Button>
                ))}
                <Button variant="danger" busy={busy === c.id} aria-label={`Delete the comment by ${c.author_name}`} onClick={() => act(c, () => manage("deleteComment", { params: { id: c.id }, key: newActionKey() }), "deleted")}>
                  Delete
                </Button>
              </span>
            </td>
          </tr>
        ))}
      />
    </>
  );
}
