import { ApiError } from "./client";

/**
 * The service's refusals in words an editor reads (issue #15: "the service's refusals shown in
 * words"). The service's own message follows as the detail; codes not listed here show it alone.
 * Screens add their codes here rather than keeping their own tables.
 */
const WORDS: Record<string, string> = {
  unauthorized: "You are signed out. Sign in again to go on.",
  forbidden: "You have no access to this site.",
  csrf_failed: "This page is out of date. Reload it and try again.",
  permission_denied: "Your role does not allow this.",
  field_denied: "Your role may not change one of these fields.",
  locale_denied: "Your role may not edit this language.",
  not_owner: "Your role may only change entries you own.",
  field_validation_failed: "Some fields need attention before this can be saved.",
  // Relation fields (docs/admin-ui-fields.md).
  relation_target_not_found: "A linked entry no longer exists or is in Trash. Remove it and choose another.",
  relation_target_model_required: "Choose the linked entries again: this field links several models and each needs its model.",
  relation_target_model_not_allowed: "One linked entry is of a model this field does not link to.",
  relation_duplicate_target: "An entry is linked twice in the same field.",
  relation_too_few: "This field needs more linked entries.",
  relation_too_many: "This field holds too many linked entries.",
  relation_hierarchy_cycle: "An entry cannot be its own parent, nor the parent of one of its parents.",
  relation_target_taken: "A chosen entry is already linked from another entry through this field.",
  dependent_content: "Other published content links to this entry. Unpublish or change that content first.",
  locked: "Someone else is editing this entry in this language.",
  lock_lost: "Someone took over this entry. Your unsaved text is kept in a recovery draft.",
  too_many_leases: "You have too many editors open. Close some and try again.",
  write_conflict: "Someone saved this entry after you opened it. Reload to see their changes.",
  slug_taken: "This slug is already used by another entry.",
  proposal_stale: "The entry changed after this proposal was made, so it can no longer be applied as it is.",
  schema_proposal_stale: "The model changed after this proposal was made, so it can no longer be applied as it is.",
  rate_limited: "Too many requests. Wait a moment and try again.",
  payload_too_large: "This is too large to send.",
  not_found: "This no longer exists, or you may not see it.",
  media_in_use: "This file is used by content. Remove it from that content first.",
  invalid_transition: "This workflow move is not possible from the entry's current state.",
};

/** A refusal in words: the editor's sentence and the service's message. */
export function describeError(error: unknown): { title: string; detail?: string; code?: string } {
  if (error instanceof ApiError) {
    const words = WORDS[error.code];
    return words ? { title: words, detail: error.message, code: error.code } : { title: error.message, code: error.code };
  }
  if (error instanceof Error) return { title: "The service could not be reached.", detail: error.message };
  return { title: "Something went wrong." };
}

/** Field issues of a `field_validation_failed` (or `invalid_request`) refusal by path, e.g. `faq[1].question`. */
export function fieldIssues(error: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!(error instanceof ApiError)) return out;
  const list = (error.details.issues ?? error.details.fields ?? error.details.errors) as unknown;
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (typeof item !== "object" || item === null) continue;
    const rec = item as Record<string, unknown>;
    const path = typeof rec.path === "string" ? rec.path : typeof rec.field === "string" ? rec.field : "";
    const message = typeof rec.message === "string" ? rec.message : typeof rec.code === "string" ? rec.code : "Invalid value";
    out.set(path, [...(out.get(path) ?? []), message]);
  }
  return out;
}
