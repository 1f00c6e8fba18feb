import type { CompiledQuery } from "kysely";
import { hasSystemPermission } from "../../auth/permissions";
import type { SiteSettings } from "../../content/site-settings";
import { EXECUTABLE_FORMATS, MEDIA_KINDS, kindOfFormat, type MediaKind } from "../media/formats";
import { AppError } from "../../errors";
import { modelRepository } from "../../repositories/model-repository";
import { reindexSiteStatements } from "../../search/reindex";
import { MAX_SEARCH_MODELS } from "../../search/settings";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { servedSiteStatements } from "../lifecycle/served-view";
import { checkRevision, settingsUpdate } from "./settings-revision";

/**
 * Site settings writes (docs/management-api.md, "Settings"). Needs `site:settings`; a change of
 * `search` also needs `site:infra`. The shapes are closed by the route schema; what depends on the
 * site (languages, models, field keys) is checked here, every problem listed in `issues`.
 * Effects: `sites.settings_revision` + 1; locale policy or search changed → purge `s:` and every
 * model's `l:`; embed origins changed → `s:`; search weights changed → the site's search index is
 * rebuilt in the same batch (reindexSiteStatements).
 */

export const MAX_EMBED_ORIGINS = 20;
export const MAX_SEARCH_WEIGHTS = 16;

export interface SettingsPatch {
  locale_fallback?: string[];
  locale_fallback_enabled?: boolean;
  search?: Partial<SiteSettings["search"]>;
  embed_origins?: string[];
  retention?: { trash_days: number };
  review?: { required: boolean };
  validation_mode?: "default" | "strict";
  media?: { allowed?: Partial<Record<MediaKind, string[]>>; public_library?: boolean };
}

export interface UpdateSettingsInput extends SettingsPatch {
  /** Every language of the site; stored on the site row (default first), not in `settings`. */
  languages?: string[];
  expected_revision?: number;
}

export interface SettingsView {
  /** CORS has its own routes (GET/PUT /settings/cors, docs/cors.md). */
  settings: Omit<SiteSettings, "cors"> & { languages: string[]; default_language: string };
  revision: number;
  /** Present on a write: whether the search index was rebuilt in the write's batch. */
  search_reindexed?: boolean;
}

/** The settings as answered: only the documented keys, with the site's languages (default first). */
export function settingsView(site: { settings: SiteSettings; languages: readonly string[]; default_lang: string }, revision: number): SettingsView {
  const settings = site.settings;
  const { locale_fallback, locale_fallback_enabled, search, embed_origins, retention, review, validation_mode, media } = settings;
  return {
    settings: {
      languages: [site.default_lang, ...site.languages.filter((l) => l !== site.default_lang)],
      default_language: site.default_lang,
      locale_fallback,
      locale_fallback_enabled,
      search: { enabled: search.enabled, models: search.models, mode: search.mode, weights: search.weights, hidden_languages: search.hidden_languages },
      embed_origins,
      retention,
      review,
      validation_mode,
      media: { allowed: media.allowed, public_library: media.public_library },
    },
    revision,
  };
}

/** An exact https origin: scheme and host (and port), nothing else. */
function isHttpsOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.origin === value && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Each named kind's formats once, in the order given. */
function dedupedFormats(allowed: Partial<Record<MediaKind, string[]>>): Partial<Record<MediaKind, string[]>> {
  return Object.fromEntries(Object.entries(allowed).map(([kind, list]) => [kind, [...new Set(list)]]));
}

