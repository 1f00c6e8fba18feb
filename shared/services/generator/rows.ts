/**
 * The starting rows of the emitted project (`data/<table>.json`): one base row per published item,
 * a translation row per other published language, join rows in list order. Pure; links are written
 * as the target's translation group id (the row id), media URLs made absolute.
 */
import { relationTargets } from "../../content/value-references";
import { baseLanguage } from "./content-checks";
import { isPrivateField, type ColumnPlan, type ModelPlan } from "./plan";
import { markPrivateRichText, PRIVATE_FILE_MARKER, type PrivateMedia } from "./private-files";
import type { GeneratorSite, LinkTarget, PublishedItem, PublishedLanguage } from "./types";

export type Row = Record<string, string | number | null>;

const absolute = (origin: string, url: string): string => (/^https?:\/\//.test(url) ? url : `${origin}${url}`);

/** The value of one column from a language's stored values. */
function columnValue(column: ColumnPlan, plan: ModelPlan, item: PublishedItem, language: PublishedLanguage, site: GeneratorSite, targets: ReadonlyMap<string, LinkTarget>, privateMedia: ReadonlyMap<string, PrivateMedia>): string | number | null {
  const source = column.field;
  if (source === undefined) return null;
  const field = plan.fields.find((f) => f.id === source.id);
  const value = language.values[source.id];
  if (field === undefined || value === undefined || value === null) {
    return source.part === "originals" ? "{}" : null;
  }
  switch (source.part) {
    case "lat":
    case "lon":
      return typeof value === "object" && value !== null && !Array.isArray(value) ? Number((value as Record<string, unknown>)[source.part]) : null;
    case "id": {
      const ids = relationTargets(field, value).map((id) => targets.get(id)?.group_id ?? id);
      if (field.type === "relation") return ids[0] ?? null;
      const media = Array.isArray(value) ? value : [value];
      return column.type === "json" ? JSON.stringify(media) : (media[0] as string | undefined) ?? null;
    }
    case "url": {
      if (isPrivateField(field)) {
        // A private field's media have no public address: a marker the file route resolves.
        const markers = (Array.isArray(value) ? value : [value]).map((id) => {
          const media = typeof id === "string" ? privateMedia.get(id) : undefined;
          return media === undefined ? null : `${PRIVATE_FILE_MARKER}${media.object_key}`;
        });
        return column.type === "json" ? JSON.stringify(markers) : markers[0] ?? null;
      }
      const refs = language.media[field.key] ?? [];
      const urls = (Array.isArray(value) ? value : [value]).map((id) => {
        const ref = refs.find((r) => r.id === id);
        return ref === undefined ? null : absolute(site.media_origin, ref.url);
      });
      return column.type === "json" ? JSON.stringify(urls) : urls[0] ?? null;
    }
    case "originals": {
      // Served language → media id → the retained original's facts and transferred URL.
      const originals: Record<string, Record<string, unknown>> = {};
      for (const lang of [...item.languages].sort((a, b) => (a.lang < b.lang ? -1 : 1))) {
        for (const ref of lang.media[field.key] ?? []) {
          if (ref.original === undefined) continue;
          (originals[lang.lang] ??= {})[ref.id] = { ...ref.original, url: absolute(site.media_origin, ref.original.url) };
        }
      }
      return JSON.stringify(originals);
    }
    case "value":
      if (field.type === "rich_text" && isPrivateField(field) && typeof value === "string") return markPrivateRichText(value, privateMedia);
      if (column.type === "boolean") return value === true ? 1 : 0;
      if (column.type === "json") return JSON.stringify(value);
      if (column.format === "datetime" && typeof value === "string") return new Date(value).toISOString();
      return typeof value === "string" || typeof value === "number" ? value : JSON.stringify(value);
  }
}

/** Rows of every table, by table name, in id order (join rows by owner, then position). */
export function tableRows(plans: readonly ModelPlan[], items: readonly PublishedItem[], site: GeneratorSite, targets: ReadonlyMap<string, LinkTarget>, privateMedia: ReadonlyMap<string, PrivateMedia> = new Map()): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const plan of plans) {
    const mine = items.filter((item) => item.model_id === plan.model.id).sort((a, b) => (a.group_id < b.group_id ? -1 : 1));
    const rows: Row[] = [];
    const translations: Row[] = [];
    for (const join of plan.joins) out[join.table] = [];
    for (const item of mine) {
      const base = baseLanguage(item, site);
      if (base === undefined) continue;
      const row: Row = {};
      for (const column of plan.table.columns) {
        if (column.name === "id") row.id = item.group_id;
        else if (column.name === "slug" && column.field === undefined) row.slug = base.slug;
        else if (column.name === "published_at") row.published_at = item.first_published_at;
        else if (column.name === "created_at") row.created_at = item.first_published_at;
        else if (column.name === "updated_at") row.updated_at = base.published_at;
        else row[column.name] = columnValue(column, plan, item, base, site, targets, privateMedia);
      }
      rows.push(row);
      for (const language of item.languages) {
        if (language === base || plan.translation === undefined) continue;
        const translated: Row = {};
        for (const column of plan.translation.columns) {
          if (column.name === "id") translated.id = `${item.group_id}-${language.lang}`;
          else if (column.name === `${plan.api}_id`) translated[column.name] = item.group_id;
          else if (column.name === "lang") translated.lang = language.lang;
          else if (column.name === "slug" && column.field === undefined) translated.slug = language.slug;
          else if (column.name === "published_at" || column.name === "created_at") translated[column.name] = language.published_at;
          else if (column.name === "updated_at") translated.updated_at = language.published_at;
          else translated[column.name] = columnValue(column, plan, item, language, site, targets, privateMedia);
        }
        translations.push(translated);
      }
      for (const join of plan.joins) {
        const field = plan.fields.find((f) => f.id === join.field.id);
        if (field === undefined) continue;
        const languages = join.localized ? item.languages : [base];
        for (const language of languages) {
          const ids = relationTargets(field, language.values[field.id]);
          ids.forEach((id, position) => {
            const target = targets.get(id);
            if (target === undefined || join.target !== plans.find((p) => p.model.id === target.model_id)?.api) return;
            (out[join.table] as Row[]).push({ owner_id: item.group_id, target_id: target.group_id, position, ...(join.localized ? { lang: language.lang } : {}) });
          });
        }
      }
    }
    out[plan.table.name] = rows;
    if (plan.translation) out[plan.translation.name] = translations.sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  }
  return out;
}
