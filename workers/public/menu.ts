import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { tokenModelIds } from "../../shared/public/site-tokens";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import type { StoredMenu } from "../../shared/services/menus/menu-items";
import { readMenu } from "../../shared/services/menus/menus";
import { resolveMenu } from "../../shared/services/menus/public-menu";
import { publicNotFound, servedChain } from "./models";
import { checkNames, locale } from "./params";
import type { PublicAnswer } from "./respond";

const NAME = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * GET /v1/_menus/{name}?locale= (docs/menus.md): the menu's items in the language (or, when it has
 * none there, the first of the site's fallback chain it has), entry targets resolved to their
 * published items; unpublished targets are left out.
 */
export async function readPublicMenu(d1: D1Database, site: Site, name: string, url: URL, request: Request, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale"]);
  const chain = servedChain(site, locale(url));
  if (!NAME.test(name)) throw publicNotFound();
  const row = await readMenu(d1, site.id, name);
  if (!row) throw publicNotFound();
  const stored = JSON.parse(row.items) as StoredMenu;
  const lang = chain.find((l) => (stored[l]?.length ?? 0) > 0) ?? chain[0] ?? site.default_lang;
  const models = await modelRepository(createDb(d1), siteScope(site.id)).list();
  const granted = new Set(await tokenModelIds(d1, site.id, request));
  const readable = new Set(models.filter((m) => m.is_public || granted.has(m.id)).map((m) => m.id));
  // Targets resolve in the language asked for (its chain), whichever language the items came from.
  const resolved = await resolveMenu(d1, site, stored[lang] ?? [], chain[0] ?? lang, readable);
  return { body: JSON.stringify({ data: { name: row.name, locale: lang, items: resolved.items } }), tags: resolved.tags, cacheable };
}
