import type { Entry } from "../fields/types";
import { paths } from "../router";
import { Button, Link } from "../ui/controls";
import { clock } from "./lease-banner";
import { stateName } from "../ui/state-names";

/** The questions the bar opens (entry-actions.tsx shows the dialog of each). */
export type LifecycleAsk = "unpublish" | "trash" | "restore" | "assign" | "schedule";

/**
 * The entry editor's sticky action bar (issue #30 item 8): save, publish, unpublish, schedule,
 * workflow moves, assign, preview, versions and Trash — only the ones the entry's answer offers
 * (`workflow.transitions`) and the person may take. It holds no state: entry-actions.tsx runs
 * every action and says how it went.
 */
export function LifecycleBar(props: {
  site: string;
  entry: Entry;
  dirty: boolean;
  /** The action running now (its name), or null. */
  busy: string | null;
  /** Someone else holds the lease, or it is being taken: write buttons wait. */
  writeBlocked: boolean;
  /** Write buttons are offered at all (not to an observer, nor when no lease is possible). */
  canWrite: boolean;
  hideVersionsLink?: boolean;
  /** When the unsaved text was last kept on the server while typing. */
  keptAt: string | null;
  onSave: () => void;
  onPublish: () => void;
  onAskUnpublish: () => void;
  onMove: (to: string) => void;
  onPreview: () => void;
  onAsk: (ask: LifecycleAsk) => void;
}) {
  const { site, entry, dirty, busy, writeBlocked, canWrite } = props;
  const id = entry.instance_id;
  const lang = entry.lang;
  const trashed = entry.trashed_at !== null;
  const transitions = entry.workflow.transitions;
  const canPublish = transitions.some((t) => t.kind === "publish");
  const canUnpublish = transitions.some((t) => t.kind === "unpublish");
  const moves = transitions.filter((t) => t.kind === "move");
  return (
    <>
      {/* Sticky: save and publish stay in reach however long the form is (issue #30 item 8). */}
      <div class="row action-bar sticky-actions">
        {trashed ? (
          <Button variant="primary" busy={busy === "restore"} disabled={busy !== null} onClick={() => props.onAsk("restore")}>
            Restore from Trash
          </Button>
        ) : (
          <>
            {/* Actions an observer (or a role that cannot edit here) cannot take are not offered. */}
            {canWrite ? (
              <Button variant="primary" busy={busy === "save"} disabled={busy !== null || writeBlocked} aria-keyshortcuts="Control+S Meta+S" title="Save draft (Ctrl+S)" onClick={props.onSave}>
                Save draft
              </Button>
            ) : null}
            {canWrite && canPublish ? (
              <Button busy={busy === "publish"} disabled={busy !== null || writeBlocked || dirty} aria-describedby={dirty ? `publish-hint-${id}` : undefined} onClick={props.onPublish}>
                Publish {lang}
              </Button>
            ) : null}
            {canWrite && canUnpublish ? (
              <Button busy={busy === "unpublish"} disabled={busy !== null || writeBlocked} onClick={props.onAskUnpublish}>
                Unpublish {lang}
              </Button>
            ) : null}
            {canWrite && (canPublish || canUnpublish) ? (
              <Button disabled={busy !== null || writeBlocked} onClick={() => props.onAsk("schedule")}>
                Schedule…
              </Button>
            ) : null}
            {canWrite
              ? moves.map((t) => (
                  <Button busy={busy === `move:${t.to}`} disabled={busy !== null || writeBlocked} onClick={() => props.onMove(t.to)}>
                    Move to {stateName(t.to)}
                  </Button>
                ))
              : null}
            {canWrite ? (
              <Button disabled={busy !== null || writeBlocked} onClick={() => props.onAsk("assign")}>
                Assign…
              </Button>
            ) : null}
            <Button disabled={busy !== null} onClick={props.onPreview}>
              Preview
            </Button>
            {props.hideVersionsLink ? null : (
              <Link class="button" href={paths.versions(site, id, lang)}>
                Versions
              </Link>
            )}
            {canWrite ? (
              <Button variant="danger" disabled={busy !== null || writeBlocked} onClick={() => props.onAsk("trash")}>
                Move to Trash…
              </Button>
            ) : null}
          </>
        )}
        {props.keptAt && dirty ? <span class="muted autosave-note">Unsaved text kept at {clock(props.keptAt)}</span> : null}
      </div>
      {dirty && canPublish && canWrite && !trashed ? (
        <p class="hint muted" id={`publish-hint-${id}`}>
          Publishing publishes the saved draft: save your changes first.
        </p>
      ) : null}
    </>
  );
}
