import { CompiledQuery } from "kysely";
import type { Model } from "../repositories/model-repository";
import type { Site } from "../repositories/site-repository";
import type { PublicItem } from "../services/lifecycle/snapshot";
import { buildSearchDocument } from "./document";
import { searchSettings } from "./settings";

/** The published instance a search document describes (an entries row has all of these). */
export interface IndexedInstance {
  instance_id: string;
  model_id: string;
  translation_group_id: string;
  lang: string;
}

const COLUMNS = "site_id, instance_id, model_id, translation_group_id, lang, version_id, title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10";
const PLACEHOLDERS = Array.from({ length: 17 }, () => "?").join(", ");

function documentValues(site: Site, instance: IndexedInstance, versionId: string, item: PublicItem, model: Model): unknown[] {
  const doc = buildSearchDocument(model, item, searchSettings(site.settings).weights);
  return [site.id, instance.instance_id, instance.model_id, instance.translation_group_id, instance.lang, versionId, doc.title, ...doc.columns];
}

/** Removes an instance from the search index (unpublish; Trash and purge only follow an unpublish). */
export function unindexStatements(ctx: { site: Site }, instanceId: string): CompiledQuery[] {
  return [CompiledQuery.raw("DELETE FROM search_documents WHERE site_id = ? AND instance_id = ?", [ctx.site.id, instanceId])];
}

/**
 * (Re)indexes a published instance from its public item, in the batch that writes the item. Every
 * published instance of a public model is indexed whatever the search settings say (they filter at
 * query time); an instance of a private model is only removed.
 */
export function indexStatements(ctx: { site: Site }, instance: IndexedInstance, versionId: string, item: PublicItem, model: Model): CompiledQuery[] {
  const statements = unindexStatements(ctx, instance.instance_id);
  if (!model.is_public) return statements;
  statements.push(
    CompiledQuery.raw(`INSERT INTO search_documents (${COLUMNS}) VALUES (${PLACEHOLDERS})`, documentValues(ctx.site, instance, versionId, item, model)),
  );
  return statements;
}

/**
 * Like indexStatements, for a rebuild outside the publish batch: both statements act only while the
 * instance is still published with `versionId`, so a rebuild racing a publish or an unpublish can
 * never bring back stale text or a withdrawn item.
 */
export function reindexStatements(ctx: { site: Site }, instance: IndexedInstance, versionId: string, item: PublicItem, model: Model): CompiledQuery[] {
  const still = "EXISTS (SELECT 1 FROM published_items WHERE site_id = ? AND instance_id = ? AND version_id = ?)";
  const stillParams = [ctx.site.id, instance.instance_id, versionId];
  if (!model.is_public) return unindexStatements(ctx, instance.instance_id);
  return [
    CompiledQuery.raw(`DELETE FROM search_documents WHERE site_id = ? AND instance_id = ? AND ${still}`, [ctx.site.id, instance.instance_id, ...stillParams]),
    CompiledQuery.raw(`INSERT INTO search_documents (${COLUMNS}) SELECT ${PLACEHOLDERS} WHERE ${still}`, [
      ...documentValues(ctx.site, instance, versionId, item, model),
      ...stillParams,
    ]),
  ];
}
