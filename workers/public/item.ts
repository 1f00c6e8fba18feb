import { siteScope } from "../../shared/db/site-scope";
import { publishedRepository } from "../../shared/repositories/published-repository";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { publicNotFound } from "./models";
import { checkSelection, selectItem } from "./field-selection";
import type { PublicAnswer } from "./respond";

/** GET /v1/{model}/{slug}: one published item, in the first language of the chain it has. */
export async function readItem(d1: D1Database, site: Site, model: Model, slug: string, chain: string[], cacheable: boolean, selection?: readonly string[]): Promise<PublicAnswer> {
  // The selection is checked before the item is looked up: a refused key answers the same whatever the slug.
  if (selection) checkSelection(model, selection);
  const row = await publishedRepository(d1, siteScope(site.id)).bySlug(model.id, slug, chain);
  if (!row) throw publicNotFound();
  const tags = [cacheTag.site(site.id), cacheTag.model(model.id), ...(JSON.parse(row.mentions) as string[]).map(cacheTag.item)];
  const body = selection ? selectItem(row.body, new Set(selection)) : row.body;
  return { body: `{"data":${body}}`, tags, cacheable };
}
