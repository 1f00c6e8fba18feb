import { AppError } from "../../shared/errors";
import { localeChain } from "../../shared/content/site-settings";
import { tokenModelIds } from "../../shared/public/site-tokens";
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { configCacheMs, TtlCache } from "../../shared/public/config-cache";
import type { Env } from "../../shared/env";
import { siteScopedDatabase } from "../../shared/db/site-databases";

const models = new TtlCache<Model | undefined>("public models by site and slug");

/** The one answer for everything the public API refuses, so refusals cannot be told apart. */
export function publicNotFound(): AppError {
  return new AppError("not_found", "Not found.");
}

/**
 * The model a public request may read: public, or private with a site API token naming it.
 * A private model without a valid token is the same 404 as a model that does not exist.
 */
export async function readableModel(env: Env, site: Site, slug: string, request: Request): Promise<Model> {
  const d1 = await siteScopedDatabase(env, site.id);
  const model = await models.get(`${site.id}|${slug}`, configCacheMs(env), Date.now(), () => modelRepository(createDb(d1), siteScope(site.id)).findBySlug(slug));
  if (!model) throw publicNotFound();
  if (model.is_public) return model;
  const allowed = await tokenModelIds(d1, site.id, request);
  if (!allowed.includes(model.id)) throw publicNotFound();
  return model;
}

/** Languages served for a request, in order; a language the site does not have serves nothing. */
export function servedChain(site: Site, locale: string | undefined): string[] {
  const lang = locale ?? site.default_lang;
  if (!site.languages.includes(lang)) throw publicNotFound();
  return localeChain(site, lang).filter((l) => site.languages.includes(l));
}
