import { useState } from "preact/hooks";
import { ApiError, manage, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { languageName } from "../media/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button } from "../ui/controls";
import { useAction } from "../ui/use-action";

type Entry = ManageAnswer<"listEntries">["data"][number];
type Kind = "publish" | "unpublish" | "trash";
export type BulkOutcome = { instance_id: string; name: string; ok: boolean; words: string };

const OPERATION = { publish: "bulkPublishEntries", unpublish: "bulkUnpublishEntries", trash: "bulkTrashEntries" } as const;
const DONE: Record<Kind, string> = { publish: "Published (every language)", unpublish: "Unpublished (every language)", trash: "Moved to Trash (every language)" };
const VERB: Record<Kind, string> = { publish: "Publish", unpublish: "Unpublish", trash: "Move to Trash" };

/** "Title (French)": how a row is named in selections and results. */
export const entryName = (e: Pick<Entry, "label" | "slug" | "lang">) => `${e.label ?? e.slug ?? "(untitled)"} (${languageName(e.lang) ?? e.lang})`;

/**
 * The bulk actions of the entries list (issue #30 item 10; docs/bulk-actions.md): publish,
 * unpublish or move to Trash the selected items — at most 25 per request, the service's cap — in one
 * request with one Idempotency-Key per click, and the result of every row in words (what changed,
 * or the refusal its single route would give). Publish and unpublish act on every language of an
 * item, as the routes do; the confirmation says so.
 */
export function BulkBar({ selected, onDone }: { selected: readonly Entry[]; onDone: (outcomes: BulkOutcome[], kind: Kind) => void }) {
  const [asking, setAsking] = useState<Kind | null>(null);
  const [error, setError] = useState<unknown>(null);
  const action = useAction();
  const ids = selected.map((e) => e.instance_id).slice(0, 25);

  const run = async (kind: Kind) => {
    setError(null);
    try {
      const answer = await action.run(kind, (key) => manage(OPERATION[kind], { body: { ids }, key }));
      if (answer === undefined) return;
      const byId = new Map(selected.map((e) => [e.instance_id, e]));
      onDone(
        answer.results.map((r) => {
          const entry = byId.get(r.id);
          const name = entry ? entryName(entry) : r.id;
          if (r.status === 200) return { instance_id: r.id, name, ok: true, words: DONE[kind] };
          const words = describeError(new ApiError(r.status, r.code ?? "refused", r.message ?? "", r.details ?? {}));
          return { instance_id: r.id, name, ok: false, words: `Not done: ${words.title}${words.detail ? ` ${words.detail}` : ""}` };
        }),
        kind,
      );
      setAsking(null);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div class="row bulk-bar" role="group" aria-label="Bulk actions">
      <span>
        {selected.length} selected{selected.length > 25 ? " (the first 25 are acted on)" : ""}
      </span>
      {(["publish", "unpublish", "trash"] as const).map((kind) => (
        <Button variant={kind === "trash" ? "danger" : undefined} disabled={selected.length === 0 || action.busy !== null} onClick={() => setAsking(kind)}>
          {VERB[kind]} selected…
        </Button>
      ))}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? `${VERB[asking]} ${ids.length} ${ids.length === 1 ? "item" : "items"}?` : ""}
        confirm={asking ? `${VERB[asking]} ${ids.length}` : ""}
        danger={asking === "trash" || asking === "unpublish"}
        busy={action.busy !== null}
        error={error}
        onConfirm={() => asking && void run(asking)}
        onClose={() => setAsking(null)}
      >
        <p>{asking === "trash" ? "Every language of each item goes to Trash; it can be restored from Trash." : "Every language of each item is included. Each item is done or refused on its own; the list shows each result."}</p>
        <ul>
          {selected.slice(0, 25).map((e) => (
            <li>{entryName(e)}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}
