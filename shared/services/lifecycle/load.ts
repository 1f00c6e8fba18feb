import { AppError } from "../../errors";
import type { EntryRow, VersionRow } from "../../db/database";
import { entryRepository } from "../../repositories/entry-repository";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";

export interface LoadedEntry {
  entry: EntryRow;
  model: Model;
  version: VersionRow | undefined;
}

/** An entry of this site with its model and current version, or the one not_found refusal. */
export async function loadEntry(ctx: LifecycleContext, instanceId: string): Promise<LoadedEntry> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const entry = await entries.find(instanceId);
  if (!entry) throw new AppError("not_found", "No such entry.");
  const model = await modelRepository(ctx.db, ctx.scope).findById(entry.model_id);
  if (!model) throw new AppError("not_found", "No such entry.");
  const version = entry.current_version_id ? await entries.findVersion(entry.current_version_id) : undefined;
  return { entry, model, version };
}

export async function loadModel(ctx: LifecycleContext, modelId: string): Promise<Model> {
  const model = await modelRepository(ctx.db, ctx.scope).findById(modelId);
  if (!model) throw new AppError("not_found", "No such model.");
  return model;
}

export function requireNotTrashed(entry: EntryRow): void {
  if (entry.trashed_at !== null) throw new AppError("entry_in_trash", "The entry is in Trash; restore it first.");
}

export function requireSiteLanguage(ctx: LifecycleContext, model: Model, lang: string): void {
  if (!ctx.site.languages.includes(lang)) {
    throw new AppError("unknown_locale", `The site has no language "${lang}".`, { lang, languages: ctx.site.languages });
  }
  if (!model.i18n && lang !== ctx.site.default_lang) {
    throw new AppError("unknown_locale", `Model "${model.slug}" is not translated; use ${ctx.site.default_lang}.`, { lang });
  }
}
