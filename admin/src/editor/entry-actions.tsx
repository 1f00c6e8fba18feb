import type { Entry } from "../fields/types";
import type { LeaseState } from "./use-lease";

/**
 * The entry editor's lifecycle bar (issue #15 item 6): save draft, publish / unpublish, workflow
 * moves and assignment, Trash, preview, versions. Stub until the lifecycle work lands.
 */
export interface EntryActionsProps {
  site: string;
  entry: Entry;
  /** The form's current values (what a save sends) and whether they differ from the entry's. */
  values: Record<string, unknown>;
  dirty: boolean;
  lease: LeaseState;
  /** A write answered with the entry: the editor shows it and resets its form to it. */
  onEntry: (entry: Entry) => void;
  /** A refusal naming fields (`field_validation_failed`): the editor shows each under its field. */
  onIssues: (issues: Map<string, string[]>) => void;
  /** "Restore my text": put the recovery draft's values back into the form. Without it, the panel only offers Discard. */
  onRestore?: (values: Record<string, unknown>) => void;
  /** The slug the form holds, when the editor edits it (sent with a save when it changed). */
  slug?: string | null;
  /** Field labels by key, to name fields in refusals. */
  fieldLabels?: Record<string, string>;
  /** Hide the Versions link (on the versions screen itself). */
  hideVersionsLink?: boolean;
}

export function EntryActions(_props: EntryActionsProps) {
  return null;
}
