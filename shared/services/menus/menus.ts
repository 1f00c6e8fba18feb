import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { entryIds, shapeIssues, storedItems, type MenuItemInput, type StoredMenu } from "./menu-items";

/**
 * Menus (spec 2: settings:write covers menus; issue #29 item 3; docs/menus.md). One write per
 * menu replaces all its languages; a menu write is answered from what it wrote on a replay (spec 2
 * idempotency rule 3). Needs `site:settings`.
 */

export const MAX_MENUS = 50;

export interface MenuView {
  id: string;
  name: string;
  items: StoredMenu;
  revision: number;
  created_at: string;
  updated_at: string;
  created?: boolean;
}

export interface PutMenuInput {
  name: string;
  items: Record<string, MenuItemInput[]>;
  expected_revision?: number;
}

interface Row {
  id: string;
  name: string;
  items: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

function requireSettings(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) throw new AppError("missing_permission", "Changing menus needs site:settings.", { permission: "site:settings" });
}

export function menuView(row: Row): MenuView {
  return { id: row.id, name: row.name, items: JSON.parse(row.items) as StoredMenu, revision: row.revision, created_at: row.created_at, updated_at: row.updated_at };
}

export async function readMenu(d1: D1Database, siteId: string, name: string): Promise<Row | null> {
  return d1.prepare("SELECT id, name, items, revision, created_at, updated_at FROM menus WHERE site_id = ? AND name = ?").bind(siteId, name).first<Row>();
}

/** GET /menus */
export async function listMenus(ctx: LifecycleContext): Promise<MenuView[]> {
  const rows = await ctx.d1.prepare("SELECT id, name, items, revision, created_at, updated_at FROM menus WHERE site_id = ? ORDER BY name").bind(ctx.site.id).all<Row>();
  return rows.results.map(menuView);
}

/** PUT /menus/{name}: creates the menu or replaces every language of it. */
export async function putMenu(ctx: LifecycleContext, input: PutMenuInput): Promise<WritePlan<MenuView>> {
  requireSettings(ctx);
  const before = await readMenu(ctx.d1, ctx.site.id, input.name);
  if (input.expected_revision !== undefined && input.expected_revision !== (before?.revision ?? 0)) {
    throw new AppError("menu_changed", "The menu changed since you read it.", { current_revision: before?.revision ?? 0 });
  }
  const issues: { path: string; message: string }[] = [];
  for (const [lang, items] of Object.entries(input.items)) {
    if (!ctx.site.languages.includes(lang)) issues.push({ path: `items.${lang}`, message: `"${lang}" is not a language of the site` });
    issues.push(...shapeIssues(lang, items));
  }
  // Entry targets: entries of this site (any model, draft or published; trashed ones are refused).
  const ids = [...new Set(Object.values(input.items).flatMap(entryIds))];
  const groups = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await ctx.d1
      .prepare("SELECT instance_id, translation_group_id, trashed_at FROM entries WHERE site_id = ? AND (instance_id IN (SELECT value FROM json_each(?)) OR translation_group_id IN (SELECT value FROM json_each(?)))")
      .bind(ctx.site.id, JSON.stringify(ids), JSON.stringify(ids))
      .all<{ instance_id: string; translation_group_id: string; trashed_at: string | null }>();
    for (const row of rows.results) {
      if (row.trashed_at !== null) continue;
      groups.set(row.instance_id, row.translation_group_id);
      groups.set(row.translation_group_id, row.translation_group_id);
    }
    const missing = ids.filter((id) => !groups.has(id));
    if (missing.length > 0) issues.push(...missing.map((id) => ({ path: "items", message: `"${id}" is not an entry of this site (or it is in Trash)` })));
  }
  if (issues.length > 0) throw new AppError("invalid_request", "The menu is not valid.", { issues });
  if (!before) {
    const count = await ctx.d1.prepare("SELECT count(*) AS n FROM menus WHERE site_id = ?").bind(ctx.site.id).first<{ n: number }>();
    if ((count?.n ?? 0) >= MAX_MENUS) throw new AppError("invalid_request", `At most ${MAX_MENUS} menus per site.`);
  }
  const stored: StoredMenu = Object.fromEntries(Object.entries(input.items).map(([lang, items]) => [lang, storedItems(items, groups)]));
  const at = isoAt(ctx.clock.now());
  const row: Row = before
    ? { ...before, items: JSON.stringify(stored), revision: before.revision + 1, updated_at: at }
    : { id: newId("mnu"), name: input.name, items: JSON.stringify(stored), revision: 1, created_at: at, updated_at: at };
  const statement = before
    ? ctx.db.updateTable("menus").set({ items: row.items, revision: row.revision, updated_at: at }).where("site_id", "=", ctx.site.id).where("id", "=", row.id).where("revision", "=", before.revision).compile()
    : ctx.db.insertInto("menus").values({ ...row, site_id: ctx.site.id }).compile();
  return {
    statements: [statement],
    answer: { ...menuView(row), created: before === null },
    status: before ? 200 : 201,
    events: [{ name: "menu.updated", payload: { id: row.id, name: row.name, revision: row.revision } }],
    // Public menu answers carry the site tag and the item tags of their targets.
    purgeTags: [cacheTag.site(ctx.site.id)],
    audit: { action: before ? "menu.update" : "menu.create", targetKind: "menu", targetId: row.id, details: { name: row.name, items: stored } },
  };
}

/** DELETE /menus/{name} */
export async function deleteMenu(ctx: LifecycleContext, input: { name: string }): Promise<WritePlan<{ id: string; name: string; deleted: true }>> {
  requireSettings(ctx);
  const before = await readMenu(ctx.d1, ctx.site.id, input.name);
  if (!before) throw new AppError("menu_not_found", "No such menu.");
  return {
    statements: [ctx.db.deleteFrom("menus").where("site_id", "=", ctx.site.id).where("id", "=", before.id).compile()],
    answer: { id: before.id, name: before.name, deleted: true },
    events: [{ name: "menu.deleted", payload: { id: before.id, name: before.name } }],
    purgeTags: [cacheTag.site(ctx.site.id)],
    audit: { action: "menu.delete", targetKind: "menu", targetId: before.id, details: { name: before.name } },
  };
}
