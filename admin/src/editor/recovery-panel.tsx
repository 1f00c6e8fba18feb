import { Button, Notice } from "../ui/controls";
import { clock } from "./lease-banner";
import type { RecoveryDraft } from "./recovery-drafts";

/**
 * The personal recovery draft (spec 3: a lost lease keeps the unsaved text): "Restore my text"
 * puts it back into the form (the editor's `onRestore`), "Discard" forgets it. It stays in this
 * browser until discarded, or until a save succeeds after it was restored.
 */
export function RecoveryPanel(props: { draft: RecoveryDraft; holder: string | null; canRestore: boolean; onRestore: () => void; onDiscard: () => void }) {
  const { draft } = props;
  const title =
    draft.reason === "lock_lost"
      ? `${props.holder ? `${props.holder} took over` : "Someone took over"} this entry. Your text is kept.`
      : "Someone saved this entry before you. Your text is kept.";
  return (
    <section class="recovery-panel" aria-label="Recovery draft">
      <Notice kind="warning" title={title}>
        <p>
          Your unsaved text from {clock(draft.saved_at)} is kept as a personal recovery draft in this browser. Restore it into the form to look at it again
          {draft.reason === "lock_lost" ? " (to save it, take over editing)" : ""}, or discard it.
        </p>
        <div class="row">
          {props.canRestore ? (
            <Button variant="primary" onClick={props.onRestore}>
              Restore my text
            </Button>
          ) : (
            <span class="muted">Open the entry's editor to restore it.</span>
          )}
          <Button onClick={props.onDiscard}>Discard</Button>
        </div>
      </Notice>
    </section>
  );
}
