import { AppError } from "../../errors";
import type { EntryRow } from "../../db/database";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { liveItemAt, loadRules } from "../redirects/redirects";
import { findRule } from "../redirects/rules";
import { parentField, PAGE_MODEL_SLUG } from "./page-model";
import { publishedPages } from "./page-tree";

/**
 * A page's website address is its path (`/about/team`; docs/pages.md, "Addresses"). Issue #29
 * item 2: page addresses are checked against redirects and other live addresses, with the codes
 * of the redirects (docs/redirects.md): a rule holding the path is 409 `address_redirected`
 * naming the rule; a published item of another model served there (its model's `site_path`) is
 * 409 `address_taken` naming the item. Pages among themselves cannot meet: slugs are unique per
 * language across the page model, so a path names one page.
 */
export async function requirePageAddressFree(ctx: LifecycleContext, pageModel: Pick<Model, "id">, path: string | null): Promise<void> {
  if (path === null) return;
  const holder = findRule(await loadRules(ctx), path)?.rule;
  if (holder) throw new AppError("address_redirected", `A redirect holds ${path}; change or remove it before a page goes there.`, { address: path, rule: { id: holder.id, source: holder.source } });
  const live = await liveItemAt(ctx, path, pageModel.id);
  if (live) throw new AppError("address_taken", `Another published item is served at ${path}; a page there would hide it or be hidden.`, { address: path, item: live });
}

/** The parent group the version links (the page model's parent link), or null at the top. */
async function parentOfVersion(ctx: LifecycleContext, fieldId: string, versionId: string): Promise<string | null> {
  const row = await ctx.d1
    .prepare("SELECT target_group_id FROM relation_links WHERE site_id = ? AND version_id = ? AND field_id = ? LIMIT 1")
    .bind(ctx.site.id, versionId, fieldId)
    .first<{ target_group_id: string }>();
  return row?.target_group_id ?? null;
}

/**
 * Publishing a page: the path it will be served at — its parent's published path and its slug —
 * checked as above. A page under an unpublished parent is served nowhere (docs/pages.md), so it
 * meets nothing. Other models' items are not pages: nothing to check.
 */
export async function requirePagePublishAddressFree(ctx: LifecycleContext, model: Model, entry: Pick<EntryRow, "lang">, version: { id: string; slug: string | null }): Promise<void> {
  if (model.slug !== PAGE_MODEL_SLUG || model.kind !== "collection" || version.slug === null) return;
  const parent = parentField(model);
  const parentGroup = parent ? await parentOfVersion(ctx, parent.id, version.id) : null;
  let path: string | null = `/${version.slug}`;
  if (parentGroup !== null && parent) {
    const above = (await publishedPages(ctx.d1, ctx.site.id, model, parent, [entry.lang])).find((p) => p.group === parentGroup)?.path ?? null;
    path = above === null ? null : `${above}${path}`;
  }
  await requirePageAddressFree(ctx, model, path);
}
