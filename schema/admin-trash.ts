import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";
import { AUDIT_SURFACES } from "./admin-siteadmin";

/**
 * The admin's Trash screen (issue #27 "Done when"; docs/admin-ui-trash.md): one admin read listing
 * what is in Trash on the X-Site-Id site across models — each language in Trash with when it went
 * there, when retention deletes it for good, who moved it if the audit log knows, and whether the
 * signed-in person may restore or delete it. Restoring and deleting use the management routes
 * (restoreEntry, purgeEntry, bulkRestoreEntries); this route writes nothing.
 */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

export const TrashListQuery = v.strictObject({
  model_id: v.optional(v.pipe(Id, v.description("Only this model's Trash."))),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(300), v.description("next_cursor of the previous page"))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]?$|^100$/), v.description("1–100, default 50"))),
});

const TrashItem = v.pipe(
  v.strictObject({
    instance_id: v.string(),
    translation_group_id: v.string(),
    model_id: v.string(),
    model_name: v.string(),
    lang: v.string(),
    label: v.nullable(v.string()),
    slug: v.nullable(v.string()),
    trashed_at: v.string(),
    purge_at: v.pipe(v.string(), v.description("When Trash retention deletes this language for good: trashed_at + the site's window (30 days, or retention.trash_days when shorter).")),
    trashed_by: v.pipe(
      v.nullable(v.strictObject({ surface: v.picklist(AUDIT_SURFACES), person_id: v.nullable(v.string()) })),
      v.description("Who moved it to Trash, from the audit log (null when no audit row names it). person_id: the person acting (admin, credential or app on their behalf); null for plugins and the system."),
    ),
    can_delete: v.pipe(v.boolean(), v.description("Whether you hold delete on the model for this language: restoring and deleting for good both need it (spec 3).")),
    refusal: v.pipe(v.nullable(v.string()), v.description("Why you may not restore or delete it, in words; null when you may.")),
  }),
  v.title("TrashItem"),
);

const TrashPage = v.pipe(
  v.strictObject({
    retention_days: v.pipe(v.number(), v.description("The site's Trash window in days (30, or retention.trash_days when shorter).")),
    models: v.pipe(v.array(v.strictObject({ id: v.string(), name: v.string() })), v.description("The models you may read, for a model picker.")),
    data: v.array(TrashItem),
    next_cursor: v.nullable(v.string()),
  }),
  v.title("TrashPage"),
);

export const trashAdminRoutes: readonly AdminRouteSpec[] = [
  {
    operationId: "listTrash",
    method: "get",
    path: "/api/trash",
    access: "site",
    summary: "What is in Trash on the site, across models or for one: each language with when it was trashed, when retention deletes it, who trashed it, and whether you may restore it (newest first; readable models and languages only)",
    query: TrashListQuery,
    response: TrashPage,
    errors: ["unauthorized", "csrf_failed", "invalid_request", "forbidden"],
  },
];
