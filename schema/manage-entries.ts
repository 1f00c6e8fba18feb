import * as v from "valibot";
import { RelationWrite } from "./relation-writes";
import type { RouteSpec } from "./contract";
import { Page } from "./common";
import { notReservedFieldKey } from "./field-types";
import { ENTRY_SORTS } from "./entry-sorts";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
const Slug = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Fields = v.pipe(
  // Any value is accepted here (the model decides); RelationWrite documents a relation field's forms.
  // A key that is a reserved JavaScript name is 422 invalid_field_key (no model has such a field).
  v.record(v.pipe(v.string(), v.check(notReservedFieldKey, "This name cannot be a field key.")), v.union([RelationWrite, v.unknown()])),
  v.description("Field values by field key; null clears a value. A relation field takes a RelationWrite."),
);

export const Workflow = v.pipe(
  v.strictObject({
    state: v.string(),
    revision: v.number(),
    transitions: v.array(v.strictObject({ to: v.string(), kind: v.picklist(["publish", "unpublish", "move"]) })),
  }),
  v.title("Workflow"),
);

/** An entry (one language instance) as management reads and writes answer it. */
export const EntryObject = v.object({
    instance_id: v.string(),
    primary_instance_id: v.string(),
    translation_group_id: v.string(),
    model_id: v.string(),
    model_slug: v.string(),
    lang: v.string(),
    slug: v.nullable(v.string()),
    label: v.nullable(v.string()),
    current_version_id: v.nullable(v.string()),
    published_version_id: v.nullable(v.string()),
    published_at: v.nullable(v.string()),
    owner_id: v.nullable(v.string()),
    trashed_at: v.nullable(v.string()),
    created_at: v.string(),
    updated_at: v.string(),
    workflow: Workflow,
    fields: v.record(v.string(), v.unknown()),
    warnings: v.optional(
      v.pipe(
        v.array(v.object({ code: v.literal("rich_markup_dropped"), path: v.string(), dropped: v.array(v.string()) })),
        v.description("Writes only: markup the sanitiser left out of a rich-text value (docs/rich-text.md)."),
      ),
    ),
    schedules: v.optional(
      v.pipe(
        v.array(v.object({ id: v.string(), action: v.picklist(["publish", "unpublish"]), at: v.string(), state: v.string(), outcome_code: v.nullable(v.string()) })),
        v.description("GET /entries/{id} only: this language's pending schedules and those that ended stale or failed (docs/scheduled-publishing.md), soonest first."),
      ),
    ),
    replayed: v.optional(v.boolean()),
    updated_by: v.optional(
      v.pipe(
        v.nullable(v.object({ kind: v.picklist(["person", "credential", "oauth_app", "plugin", "import", "system"]), person_id: v.nullable(v.string()), name: v.nullable(v.string()) })),
        v.description("listEntries only: who wrote the current draft — the credential's, OAuth app's, plugin's or import's name when one wrote it, else the person's (null when not a member of this site). docs/admin-ui-lists.md"),
      ),
    ),
  });
export const Entry = v.pipe(EntryObject, v.title("Entry"));

const EntryPath = v.strictObject({ id: Id });
const Version = v.pipe(
  v.object({ id: v.string(), number: v.number(), slug: v.nullable(v.string()), label: v.nullable(v.string()), created_by: v.nullable(v.string()), restored_from: v.nullable(v.string()), created_at: v.string() }),
  v.title("Version"),
);
const TrashAnswer = v.object({ instance_ids: v.array(v.string()), translation_group_id: v.string(), trashed_at: v.nullable(v.string()), replayed: v.optional(v.boolean()) });

export const CreateEntryBody = v.strictObject({ model_id: Id, lang: v.optional(Lang), slug: v.optional(Slug), fields: Fields });
export const SaveDraftBody = v.strictObject({ expected_version_id: Id, fields: Fields, slug: v.optional(Slug) });
export const AddLanguageBody = v.strictObject({ lang: Lang, slug: v.optional(Slug), fields: v.optional(Fields) });
export const PublishBody = v.strictObject({
  expected_version_id: v.optional(Id),
  expected_workflow_revision: v.optional(Revision),
  redirect_old_address: v.optional(v.pipe(v.boolean(), v.description("When the item is served under another slug now and its model has a site_path: add a 301 from the old website address to the new one (docs/redirects.md)."))),
});
export const UnpublishBody = v.strictObject({ expected_published_version_id: v.optional(Id), expected_workflow_revision: v.optional(Revision) });
export const MoveBody = v.strictObject({ to: v.pipe(v.string(), v.minLength(1), v.maxLength(40)), expected_workflow_revision: Revision });
export const TrashBody = v.strictObject({ language_only: v.optional(v.boolean()) });
export const RestoreVersionBody = v.strictObject({ expected_version_id: v.optional(Id) });