/** PUT /settings */
export async function updateSettings(ctx: LifecycleContext, input: UpdateSettingsInput): Promise<WritePlan<SettingsView>> {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) throw new AppError("missing_permission", "Changing site settings needs site:settings.");
  if (input.search !== undefined && !hasSystemPermission(ctx.actor.permissions, "site:infra")) {
    throw new AppError("missing_permission", "Changing search settings needs site:infra.", { permission: "site:infra" });
  }
  const site = ctx.site;
  checkRevision(ctx, input.expected_revision);

  const issues: { path: string; message: string }[] = [];
  const nextLanguages = input.languages === undefined ? site.languages : await checkedLanguages(ctx, input.languages, issues);
  const languages = new Set(nextLanguages);
  input.locale_fallback?.forEach((lang, i) => {
    if (!languages.has(lang)) issues.push({ path: `locale_fallback[${i}]`, message: `"${lang}" is not a language of the site` });
  });
  if (input.locale_fallback && new Set(input.locale_fallback).size !== input.locale_fallback.length) issues.push({ path: "locale_fallback", message: "a language is named twice" });
  input.embed_origins?.forEach((origin, i) => {
    if (!isHttpsOrigin(origin)) issues.push({ path: `embed_origins[${i}]`, message: `"${origin}" is not an exact https origin (https://host[:port], no path)` });
  });
  if (input.embed_origins && input.embed_origins.length > MAX_EMBED_ORIGINS) issues.push({ path: "embed_origins", message: `at most ${MAX_EMBED_ORIGINS} origins` });

  const models = await modelRepository(ctx.db, ctx.scope).list();
  const search = input.search;
  if (search) {
    const byId = new Map(models.map((m) => [m.id, m]));
    if (search.models && search.models.length > MAX_SEARCH_MODELS) issues.push({ path: "search.models", message: `at most ${MAX_SEARCH_MODELS} models` });
    search.models?.forEach((id, i) => {
      const model = byId.get(id);
      if (!model) issues.push({ path: `search.models[${i}]`, message: `"${id}" is not a model of the site` });
      else if (!model.is_public) issues.push({ path: `search.models[${i}]`, message: `"${id}" is a private model` });
    });
    if (search.models && new Set(search.models).size !== search.models.length) issues.push({ path: "search.models", message: "a model is named twice" });
    const weights = Object.keys(search.weights ?? {});
    if (weights.length > MAX_SEARCH_WEIGHTS) issues.push({ path: "search.weights", message: `at most ${MAX_SEARCH_WEIGHTS} weights` });
    for (const key of weights) {
      const dot = key.indexOf(".");
      const known =
        dot === -1
          ? models.some((m) => m.fields.some((f) => f.key === key))
          : (byId.get(key.slice(0, dot))?.fields.some((f) => f.key === key.slice(dot + 1)) ?? false);
      if (!known) issues.push({ path: `search.weights[${JSON.stringify(key)}]`, message: `"${key}" names no field (use <field key> or <model id>.<field key>)` });
    }
    search.hidden_languages?.forEach((lang, i) => {
      if (!languages.has(lang)) issues.push({ path: `search.hidden_languages[${i}]`, message: `"${lang}" is not a language of the site` });
    });
  }
  // Media formats (docs/media.md): each under its own kind; `file` holds only kindless formats, never a
  // program's or markup (the upload checks refuse those whatever a site allows).
  for (const kind of MEDIA_KINDS) {
    input.media?.allowed?.[kind]?.forEach((format, i) => {
      if (kindOfFormat(format) !== kind || EXECUTABLE_FORMATS.has(format) || format === "xml" || format === "html" || format === "svg") {
        issues.push({ path: `media.allowed.${kind}[${i}]`, message: `"${format}" is not a ${kind} format a site may allow` });
      }
    });
  }
  if (issues.length > 0) throw new AppError("invalid_request", "Some settings are not valid for this site.", { issues });

  const before = site.settings;
  const removed = new Set(site.languages.filter((l) => !languages.has(l)));
  const kept = (list: string[]) => list.filter((l) => !removed.has(l));
  const after: SiteSettings = {
    ...before,
    // A removed language leaves the fallback order and the hidden search languages with it.
    ...(removed.size > 0 ? { locale_fallback: kept(before.locale_fallback), search: { ...before.search, hidden_languages: kept(before.search.hidden_languages) } } : {}),
    ...(input.locale_fallback !== undefined ? { locale_fallback: input.locale_fallback } : {}),
    ...(input.locale_fallback_enabled !== undefined ? { locale_fallback_enabled: input.locale_fallback_enabled } : {}),
    ...(search !== undefined ? { search: { ...before.search, hidden_languages: kept(before.search.hidden_languages), ...search } } : {}),
    ...(input.embed_origins !== undefined ? { embed_origins: input.embed_origins } : {}),
    ...(input.retention !== undefined ? { retention: input.retention } : {}),
    ...(input.review !== undefined ? { review: input.review } : {}),
    ...(input.validation_mode !== undefined ? { validation_mode: input.validation_mode } : {}),
    ...(input.media !== undefined
      ? {
          media: {
            allowed: { ...before.media.allowed, ...dedupedFormats(input.media.allowed ?? {}) },
            public_library: input.media.public_library ?? before.media.public_library,
          },
        }
      : {}),
  };
  const languagesChanged = !same(site.languages, nextLanguages);
  const localeChanged = languagesChanged || !same(before.locale_fallback, after.locale_fallback) || before.locale_fallback_enabled !== after.locale_fallback_enabled;
  const searchChanged = !same(before.search, after.search);
  const weightsChanged = !same(before.search.weights, after.search.weights);
  const embedsChanged = !same(before.embed_origins, after.embed_origins);
  // Delivered media carry the site tag: closing the library must evict files only it served.
  const libraryChanged = before.media.public_library !== after.media.public_library;

  const revision = site.settings_revision + 1;
  const statements: CompiledQuery[] = [
    settingsUpdate(ctx, after, languagesChanged ? { languages: JSON.stringify(nextLanguages) } : {}),
  ];
  // The chains decide which instance each language's lists serve: the served view is rebuilt, in this batch.
  if (localeChanged) statements.push(...servedSiteStatements(ctx.db, { ...site, settings: after }));
  // Weights decide which column a field's text is in: rebuild the index with the new weights, in this batch.
  if (weightsChanged) statements.push(...(await reindexSiteStatements({ ...ctx, site: { ...site, settings: after } })));

  const purgeTags: string[] = [];
  if (localeChanged || searchChanged || embedsChanged || libraryChanged) purgeTags.push(cacheTag.site(site.id));
  if (localeChanged || searchChanged) purgeTags.push(...models.map((m) => cacheTag.list(m.id)));
  const changedSettings = (["locale_fallback", "locale_fallback_enabled", "search", "embed_origins", "retention", "review", "validation_mode", "media"] as const).filter(
    (key) => !same(before[key], after[key]),
  );
  const changed = languagesChanged ? ["languages", ...changedSettings] : changedSettings;
  const afterSite = { settings: after, languages: nextLanguages, default_lang: site.default_lang };
  return {
    statements,
    answer: { ...settingsView(afterSite, revision), search_reindexed: weightsChanged },
    events: [{ name: "site.settings_updated", payload: { revision, changed } }],
    purgeTags,
    audit: {
      action: "site.settings_update",
      targetKind: "site",
      targetId: site.id,
      details: { ...Object.fromEntries(changedSettings.map((key) => [key, after[key]])), ...(languagesChanged ? { languages: nextLanguages } : {}) },
    },
  };
}

/**
 * The site's next languages (default first), or problems in `issues`: the default language stays
 * (an operator changes it), none twice, and a language leaves only when no entry (Trash included)
 * is written in it — removing one never hides or deletes content.
 */
async function checkedLanguages(ctx: LifecycleContext, wanted: string[], issues: { path: string; message: string }[]): Promise<string[]> {
  const site = ctx.site;
  if (new Set(wanted).size !== wanted.length) issues.push({ path: "languages", message: "a language is named twice" });
  if (!wanted.includes(site.default_lang)) issues.push({ path: "languages", message: `"${site.default_lang}" is the site's default language and stays` });
  const removed = site.languages.filter((l) => !wanted.includes(l));
  if (removed.length > 0) {
    const used = await ctx.db
      .selectFrom("entries")
      .select(["lang"])
      .where("site_id", "=", site.id)
      .where("lang", "in", removed)
      .groupBy("lang")
      .execute();
    for (const { lang } of used) issues.push({ path: "languages", message: `"${lang}" still has entries: move them to Trash and empty it first` });
  }
  return [site.default_lang, ...wanted.filter((l) => l !== site.default_lang)];
}
