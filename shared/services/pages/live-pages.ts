import type { LifecycleContext } from "../lifecycle/context";
import { modelRepository } from "../../repositories/model-repository";
import { parentField, PAGE_MODEL_SLUG } from "./page-model";
import { publishedPages } from "./page-tree";

export interface LivePage {
  instance_id: string;
  model_id: string;
  lang: string;
  address: string;
}

/** Whether an address meets a redirect source: the same path, or one a pattern's `*` covers (one character or more). */
function meets(source: string, address: string): boolean {
  const star = source.indexOf("*");
  if (star < 0) return source === address;
  const prefix = source.slice(0, star);
  const suffix = source.slice(star + 1);
  return address.length > prefix.length + suffix.length && address.startsWith(prefix) && address.endsWith(suffix);
}

/**
 * The published page served at an address a redirect source matches (docs/pages.md, "Addresses":
 * a page's website address is its published path). An exact address first asks whether any page
 * is published with the address's last segment as its slug — one indexed read, so a publication
 * of another model pays nothing more when no page could be there; only then are paths built.
 */
export async function livePageAt(ctx: Pick<LifecycleContext, "db" | "d1" | "scope" | "site">, source: string): Promise<LivePage | undefined> {
  const model = await modelRepository(ctx.db, ctx.scope).findBySlug(PAGE_MODEL_SLUG);
  if (!model || model.kind !== "collection") return undefined;
  const langs = [...ctx.site.languages];
  if (!source.includes("*")) {
    const slug = source.slice(source.lastIndexOf("/") + 1);
    const rows = await ctx.d1.prepare("SELECT DISTINCT lang FROM published_items WHERE site_id = ? AND model_id = ? AND slug = ?").bind(ctx.site.id, model.id, slug).all<{ lang: string }>();
    langs.splice(0, langs.length, ...rows.results.map((r) => r.lang));
  }
  const parent = parentField(model);
  for (const lang of langs) {
    const hit = (await publishedPages(ctx.d1, ctx.site.id, model, parent, [lang])).find((p) => p.path !== null && meets(source, p.path));
    if (hit?.path) return { instance_id: hit.id, model_id: model.id, lang, address: hit.path };
  }
  return undefined;
}