/** Refusals of rich-text values beyond field_validation_failed (docs/rich-text.md). */
const richTextErrors = ["media_not_found", "rich_block_unregistered", "rich_block_version_unknown", "rich_block_values_invalid"] as const;

/** Content policies of plugins (spec 2 rule 14; docs/plugin-policies.md): asked before every entry write. */
export const policyErrors = ["plugin_policy_refused", "plugin_policy_transform_invalid", "plugin_policy_transform_conflict", "plugin_policy_unavailable", "plugin_policy_budget_exhausted"] as const;

const commonWriteErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", ...policyErrors] as const;

/** Entry operations of the management API (an entry is one language instance, by `instance_id`). */
/** What a relation write in an entry save can be refused with (docs/content-rules-relations.md). */
export const relationWriteErrors = ["relation_target_not_found", "relation_target_model_required", "relation_target_model_not_allowed", "relation_hierarchy_cycle", "relation_position_not_ordered", "relation_duplicate_target", "relation_too_few", "relation_too_many", "relation_target_taken", "related_from_replace_unconfirmed"] as const;

export const entryRoutes: readonly RouteSpec[] = [
  {
    operationId: "listEntries",
    method: "get",
    path: "/entries",
    summary: "List entries (fields and languages the role may not read are left out)",
    scope: "content:read",
    query: v.strictObject({
      model_id: v.optional(Id),
      lang: v.optional(Lang),
      state: v.optional(v.pipe(v.picklist(["draft", "in_review", "published", "unpublished", "trash"]), v.description("A workflow state (entries outside Trash), or `trash`: only entries in Trash. Without it, every entry outside Trash (spec 3: Trash leaves lists)."))),
      q: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Entries whose label (title field) contains this text, ignoring ASCII case; models whose title field the reader may not read are left out."))),
      slug: v.optional(v.pipe(Slug, v.description("Entries at exactly this slug (an editor's slug availability check; with model_id and lang)."))),
      translation_group_id: v.optional(v.pipe(Id, v.description("The languages of one item (its translation group): an editor's language tabs."))),
      sort: v.optional(
        v.pipe(
          v.picklist(ENTRY_SORTS),
          v.description(
            "Order of the whole list (default: newest created first): title (label, else slug; ASCII case ignored; a title the reader may not read sorts by slug), created, updated, state (workflow state), lang, owner (the owner's name among the site's members); a leading `-` reverses. Ties by instance_id in the same direction; the cursor continues the same sort only. docs/admin-ui-lists.md",
          ),
        ),
      ),
      cursor: v.optional(v.string()),
      limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/))),
    }),
    response: v.strictObject({ data: v.array(Entry), page: Page }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "rate_limited"],
  },
  { operationId: "createEntry", method: "post", path: "/entries", summary: "Create an entry (first draft)", scope: "content:write", idempotent: true, body: CreateEntryBody, status: 201, response: Entry, errors: ["invalid_field_key", ...commonWriteErrors, "field_validation_failed", ...richTextErrors, "slug_taken", "single_entry_exists", "unknown_locale", "field_denied", "locale_denied", "missing_permission", ...relationWriteErrors, "write_conflict"] },
  { operationId: "getEntry", method: "get", path: "/entries/{id}", summary: "Read an entry's current draft, published version id and workflow", scope: "content:read", params: EntryPath, response: Entry, errors: ["unauthorized", "creator_unauthorized", "not_found", "rate_limited"] },
  { operationId: "saveEntry", method: "put", path: "/entries/{id}", summary: "Save a new draft version", scope: "content:write", idempotent: true, params: EntryPath, body: SaveDraftBody, response: Entry, errors: ["invalid_field_key", ...relationWriteErrors, ...commonWriteErrors, "version_conflict", "field_validation_failed", ...richTextErrors, "slug_taken", "field_denied", "locale_denied", "not_owner", "missing_permission", "entry_in_trash", "locked", "lock_lost", "write_conflict"] },
  { operationId: "addEntryLanguage", method: "post", path: "/entries/{id}/languages", summary: "Add a language to the entry's translation group", scope: "content:write", idempotent: true, params: EntryPath, body: AddLanguageBody, status: 201, response: Entry, errors: ["invalid_field_key", ...commonWriteErrors, "locale_exists", "language_in_trash", "unknown_locale", "locale_denied", "slug_taken", "field_validation_failed", ...richTextErrors, "write_conflict", "missing_permission", "field_denied", "entry_in_trash", ...relationWriteErrors, "locked", "lock_lost"] },
  { operationId: "listEntryVersions", method: "get", path: "/entries/{id}/versions", summary: "Versions of an entry, newest first", scope: "content:read", params: EntryPath, response: v.strictObject({ data: v.array(Version) }), errors: ["unauthorized", "not_found"] },
  { operationId: "restoreEntryVersion", method: "post", path: "/entries/{id}/versions/{version_id}/restore", summary: "Make an old version the draft again", scope: "content:write", idempotent: true, params: v.strictObject({ id: Id, version_id: Id }), body: RestoreVersionBody, response: Entry, errors: [...relationWriteErrors, ...commonWriteErrors, "version_conflict", "field_denied", "missing_permission", "field_validation_failed", ...richTextErrors, "write_conflict", "not_owner", "locale_denied", "entry_in_trash", "locked", "lock_lost"] },
  { operationId: "publishEntry", repeatable: true, method: "post", path: "/entries/{id}/publish", summary: "Publish the current draft of this language", scope: "lifecycle:publish", idempotent: true, params: EntryPath, body: PublishBody, response: Entry, errors: [...commonWriteErrors, "transition_unavailable", "workflow_conflict", "version_conflict", "field_validation_failed", "slug_taken", "missing_permission", "locale_denied", "write_conflict", "not_owner", "entry_in_trash", "locked", "lock_lost", "address_redirected", "address_taken", "redirect_cycle", "redirect_limit", "redirect_reserved", "redirect_ambiguous"] },
  { operationId: "unpublishEntry", destructive: true, repeatable: true, method: "post", path: "/entries/{id}/unpublish", summary: "Withdraw this language from the public API", scope: "lifecycle:publish", idempotent: true, params: EntryPath, body: UnpublishBody, response: Entry, errors: [...commonWriteErrors, "transition_unavailable", "workflow_conflict", "version_conflict", "missing_permission", "not_owner", "locale_denied", "entry_in_trash", "locked", "lock_lost"] },
  { operationId: "moveEntry", repeatable: true, method: "post", path: "/entries/{id}/move", summary: "A workflow step that neither publishes nor unpublishes", scope: "workflow:move", idempotent: true, params: EntryPath, body: MoveBody, response: Entry, errors: [...commonWriteErrors, "transition_unavailable", "workflow_conflict", "missing_permission", "not_owner", "locale_denied", "entry_in_trash", "locked", "lock_lost"] },
  { operationId: "trashEntry", destructive: true, repeatable: true, method: "post", path: "/entries/{id}/trash", summary: "Move the item (or one language) to Trash", scope: "content:trash", idempotent: true, params: EntryPath, body: TrashBody, response: TrashAnswer, errors: [...commonWriteErrors, "entry_published", "entry_in_trash", "missing_permission", "not_owner", "locale_denied", "locked", "lock_lost"] },
  { operationId: "restoreEntry", repeatable: true, method: "post", path: "/entries/{id}/restore", summary: "Bring the item (or one language) back from Trash", scope: "content:trash", idempotent: true, params: EntryPath, body: TrashBody, response: TrashAnswer, errors: [...commonWriteErrors, "relation_target_taken", "entry_not_in_trash", "slug_taken", "missing_permission", "field_validation_failed", "write_conflict", "not_owner", "locale_denied", "locked", "lock_lost"] },
  { operationId: "purgeEntry", destructive: true, repeatable: true, method: "post", path: "/entries/{id}/purge", summary: "Delete Trash content for good", scope: "content:purge", idempotent: true, params: EntryPath, body: v.strictObject({}), response: v.object({ purged_instance_ids: v.array(v.string()), translation_group_id: v.string(), replayed: v.optional(v.boolean()) }), errors: [...commonWriteErrors, "entry_not_in_trash", "missing_permission", "not_owner", "locale_denied", "locked", "lock_lost"] },
  { operationId: "listEntryDependents", method: "get", path: "/entries/{id}/dependents", summary: "Entries whose current or published version links to this item", scope: "content:read", params: EntryPath, response: v.strictObject({ data: v.array(v.strictObject({ instance_id: v.string(), model_id: v.string(), lang: v.string(), label: v.nullable(v.string()), published: v.boolean() })) }), errors: ["unauthorized", "not_found"] },
];
