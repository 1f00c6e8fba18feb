import type { FieldDefinition } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import { PAGE_TREE_LIMIT } from "./page-model";
import { byPath, pagePaths } from "./page-paths";

/** A page's draft in one language as the management API lists it. */
export interface DraftPage {
  instance_id: string;
  translation_group_id: string;
  lang: string;
  slug: string | null;
  label: string | null;
  parent_id: string | null;
  path: string | null;
  current_version_id: string | null;
  published_version_id: string | null;
  updated_at: string;
}

/**
 * The live (not in Trash) pages of one language with each one's parent as its current draft links
 * it (`relation_links` of the current version), and the paths those drafts make.
 */
export async function draftPages(d1: D1Database, siteId: string, model: Model, parent: FieldDefinition | undefined, lang: string): Promise<DraftPage[]> {
  const rows = await d1
    .prepare(
      `SELECT e.instance_id, e.translation_group_id, e.lang, e.slug, e.label, e.current_version_id, e.published_version_id, e.updated_at,
              (SELECT rl.target_group_id FROM relation_links rl WHERE rl.site_id = e.site_id AND rl.version_id = e.current_version_id AND rl.field_id = ? LIMIT 1) AS parent_id
         FROM entries e WHERE e.site_id = ? AND e.model_id = ? AND e.lang = ? AND e.trashed_at IS NULL LIMIT ?`,
    )
    .bind(parent?.id ?? "", siteId, model.id, lang, PAGE_TREE_LIMIT)
    .all<Omit<DraftPage, "path">>();
  const paths = pagePaths(rows.results.map((r) => ({ group: r.translation_group_id, slug: r.slug, parent: r.parent_id })));
  return byPath(rows.results.map((r) => ({ ...r, path: paths.get(r.translation_group_id) ?? null })));
}

/** A published page as the public API lists it. */
export interface PublishedPage {
  id: string;
  group: string;
  locale: string;
  slug: string | null;
  title: string | null;
  parent: string | null;
  path: string | null;
}

/**
 * The published pages served in `chain` (each page in the first language of the chain it is
 * published in) with their parents as their published versions link them (`relation_links` of the
 * published version: `published_relations` drops a link whose target is unpublished, which would
 * lift the page to the top) and their paths; a page under an unpublished parent has no path and is
 * left out by the callers.
 */
export async function publishedPages(d1: D1Database, siteId: string, model: Model, parent: FieldDefinition | undefined, chain: readonly string[]): Promise<PublishedPage[]> {
  const rows = await d1
    .prepare(
      `SELECT p.instance_id AS id, p.translation_group_id AS "group", p.lang AS locale, p.slug, p.label AS title,
              (SELECT rl.target_group_id FROM relation_links rl WHERE rl.site_id = p.site_id AND rl.version_id = p.version_id AND rl.field_id = ? LIMIT 1) AS parent
         FROM published_items p WHERE p.site_id = ? AND p.model_id = ? AND p.lang IN (SELECT value FROM json_each(?)) LIMIT ?`,
    )
    .bind(parent?.id ?? "", siteId, model.id, JSON.stringify(chain), PAGE_TREE_LIMIT)
    .all<Omit<PublishedPage, "path">>();
  const served = new Map<string, Omit<PublishedPage, "path">>();
  for (const lang of [...chain].reverse()) for (const row of rows.results) if (row.locale === lang) served.set(row.group, row);
  const pages = [...served.values()];
  const paths = pagePaths(pages.map((p) => ({ group: p.group, slug: p.slug, parent: p.parent })));
  return byPath(pages.map((p) => ({ ...p, path: paths.get(p.group) ?? null })));
}
