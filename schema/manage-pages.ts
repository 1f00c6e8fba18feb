import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { EntryObject, policyErrors, relationWriteErrors } from "./manage-entries";
import { notReservedFieldKey } from "./field-types";
import { RelationWrite } from "./relation-writes";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));

/** The page editor's save (docs/pages.md): creates the page without `id`, else saves its draft. */
export const SavePageBody = v.strictObject({
  id: v.optional(v.pipe(Id, v.description("The page (an instance id of the page model) whose draft is saved; absent: a new page"))),
  lang: v.optional(v.pipe(Lang, v.description("A new page's language (default: the site's); an update keeps the page's"))),
  slug: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The page's own path segment (default for a new page: made from its title)"))),
  parent_id: v.optional(v.nullable(v.pipe(Id, v.description("The parent page (instance id); null: a top-level page; absent: unchanged")))),
  expected_version_id: v.optional(v.pipe(Id, v.description("The draft version the editor started from; a save over a newer one is 409 version_conflict"))),
  fields: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.check(notReservedFieldKey, "This name cannot be a field key.")), v.union([RelationWrite, v.unknown()])),
      v.description("Field values by field key (as an entry save); keys not given keep their value"),
    ),
  ),
});

const PageKeys = {
  parent_id: v.pipe(v.nullable(v.string()), v.description("The parent page's translation group id")),
  path: v.pipe(v.nullable(v.string()), v.description("/ then the slugs from the top page down; null when an ancestor has no draft in this language")),
};

/** A page as the management API answers it: the entry with its place in the tree. */
export const PageView = v.pipe(v.object({ ...EntryObject.entries, ...PageKeys, created: v.optional(v.boolean()) }), v.title("Page"));

const PageSummary = v.pipe(
  v.object({
    instance_id: v.string(),
    translation_group_id: v.string(),
    lang: v.string(),
    slug: v.nullable(v.string()),
    label: v.nullable(v.string()),
    ...PageKeys,
    current_version_id: v.nullable(v.string()),
    published_version_id: v.nullable(v.string()),
    updated_at: v.string(),
  }),
  v.title("PageSummary"),
);

const entryWriteErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission", "field_denied", "locale_denied"] as const;

/** Pages (issue #29 item 2; docs/pages.md): entries of the site's page model, nested by its parent link. */
export const pageRoutes: readonly RouteSpec[] = [
  {
    operationId: "listPages",
    method: "get",
    path: "/pages",
    summary: "The site's pages in one language with their parents and paths, by path",
    scope: "content:read",
    query: v.strictObject({ lang: v.optional(Lang) }),
    response: v.strictObject({ data: v.array(PageSummary) }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "rate_limited", "page_model_missing", "unknown_locale"],
  },
  { operationId: "getPage", method: "get", path: "/pages/{id}", summary: "One page's current draft with its parent and path", scope: "content:read", params: v.strictObject({ id: Id }), response: PageView, errors: ["unauthorized", "creator_unauthorized", "rate_limited", "not_found", "page_model_missing"] },
  {
    operationId: "savePage",
    method: "post",
    path: "/pages",
    summary: "The page editor's save: creates the page (201, created: true) or saves its draft (200, created: false) in one write; a replay answers created: false",
    scope: "pages:write",
    idempotent: true,
    body: SavePageBody,
    status: 201,
    otherStatuses: [{ status: 200, description: "The page's draft was saved (created: false), or a replay" }],
    response: PageView,
    // Asked content policies as createEntry / saveEntry are (spec 2 rule 14; policy-subjects.ts).
    errors: [...entryWriteErrors, ...policyErrors, "page_model_missing", "version_conflict", "field_validation_failed", "invalid_field_key", "slug_taken", "unknown_locale", "not_owner", "entry_in_trash", "locked", "lock_lost", ...relationWriteErrors, "write_conflict", "address_redirected", "address_taken"],
  },
];
