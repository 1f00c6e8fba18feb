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
  field_validation_failed: "Some fields need attention before this can be saved or published.",
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
  model_change_blocked: "This change to the model would break existing content, so it was not applied.",
  proposal_field_unsupported: "Relation and media fields cannot be proposed.",
  single_entry_conflict: "A single-entry model may hold only one entry, and more exist.",
  media_not_found: "A media file this names no longer exists.",
  missing_permission: "Your role does not allow this.",
  entry_in_trash: "This entry is in the Trash. Restore it before changing it.",
  rich_block_unregistered: "The rich text holds a block type this site does not know.",
  rich_block_version_unknown: "The rich text holds a block in a version this site does not know.",
  rich_block_values_invalid: "A block in the rich text has values that are not valid.",
  stale_role_grant: "A role still names a field or model this change removes. Change those roles first.",
  stale_token_scope: "An API token or management credential still names a model this change removes. Revoke or replace it first.",
  rate_limited: "Too many requests. Wait a moment and try again.",
  payload_too_large: "This is too large to send.",
  not_found: "This no longer exists, or you may not see it.",
  media_in_use: "This file is used by content. Remove it from that content first.",
  media_usage_unreadable: "This file is used by content you may not read, so it cannot be removed by you.",
  media_duplicate: "This site already holds this file.",
  media_changed: "Someone changed this file after you opened it. Reload it to see their changes.",
  media_framing_not_image: "Only images have a focal point.",
  media_kind_mismatch: "The new file must be of the same kind as the old one (an image for an image).",
  media_linked: "This file is linked from a plugin's media source and cannot be replaced here; import it by copy to manage it.",
  media_folder_exists: "A folder with this name is already there.",
  media_folder_too_deep: "Folders may be nested at most five levels deep.",
  media_folder_limit: "This site has the most folders it may have.",
  media_folder_not_found: "This folder no longer exists. Reload the folders.",
  media_folder_changed: "Someone changed this folder after you opened it. Reload the folders and try again.",
  media_folder_cycle: "A folder cannot be moved into itself or into a folder below it.",
  executable_file: "Programs and scripts cannot be uploaded.",
  unsupported_media_type: "This kind of file cannot be uploaded to this site.",
  unknown_locale: "This language is not one of the site's languages.",
  invalid_transition: "This workflow move is not possible from the entry's current state.",
  // Lifecycle (docs/admin-ui-lifecycle.md)
  version_conflict: "Someone saved this entry after you opened it. Reload to see their version; your text is kept.",
  transition_unavailable: "This step is not possible from the entry's current workflow state.",
  workflow_conflict: "The entry moved through its workflow since you opened it. Reload and try again.",
  entry_published: "A published entry cannot go to Trash. Unpublish it first.",
  assignee_not_eligible: "One of the people chosen may not work on this entry.",
  idempotency_in_progress: "This action is still being processed. Wait a moment before trying again.",
  // People and invitations (docs/people.md).
  escalation_refused: "You can only give roles, and change people, within what your own role may do.",
  last_administrator: "This would leave the site without an active administrator. Make someone else an administrator first.",
  password_reset_refused: "A reset link cannot be made for this person from this site.",
  password_reset_not_found: "This password reset link is not valid any more — ask an administrator for a new one.",
  own_membership: "You cannot deactivate or remove yourself. Ask another administrator.",
  already_member: "This person is already a member of this site.",
  account_exists: "An account with this email exists now. Enter that account's password.",
  invitation_not_found: "This invitation link is not valid any more — ask for a new one.",
  unknown_role: "This role does not exist on this site any more. Reload the page and choose another.",
  // Content screens and the entry editor (docs/admin-ui-content.md).
  invalid_slug: "A slug is 1 to 200 lower-case letters, digits and single hyphens (like harbour-lights).",
  single_entry_exists: "This model holds a single entry, and it exists already.",
  entry_not_in_trash: "This entry is not in Trash (someone may have restored it already).",
  locale_exists: "The entry has this language already.",
  language_in_trash: "This language of the entry is in Trash. Restore it instead of adding it again.",
  // Site screens: imports, exports, releases, redirects, menus, settings (docs/admin-ui-site.md).
  import_state_conflict: "The import is not at a point where this can be done. Its state is shown below.",
  import_checksum_mismatch: "The file arrived damaged (its SHA-256 differs). Choose the file again.",
  import_file_too_large: "This file is larger than an import may be (100 MiB).",
  import_upload_incomplete: "Some parts of the file did not arrive. Choose the file again.",
  import_part_invalid: "A part of the file was refused. Choose the file again.",
  import_review_pending: "The review needs a decision before the import writes anything.",
  import_mapping_invalid: "A chosen model cannot take these items (unknown, single-entry or without a title field).",
  export_limited_role: "Your role does not read the whole site, so it cannot export the whole site.",
  export_state_conflict: "The export is not finished yet.",
  release_refused: "The release was not published: some of its changes were refused, so none was made.",
  release_published: "This release was published already; it is history now.",
  schedule_time_past: "Choose a time in the future.",
  schedule_not_pending: "This schedule has already fired or was cancelled.",
  redirect_limit: "A site may hold at most 256 redirects, 32 of them patterns.",
  redirect_source_taken: "Another redirect already starts from this address.",
  redirect_reserved: "This address belongs to the platform (API, media, sitemap…) and cannot be redirected.",
  redirect_ambiguous: "This pattern and another match the same addresses and neither is more specific.",
  redirect_cycle: "Following these redirects would come back to where it started.",
  redirect_address_live: "A published item is served at this address. Unpublish it or move it first.",
  address_redirected: "A redirect holds this item's website address.",
  address_taken: "Another published item is served at this address. Choose another slug or parent, or move that item first.",
  settings_changed: "Someone changed these settings after you opened them. Reload to see their changes.",
  menu_changed: "Someone changed this menu after you opened it. Reload to see their changes.",
  menu_not_found: "This menu no longer exists.",
  private_field_on_public_route: "A public saved query cannot name a private field.",
  saved_query_name_taken: "Another saved query has this name.",
  saved_query_changed: "Someone changed this saved query after you opened it. Reload to see their changes.",
  saved_query_not_found: "This saved query no longer exists.",
  // Roles (docs/admin-ui-models.md, docs/people.md).
  role_seeded: "This role came with the site. It can be changed but not deleted, and its slug stays.",
  role_in_use: "People hold this role, so it cannot be deleted. Give them another role on the People screen first.",
  last_granting_role: "This is the last role that may manage roles and people: it must keep that permission and cannot be deleted.",
  role_in_access_rule: "An access rule names this role. Change that rule first.",
  role_changed: "Someone changed this role after you opened it, so nothing was saved. Reload the roles to see their change, then make yours again.",
  role_slug_taken: "Another role already uses this slug.",
  invalid_permissions: "Some permissions are not valid.",
};

/**
 * A refusal in words: the editor's sentence and the service's message. `own` words of a screen
 * whose codes mean something else there (an operator's `slug_taken` is a site's slug) come first.
 */
export function describeError(error: unknown, own: Readonly<Record<string, string>> = {}): { title: string; detail?: string; code?: string } {
  if (error instanceof ApiError) {
    const words = own[error.code] ?? WORDS[error.code];
    return words ? { title: words, detail: error.message, code: error.code } : { title: error.message, code: error.code };
  }
  if (error instanceof Error) return { title: "The service could not be reached.", detail: error.message };
  return { title: "Something went wrong." };
}

/** The words of one refusal code, for a screen that says a rule before the service would refuse. */
export function wordsOf(code: string): string | undefined {
  return WORDS[code];
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
