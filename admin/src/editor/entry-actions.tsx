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
  /** The address slug the form holds (a save sends it when it differs from `entry.slug`). */
  slug?: string;
  lease: LeaseState;
  /** A write answered with the entry: the editor shows it and resets its form to it. */
  onEntry: (entry: Entry) => void;
  /** A refusal naming fields (`field_validation_failed`): the editor shows each under its field. */
  onIssues: (issues: Map<string, string[]>) => void;
}

export function EntryActions(_props: EntryActionsProps) {
  return null;
}
