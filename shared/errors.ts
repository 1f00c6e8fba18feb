/**
 * Every error code the service answers with, and its HTTP status. This table is the contract:
 * the public, management and plugin surfaces render an AppError in their own envelope.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_permissions: 400,
  public_filter_too_many: 400,
  // Bulk actions (docs/bulk-actions.md): more than 25 ids; the retired generic /many and /bulk paths.
  bulk_limit_exceeded: 400,
  bulk_route_gone: 410,
  manifest_too_large: 400,
  unauthorized: 401,
  plugin_unauthorized: 401,
  forbidden: 403,
  creator_unauthorized: 403,
  insufficient_scope: 403,
  csrf_failed: 403,
  missing_permission: 403,
  escalation_refused: 403,
  field_denied: 403,
  locale_denied: 403,
  not_owner: 403,
  capability_refused: 403,
  requester_unauthorized: 403,
  // A browser page of another origin calling the MCP address (docs/mcp.md).
  cross_origin_refused: 403,
  // A site an operator suspended (docs/operations-api.md): management, plugin protocol, MCP and admin writes.
  site_suspended: 403,
  not_found: 404,
  media_edit_source_not_found: 404,
  media_folder_not_found: 404,
  content_not_found: 404,
  search_off: 404,
  invitation_not_found: 404,
  // A dead password reset link: unknown, used, replaced or expired (docs/people.md, "Password reset").
  password_reset_not_found: 404,
  saved_query_not_found: 404,
  menu_not_found: 404,
  // Pages (docs/pages.md): the site has no model with slug "page".
  page_model_missing: 404,
  method_not_allowed: 405,
  version_conflict: 409,
  // Comments (docs/comments.md): a moderation repeated after it committed (spec 2 rule 4), with the comment as it is.
  conflict: 409,
  // Comments: a proof-of-work challenge not signed here, expired, unsolved, or used already.
  comment_challenge_invalid: 400,
  workflow_conflict: 409,
  dependent_content: 409,
  // The generated backend (docs/generated-backend.md): `problems` lists every reason.
  generation_refused: 409,
  slug_taken: 409,
  single_entry_exists: 409,
  single_entry_conflict: 409,
  entry_published: 409,
  entry_not_in_trash: 409,
  entry_in_trash: 409,
  locale_exists: 409,
  model_slug_taken: 409,
  model_name_collision: 409,
  model_changed: 409,
  model_change_blocked: 409,
  model_not_empty: 409,
  stale_role_grant: 409,
  stale_token_scope: 409,
  duplicate_field_key: 409,
  field_not_found: 409,
  language_in_trash: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 409,
  role_slug_taken: 409,
  role_changed: 409,
  role_seeded: 409,
  role_in_use: 409,
  last_granting_role: 409,
  settings_changed: 409,
  saved_query_name_taken: 409,
  menu_changed: 409,
  role_in_access_rule: 409,
  saved_query_changed: 409,
  model_has_bound_queries: 409,
  proposal_stale: 409,
  schema_proposal_stale: 409,
  installation_state_conflict: 409,
  plugin_already_installed: 409,
  installation_not_active: 409,
  plugin_unavailable: 409,
  scheduled_target_stale: 409,
  // Scheduled publishing (docs/scheduled-publishing.md): a schedule that already fired, went stale or was cancelled.
  schedule_not_pending: 409,
  schedule_time_past: 422,
  // Releases (docs/releases.md): a published release is history; a refused publication lists every problem.
  release_published: 409,
  release_refused: 422,
  // Redirects (docs/redirects.md): each refusal names the rule.
  redirect_limit: 409,
  redirect_source_taken: 409,
  redirect_address_live: 409,
  address_redirected: 409,
  // A page's path where another model's published item is served (docs/pages.md, "Addresses").
  address_taken: 409,
  redirect_reserved: 422,
  redirect_ambiguous: 422,
  redirect_cycle: 422,
  write_conflict: 409,
  media_duplicate: 409,
  // Media folders (docs/media.md, "Folders").
  media_folder_exists: 409,
  media_folder_cycle: 409,
  media_folder_too_deep: 409,
  media_folder_limit: 409,
  media_folder_changed: 409,
  // People (docs/people.md).
  already_member: 409,
  account_exists: 409,
  last_administrator: 409,
  own_membership: 409,
  // A reset link for an account that reaches beyond this site (docs/people.md, "Password reset").
  password_reset_refused: 409,
  // Operators' API (docs/operations-api.md): a host another site serves; a site's only host.
  host_taken: 409,
  model_conflict: 409,
  single_entry_taken: 409,
  entry_slug_taken: 409,
  site_not_suspended: 409,
  confirm_mismatch: 422,
  last_host: 409,
  transition_unavailable: 422,
  transition_refused: 422,
  field_validation_failed: 422,
  private_field_on_public_route: 422,
  unknown_locale: 422,
  relation_target_not_found: 422,
  media_not_found: 422,
  // Plugin blocks in rich text (docs/rich-text.md, "Plugin blocks").
  rich_block_unregistered: 422,
  rich_block_version_unknown: 422,
  rich_block_values_invalid: 422,
  invalid_slug: 422,
  unknown_model: 422,
  unknown_role: 422,
  grant_not_held: 422,
  grant_not_requested: 422,
  proposal_field_unsupported: 422,
  assignee_not_eligible: 422,
  unique_unsupported: 422,
  invalid_unique_combination: 422,
  invalid_field_validation: 422,
  // Content rules I (docs/content-rules-fields.md): executable custom validation, component and condition refusals at model apply.
  unsupported_text_validation: 422,
  invalid_field_config: 422,
  invalid_field_condition: 422,
  relation_type_not_authorable: 422,
  // A field key that is a name JavaScript objects already use (docs/content-rules-fields.md, "Field keys").
  invalid_field_key: 422,
  executable_file: 422,
  locked: 423,
  lock_lost: 423,
  too_many_leases: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  // More than one database (docs/scale.md): a binding name that is not one of SITE_DATABASE_BINDINGS.
  unknown_database: 422,
  temporary_failure: 503,
  // Media edits (PUT /media/{id}, docs/media.md).
  media_framing_not_image: 400,
  media_changed: 409,
  // Media replace (POST /media/{id}/replace, docs/media.md): a file of another kind than the item's.
  media_kind_mismatch: 409,
  // A linked external item (media source, mode reference; spec 2 rule 6): no replace, no originals.
  media_linked: 409,
  // Media remove (POST /media/{id}/remove, docs/media.md "Remove"): the file is referenced.
  media_in_use: 409,
  media_usage_unreadable: 409,
  // Relations (docs/content-rules-relations.md).
  relation_target_taken: 409,
  related_from_replace_unconfirmed: 409,
  relation_target_model_required: 422,
  relation_target_model_not_allowed: 422,
  relation_hierarchy_cycle: 422,
  relation_position_not_ordered: 422,
  relation_duplicate_target: 422,
  relation_too_few: 422,
  relation_too_many: 422,
  // Plugin operations (spec 2 rules 12–13; docs/plugin-operations.md).
  input_invalid: 400,
  operation_unavailable: 404,
  invocation_in_progress: 409,
  plugin_refused: 422,
  plugin_unreachable: 502,
  plugin_response_invalid: 502,
  plugin_timeout: 504,
  // Plugin content policies (spec 2 rule 14; docs/plugin-policies.md).
  plugin_policy_refused: 422,
  plugin_policy_transform_invalid: 422,
  plugin_policy_transform_conflict: 422,
  plugin_policy_budget_exhausted: 429,
  plugin_policy_unavailable: 503,
  // Imports and exports as jobs (docs/imports.md, docs/exports.md).
  import_state_conflict: 409,
  import_review_pending: 409,
  import_part_invalid: 422,
  import_upload_incomplete: 422,
  import_checksum_mismatch: 422,
  import_file_too_large: 413,
  import_mapping_invalid: 422,
  export_state_conflict: 409,
  export_limited_role: 403,
  // A byte range of a job's file that no byte satisfies (RFC 9110 §15.5.17; docs/exports.md, "Reading").
  range_not_satisfiable: 416,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A refusal as data: crosses Durable Object RPC intact, unlike a thrown error's own fields. */
export interface Failure {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: Failure };

/** The one error type of the service: a stable code, a message for people, safe details. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toFailure(): Failure {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromFailure(failure: Failure): AppError {
    return new AppError(failure.code, failure.message, failure.details);
  }
}

/** Runs work and turns an AppError into a Failure; anything else is rethrown (a real fault). */
export async function toOutcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toFailure() };
    throw error;
  }
}

/** Unwraps an Outcome, throwing its failure as an AppError. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw AppError.fromFailure(outcome.error);
}
