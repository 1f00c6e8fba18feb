import { AppError } from "../../../errors";
import { addLanguage } from "../../lifecycle/add-language";
import type { WritePlan } from "../../lifecycle/context";
import { createEntry } from "../../lifecycle/create-entry";
import type { EntryView } from "../../lifecycle/entry-view";
import type { Model } from "../../../repositories/model-repository";
import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { firstRow } from "../statements";
import type { WxrPost, WxrTerm } from "./wxr-items";

/**
 * The site language a Polylang language slug stands for (docs/imports.md, "Languages"): the same
 * code, else the site's one regional variant of it (`fr` → `fr-FR`), else null (not on the site).
 */
export function siteLanguageOf(languages: readonly string[], slug: string): string | null {
  const wanted = slug.toLowerCase().replace("_", "-");
  const exact = languages.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const variants = languages.filter((l) => l.toLowerCase().split("-")[0] === wanted.split("-")[0]);
  return variants.length === 1 ? (variants[0] ?? null) : null;
}

/**
 * The write plan of one post or page: a new item, or — when Polylang says it translates an item of
 * the file already written in the same model (same `post_translations` group) — a new language of
 * that item (`addLanguage`), so both are languages of one entry. Its language is Polylang's
 * (`<category domain="language">`) mapped to the site's; a language the site does not have refuses
 * the item (`locale_not_on_site`, reported as a finding by the caller). A translation keeps the
 * item's shared relation lists (categories, tags) rather than its own.
 */
export async function postEntryPlan(ctx: StepContext, job: ImportJobRow, model: Model, post: WxrPost, slug: string | null, fields: Record<string, unknown>): Promise<WritePlan<EntryView>> {
  const modelId = model.id;
  const lang = post.language ? siteLanguageOf(ctx.site.languages, post.language) : ctx.site.default_lang;
  if (!lang) throw new AppError("invalid_request", `The item's language (${post.language}) is not one of this site's languages.`, { reason: "locale_not_on_site", language: post.language, site_languages: ctx.site.languages });
  if (post.translation_group) {
    const sibling = await firstRow<{ instance_id: string }>(
      ctx.d1,
      `SELECT i.instance_id FROM import_items i JOIN entries e ON e.site_id = i.site_id AND e.instance_id = i.instance_id
       WHERE i.site_id = ? AND i.job_id = ? AND i.kind IN ('post', 'page') AND i.instance_id IS NOT NULL AND json_extract(i.payload, '$.translation_group') = ? AND e.model_id = ? LIMIT 1`,
      [ctx.site.id, job.id, post.translation_group, modelId],
    );
    if (sibling) {
      // A relation list shared by the item's languages (no localized membership) is the item's, not
      // the translation's: sending the translation's own would rewrite its sibling's list (a new
      // version the undo would then keep as changed). The translation takes the item's list.
      const shared = new Set(model.fields.filter((f) => f.type === "relation" && f.localized_membership !== true).map((f) => f.key));
      const own = Object.fromEntries(Object.entries(fields).filter(([key]) => !shared.has(key)));
      return addLanguage(ctx, { instance_id: sibling.instance_id, lang, ...(slug ? { slug } : {}), fields: own });
    }
  }
  return createEntry(ctx, { model_id: modelId, lang, slug, fields });
}

const hasTermGroups = new WeakMap<StepContext, Promise<boolean>>();

/** Whether the file has Polylang term groups at all: asked once a step, so files without them cost no query per term. */
export function termGroupsStaged(ctx: StepContext, job: ImportJobRow): Promise<boolean> {
  let found = hasTermGroups.get(ctx);
  if (!found) {
    found = firstRow(ctx.d1, "SELECT 1 AS one FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'other' AND source_key LIKE 'term\\_translations:%' ESCAPE '\\' LIMIT 1", [ctx.site.id, job.id]).then((row) => row !== null && row !== undefined);
    hasTermGroups.set(ctx, found);
  }
  return found;
}

/** A category's or tag's Polylang group: its language slug and the ids of its translations (other terms). */
async function termGroupOf(ctx: StepContext, job: ImportJobRow, termId: string): Promise<{ language: string; term_ids: string[] } | null> {
  if (!termId || !(await termGroupsStaged(ctx, job))) return null;
  const row = await firstRow<{ lang: string; translations: string }>(
    ctx.d1,
    `SELECT j.key AS lang, json_extract(i.payload, '$.translations') AS translations FROM import_items i, json_each(i.payload, '$.translations') j
     WHERE i.site_id = ? AND i.job_id = ? AND i.kind = 'other' AND i.source_key LIKE 'term\\_translations:%' ESCAPE '\\' AND j.value = ? LIMIT 1`,
    [ctx.site.id, job.id, termId],
  );
  if (!row) return null;
  const ids = Object.values(JSON.parse(row.translations) as Record<string, string>).filter((id) => id !== termId);
  return { language: row.lang, term_ids: ids };
}

/**
 * The write plan of one category or tag (docs/imports.md, "Languages"): Polylang writes a term's
 * translations as a `term_translations` group (language slug → term id). In a translated model
 * (`i18n`), a term of a group whose other term is already written in the same model becomes a new
 * language of that entry (`addLanguage`), the first one an entry in its own language; a language
 * the site does not have refuses the term (`locale_not_on_site`). A term without a group, or any
 * term of a model that is not translated, is an entry of its own in the default language.
 */
export async function termEntryPlan(ctx: StepContext, job: ImportJobRow, model: Model, kind: "category" | "tag", term: WxrTerm, slug: string | null, fields: Record<string, unknown>): Promise<WritePlan<EntryView>> {
  const group = model.i18n ? await termGroupOf(ctx, job, term.term_id) : null;
  if (!group) return createEntry(ctx, { model_id: model.id, lang: ctx.site.default_lang, slug, fields });
  const lang = siteLanguageOf(ctx.site.languages, group.language);
  if (!lang) throw new AppError("invalid_request", `The term's language (${group.language}) is not one of this site's languages.`, { reason: "locale_not_on_site", language: group.language, site_languages: ctx.site.languages });
  if (group.term_ids.length > 0) {
    const sibling = await firstRow<{ instance_id: string }>(
      ctx.d1,
      `SELECT i.instance_id FROM import_items i JOIN entries e ON e.site_id = i.site_id AND e.instance_id = i.instance_id
       WHERE i.site_id = ? AND i.job_id = ? AND i.kind = ? AND i.instance_id IS NOT NULL AND e.model_id = ?
         AND json_extract(i.payload, '$.term_id') IN (SELECT value FROM json_each(?)) LIMIT 1`,
      [ctx.site.id, job.id, kind, model.id, JSON.stringify(group.term_ids)],
    );
    if (sibling) {
      // As for a post's translation: a relation list shared by the languages stays the entry's.
      const shared = new Set(model.fields.filter((f) => f.type === "relation" && f.localized_membership !== true).map((f) => f.key));
      const own = Object.fromEntries(Object.entries(fields).filter(([key]) => !shared.has(key)));
      return addLanguage(ctx, { instance_id: sibling.instance_id, lang, ...(slug ? { slug } : {}), fields: own });
    }
  }
  return createEntry(ctx, { model_id: model.id, lang, slug, fields });
}
