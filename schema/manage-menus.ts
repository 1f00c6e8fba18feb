import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { maxCharacters, readableName } from "./text";

const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
/** A menu's public address segment: /v1/_menus/{name}. */
export const MenuName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/, "1..64 characters: lower-case letters, digits and -, starting with a letter"));
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));

const TargetInput = v.variant("kind", [
  v.strictObject({ kind: v.literal("entry"), entry_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("An entry's instance id or translation group id; each language serves its own published version")) }),
  v.strictObject({ kind: v.literal("url"), url: v.pipe(v.string(), v.minLength(1), v.maxLength(2000), v.description("An https URL or a path on the site (/…)")) }),
]);

// A label a website shows: 1..120 characters (code points), readable (no control, bidi control or invisible characters).
const Label = v.pipe(v.string(), v.minLength(1), ...maxCharacters(120), readableName());
// Three levels, spelled out (a recursive schema has no OpenAPI form here): deeper nesting is refused by the shape.
const ThirdLevel = v.strictObject({ label: Label, target: TargetInput });
const SecondLevel = v.strictObject({ label: Label, target: TargetInput, children: v.optional(v.pipe(v.array(ThirdLevel), v.maxLength(100))) });
const MenuItemInput = v.strictObject({ label: Label, target: TargetInput, children: v.optional(v.pipe(v.array(SecondLevel), v.maxLength(100))) });

export const PutMenuBody = v.strictObject({
  items: v.pipe(v.record(Lang, v.pipe(v.array(MenuItemInput), v.maxLength(100))), v.description("Each language's items, nested at most 3 levels, at most 100 per language")),
  expected_revision: v.optional(v.pipe(Revision, v.description("0 to create only when absent"))),
});

const StoredTarget = v.object({ kind: v.string(), group_id: v.optional(v.string()), url: v.optional(v.string()) });
const StoredThird = v.object({ label: v.string(), target: StoredTarget, children: v.array(v.unknown()) });
const StoredSecond = v.object({ label: v.string(), target: StoredTarget, children: v.array(StoredThird) });
const StoredItem = v.object({ label: v.string(), target: StoredTarget, children: v.array(StoredSecond) });

export const Menu = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    items: v.record(v.string(), v.array(StoredItem)),
    revision: v.number(),
    created_at: v.string(),
    updated_at: v.string(),
    created: v.optional(v.boolean()),
    replayed: v.optional(v.boolean()),
  }),
  v.title("Menu"),
);

const MenuPath = v.strictObject({ name: MenuName });
const common = ["unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;

/** Menus (docs/menus.md): served publicly at GET /v1/_menus/{name}. */
export const menuRoutes: readonly RouteSpec[] = [
  { operationId: "listMenus", method: "get", path: "/menus", summary: "The site's menus, by name", scope: "content:read", response: v.strictObject({ data: v.array(Menu) }), errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  { operationId: "getMenu", method: "get", path: "/menus/{name}", summary: "One menu with every language's items", scope: "content:read", params: MenuPath, response: Menu, errors: ["unauthorized", "creator_unauthorized", "rate_limited", "menu_not_found"] },
  {
    operationId: "putMenu",
    destructive: true,
    method: "put",
    path: "/menus/{name}",
    summary: "Create a menu or replace all its languages' items (201 when created)",
    scope: "settings:write",
    idempotent: true,
    params: MenuPath,
    body: PutMenuBody,
    response: Menu,
    otherStatuses: [{ status: 201, description: "The menu was created" }],
    errors: ["invalid_request", ...common, "menu_changed"],
  },
  { operationId: "deleteMenu", destructive: true, method: "delete", path: "/menus/{name}", summary: "Delete a menu (its public address answers 404)", scope: "settings:write", idempotent: true, params: MenuPath, response: v.object({ id: v.string(), name: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }), errors: [...common, "menu_not_found"] },
];
