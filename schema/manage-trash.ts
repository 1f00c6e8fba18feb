import * as v from "valibot";
import type { RouteSpec } from "./contract";

/** Trash reads beside the entry routes (docs/trash-retention.md). */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

const RestoreCheck = v.pipe(
  v.object({
    instance_ids: v.array(v.string()),
    translation_group_id: v.string(),
    busy_addresses: v.array(v.object({ instance_id: v.string(), lang: v.string(), slug: v.string(), held_by: v.optional(v.string()) })),
    broken_links: v.array(v.object({ instance_id: v.string(), lang: v.string(), field: v.string(), target_instance_id: v.string(), reason: v.picklist(["missing", "in_trash"]) })),
    restorable: v.boolean(),
  }),
  v.title("RestoreCheck"),
);

export const trashRoutes: readonly RouteSpec[] = [
  {
    operationId: "checkEntryRestore",
    method: "get",
    path: "/entries/{id}/restore-check",
    summary: "What restoring the item (or one language) from Trash would meet: busy addresses and broken links, before restoring (writes nothing; needs delete on the model)",
    scope: "content:trash",
    params: v.strictObject({ id: Id }),
    query: v.strictObject({ language_only: v.optional(v.picklist(["true", "false"])) }),
    response: RestoreCheck,
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "entry_not_in_trash", "missing_permission", "locale_denied", "not_owner", "rate_limited"],
  },
];
