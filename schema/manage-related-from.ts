import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { Page } from "./common";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** An entry language whose current draft links to the item (docs/content-rules-reverse-single-unique.md). */
export const RelatedFromSource = v.pipe(
  v.strictObject({
    instance_id: v.string(),
    translation_group_id: v.string(),
    model_id: v.string(),
    model_slug: v.string(),
    lang: v.string(),
    field_id: v.pipe(v.string(), v.description("The relation field of the source that holds the link")),
    field_key: v.string(),
    label: v.pipe(v.nullable(v.string()), v.description("Null when the caller may not read the source's title field")),
    in_trash: v.pipe(v.boolean(), v.description("The source is in Trash; a restore brings the link back")),
  }),
  v.title("RelatedFromSource"),
);

/** Reverse relations of an entry (management API). */
export const relatedFromRoutes: readonly RouteSpec[] = [
  {
    operationId: "listEntryRelatedFrom",
    method: "get",
    path: "/entries/{id}/related-from",
    summary: "Entry languages whose current draft links to this item (any of its languages), paged in a stable order; unreadable ones only counted in hidden",
    scope: "content:read",
    params: v.strictObject({ id: Id }),
    query: v.strictObject({
      field: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-zA-Z0-9_]{0,63}$/), v.description("Only links through relation fields with this key"))),
      model_id: v.optional(Id),
      cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096))),
      limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/), v.description("1 or more; default 20; more than 100 gives 100"))),
    }),
    response: v.strictObject({
      data: v.array(RelatedFromSource),
      hidden: v.pipe(v.number(), v.description("Links on this page from sources the caller may not read (model, language or field limits)")),
      page: Page,
    }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "not_found", "rate_limited"],
  },
];
