import type { ComponentChildren } from "preact";
import { Button, Notice } from "../ui/controls";
import { clock } from "./lease-banner";
import type { RecoveryDraft } from "./recovery-drafts";

/** The recovery draft's headline: why the text was kept. */
export function recoveryTitle(draft: RecoveryDraft, holder: string | null): string {
  if (draft.reason === "lock_lost") return `${holder ? `${holder} took over` : "Someone took over"} this entry. Your text is kept.`;
  if (draft.reason === "version_conflict") return "Someone saved this entry before you. Your text is kept.";
  return "You left unsaved changes here. Your text is kept.";
}

/**
 * The personal recovery draft (spec 3: a lost lease keeps the unsaved text; issue #30 item 7: text
 * typed and not saved is kept while typing): "Restore my text" puts it back into the form (the
 * editor's `onRestore`), "Discard" forgets it. It is kept on the server (every browser of the
 * person) until discarded, or until a save succeeds after it was restored. `bare`: only the words
 * and buttons, for the lease banner to hold (one banner after a take-over, not two).
 */
export function RecoveryPanel(props: { draft: RecoveryDraft; holder: string | null; canRestore: boolean; onRestore: () => void; onDiscard: () => void; bare?: boolean; children?: ComponentChildren }) {
  const { draft } = props;
  const body = (
    <>
      <p>
        Your unsaved text from {clock(draft.saved_at)} is kept as your personal recovery draft. Restore it into the form to look at it again
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
        {props.children}
      </div>
    </>
  );
  if (props.bare) return body;
  return (
    <section class="recovery-panel" aria-label="Recovery draft">
      <Notice kind="warning" title={recoveryTitle(draft, props.holder)}>
        {body}
      </Notice>
    </section>
  );
}
