import type { ModelOperation } from "../../schema/permissions";

/**
 * The default workflow (docs/workflow.md). Every language instance has its own state and revision.
 * A move names the model permission it needs; `kind` says whether it publishes, unpublishes or
 * only moves the item between editorial steps.
 */
export const WORKFLOW_STATES = ["draft", "in_review", "published", "unpublished"] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export type TransitionKind = "publish" | "unpublish" | "move";

export interface WorkflowMove {
  from: readonly WorkflowState[];
  to: WorkflowState;
  kind: TransitionKind;
  permission: ModelOperation;
}

export const WORKFLOW_MOVES: readonly WorkflowMove[] = [
  { from: ["draft", "unpublished"], to: "in_review", kind: "move", permission: "update" },
  { from: ["in_review", "unpublished"], to: "draft", kind: "move", permission: "update" },
  { from: ["draft", "in_review", "unpublished", "published"], to: "published", kind: "publish", permission: "publish" },
  { from: ["published"], to: "unpublished", kind: "unpublish", permission: "unpublish" },
];

export interface Transition {
  to: WorkflowState;
  kind: TransitionKind;
}

export interface WorkflowView {
  state: WorkflowState;
  revision: number;
  transitions: Transition[];
}

/** What an instance may do next. Publishing again is offered only when the draft differs. */
export function availableTransitions(entry: {
  workflow_state: string;
  current_version_id: string | null;
  published_version_id: string | null;
  trashed_at: string | null;
}): Transition[] {
  if (entry.trashed_at !== null) return [];
  const state = entry.workflow_state as WorkflowState;
  const transitions: Transition[] = [];
  for (const move of WORKFLOW_MOVES) {
    if (!move.from.includes(state)) continue;
    if (move.kind === "publish") {
      if (entry.current_version_id === null) continue;
      if (state === "published" && entry.current_version_id === entry.published_version_id) continue;
    }
    transitions.push({ to: move.to, kind: move.kind });
  }
  return transitions;
}

/** The move from the entry's state to `to`, if the workflow offers it now. */
export function findMove(
  entry: Parameters<typeof availableTransitions>[0],
  to: string,
): WorkflowMove | undefined {
  const offered = availableTransitions(entry).some((t) => t.to === to);
  if (!offered) return undefined;
  return WORKFLOW_MOVES.find((m) => m.to === to && m.from.includes(entry.workflow_state as WorkflowState));
}

export function workflowView(entry: Parameters<typeof availableTransitions>[0] & { workflow_revision: number }): WorkflowView {
  return {
    state: entry.workflow_state as WorkflowState,
    revision: entry.workflow_revision,
    transitions: availableTransitions(entry),
  };
}
