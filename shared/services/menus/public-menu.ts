import { localeChain } from "../../content/site-settings";
import type { Site } from "../../repositories/site-repository";
import { cacheTag } from "../lifecycle/context";
import { storedGroups, type StoredMenuItem } from "./menu-items";

/** One item of a public menu answer (docs/menus.md). */
export interface PublicMenuItem {
  label: string;
  /** The address the item links to: a URL, or `null` for an entry (use `target`). */
  url: string | null;
  /** The published item an entry target serves in this language. */
  target: { id: string; model: string; slug: string | null; locale: string } | null;
  children: PublicMenuItem[];
}

interface Served {
  group: string;
  instance_id: string;
  lang: string;
  slug: string | null;
  model: string;
}

/**
 * A menu in one language with entry targets resolved to their published items (the language, then
 * the site's fallback chain). An item whose target is not published (draft, unpublished, trashed,
 * purged) or whose model the reader may not read is left out, with its children.
 */
export async function resolveMenu(d1: D1Database, site: Site, items: readonly StoredMenuItem[], lang: string, readableModels: ReadonlySet<string>): Promise<{ items: PublicMenuItem[]; tags: string[] }> {
  const groups = [...new Set(storedGroups(items))];
  const chain = localeChain(site, lang).filter((l) => site.languages.includes(l));
  const served = new Map<string, Served>();
  if (groups.length > 0) {
    const rows = await d1
      .prepare(
        `SELECT translation_group_id AS "group", instance_id, lang, slug, model_id, json_extract(body, '$.model') AS model FROM published_items
         WHERE site_id = ? AND translation_group_id IN (SELECT value FROM json_each(?)) AND lang IN (SELECT value FROM json_each(?))`,
      )
      .bind(site.id, JSON.stringify(groups), JSON.stringify(chain))
      .all<Served & { model_id: string }>();
    for (const lang of [...chain].reverse()) {
      for (const row of rows.results) if (row.lang === lang && readableModels.has(row.model_id)) served.set(row.group, row);
    }
  }
  const resolve = (list: readonly StoredMenuItem[]): PublicMenuItem[] =>
    list.flatMap((item): PublicMenuItem[] => {
      if (item.target.kind === "url") return [{ label: item.label, url: item.target.url, target: null, children: resolve(item.children) }];
      const hit = served.get(item.target.group_id);
      if (!hit) return [];
      return [{ label: item.label, url: null, target: { id: hit.instance_id, model: hit.model, slug: hit.slug, locale: hit.lang }, children: resolve(item.children) }];
    });
  return { items: resolve(items), tags: [cacheTag.site(site.id), ...groups.map(cacheTag.item)] };
}
