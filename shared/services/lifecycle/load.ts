import { AppError } from "../../errors";
import { decide, modelOperations } from "../../auth/permissions";
import type { EntryRow, VersionRow } from "../../db/database";
import { entryRepository } from "../../repositories/entry-repository";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";

export interface LoadedEntry {
  entry: EntryRow;
  model: Model;
  version: VersionRow | undefined;
}

/** Whether the actor may read entries of this model in this language (its `read` and language limit). */
export function mayRead(ctx: LifecycleContext, modelId: string, lang: string): boolean {
  return decide(ctx.actor.permissions, { operation: "read", modelId, lang }).allowed;
}

/**
 * An entry of this site with its model and current version, or the one not_found refusal.
 * Authorise first, then reveal: an entry the actor may not read (its model or language) is "not
 * found" to every write exactly as `GET /entries/{id}` answers it, so no later check (Trash,
 * stale version, slug, existing language…) can tell the caller anything about it.
 */
export async function loadEntry(ctx: LifecycleContext, instanceId: string): Promise<LoadedEntry> {
  const pre = ctx.preloaded?.kind === "entry" && ctx.preloaded.instanceId === instanceId ? ctx.preloaded : undefined;
  const entries = entryRepository(ctx.db, ctx.scope);
  const entry = pre ? pre.entry : await entries.find(instanceId);
  if (!entry) throw new AppError("not_found", "No such entry.");
  const model = pre ? pre.model : await modelRepository(ctx.db, ctx.scope).findById(entry.model_id);
  if (!model || !mayRead(ctx, model.id, entry.lang)) throw new AppError("not_found", "No such entry.");
  const version = pre ? pre.version : entry.current_version_id ? await entries.findVersion(entry.current_version_id) : undefined;
  return { entry, model, version };
}

export async function loadModel(ctx: LifecycleContext, modelId: string): Promise<Model> {
  const model = await modelRepository(ctx.db, ctx.scope).findById(modelId);
  if (!model) throw new AppError("not_found", "No such model.");
  return model;
}

/**
 * A model the actor holds some operation on, for creating entries; a model they hold nothing on
 * (a credential without it, a role without it) is "not found", as `GET /models/{id}` answers it.
 */
export async function loadModelForEntries(ctx: LifecycleContext, modelId: string): Promise<Model> {
  const model = ctx.preloaded?.kind === "model" && ctx.preloaded.modelId === modelId ? ctx.preloaded.model : await modelRepository(ctx.db, ctx.scope).findById(modelId);
  if (!model || modelOperations(ctx.actor.permissions, model.id).length === 0) throw new AppError("not_found", "No such model.");
  return model;
}

/**
 * Details that name another entry (its instance id), kept only when the actor may read that
 * entry's model and language: a refusal never points at content the caller cannot see.
 */
export function revealEntry(ctx: LifecycleContext, holder: { instance_id: string; model_id: string; lang: string }): { instance_id?: string } {
  return mayRead(ctx, holder.model_id, holder.lang) ? { instance_id: holder.instance_id } : {};
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
