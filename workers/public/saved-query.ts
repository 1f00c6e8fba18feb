import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { parseDefinition } from "../../shared/services/saved-queries/definition";
import { listItems } from "./list";
import { publicNotFound, readableModel, servedChain } from "./models";
import { checkNames, locale } from "./params";
import type { PublicAnswer } from "./respond";

const NAME = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * GET /v1/_queries/{name} (docs/saved-queries.md): the stored list query, run like GET /v1/{model}
 * with its filters, order, fields and page size; the request chooses only `locale` and `cursor`.
 * A query of a private model needs a token naming it; every refusal is the public 404.
 */
export async function runSavedQuery(env: Env, d1: D1Database, site: Site, name: string, url: URL, request: Request, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale", "cursor"]);
  const lang = locale(url);
  const cursor = url.searchParams.get("cursor") ?? undefined;
  if (!NAME.test(name)) throw publicNotFound();
  const row = await d1.prepare("SELECT model_id, definition FROM saved_queries WHERE site_id = ? AND name = ?").bind(site.id, name).first<{ model_id: string; definition: string }>();
  if (!row) throw publicNotFound();
  const stored = await modelRepository(createDb(d1), siteScope(site.id)).findById(row.model_id);
  if (!stored) throw publicNotFound();
  const model = await readableModel(env, site, stored.slug, request);
  const definition = parseDefinition(row.definition);
  return listItems(
    d1,
    site,
    model,
    servedChain(site, lang),
    { locale: lang, limit: definition.limit, cursor, order: definition.order, filters: [...definition.filters].sort((a, b) => (a.kind + a.field + a.value < b.kind + b.field + b.value ? -1 : 1)), selection: definition.fields },
    cacheable,
  );
}
