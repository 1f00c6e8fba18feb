import { CompiledQuery } from "kysely";
import { commit } from "../db/batch";
import { AppError } from "../errors";
import { modelRepository, type Model } from "../repositories/model-repository";
import type { LifecycleContext } from "../services/lifecycle/context";
import type { PublicItem } from "../services/lifecycle/snapshot";
import { reindexStatements } from "./index-statements";

type ReindexContext = Pick<LifecycleContext, "db" | "d1" | "scope" | "site">;

/** Published rows read per page while rebuilding. */
const PAGE = 100;

interface PublishedRow {
  instance_id: string;
  model_id: string;
  translation_group_id: string;
  lang: string;
  version_id: string;
  body: string;
}

async function publishedPage(ctx: ReindexContext, modelId: string, after: string, limit: number): Promise<PublishedRow[]> {
  const result = await ctx.d1
    .prepare(
      "SELECT instance_id, model_id, translation_group_id, lang, version_id, body FROM published_items WHERE site_id = ? AND model_id = ? AND instance_id > ? ORDER BY instance_id LIMIT ?",
    )
    .bind(ctx.site.id, modelId, after, limit)
    .all<PublishedRow>();
  return result.results;
}

/** Drops documents of the model whose instance is no longer published (or every one, for a private model). */
function dropStatements(ctx: ReindexContext, model: Model): CompiledQuery[] {
  if (!model.is_public) return [CompiledQuery.raw("DELETE FROM search_documents WHERE site_id = ? AND model_id = ?", [ctx.site.id, model.id])];
  return [
    CompiledQuery.raw(
      "DELETE FROM search_documents WHERE site_id = ? AND model_id = ? AND NOT EXISTS (SELECT 1 FROM published_items p WHERE p.site_id = search_documents.site_id AND p.instance_id = search_documents.instance_id)",
      [ctx.site.id, model.id],
    ),
  ];
}

/** Walks the model's published items a page at a time, handing each page's statements to `sink`. */
async function walkModel(ctx: ReindexContext, model: Model, sink: (statements: CompiledQuery[], documents: number) => Promise<void>): Promise<void> {
  await sink(dropStatements(ctx, model), 0);
  if (!model.is_public) return;
  let after = "";
  for (;;) {
    const rows = await publishedPage(ctx, model.id, after, PAGE);
    if (rows.length === 0) return;
    const statements = rows.flatMap((row) => reindexStatements(ctx, row, row.version_id, JSON.parse(row.body) as PublicItem, model));
    await sink(statements, rows.length);
    after = rows.at(-1)?.instance_id ?? after;
    if (rows.length < PAGE) return;
  }
}

/**
 * Statements rebuilding one model's part of the index from its published items: after the model's
 * fields, title, privacy or visibility changed. Reads everything first: for large models use reindexModel.
 */
export async function reindexModelStatements(ctx: ReindexContext, model: Model): Promise<CompiledQuery[]> {
  const out: CompiledQuery[] = [];
  await walkModel(ctx, model, async (statements) => {
    out.push(...statements);
  });
  return out;
}

/** Statements dropping documents of models that no longer exist in the site. */
function orphanStatements(ctx: ReindexContext): CompiledQuery[] {
  return [
    CompiledQuery.raw("DELETE FROM search_documents WHERE site_id = ? AND model_id NOT IN (SELECT id FROM models WHERE site_id = ?)", [ctx.site.id, ctx.site.id]),
  ];
}

/**
 * Statements rebuilding the whole site's index: after `search.weights` changed (weights decide which
 * column a field's text is in). Enabling search, choosing models or hiding languages need no rebuild.
 */
export async function reindexSiteStatements(ctx: ReindexContext): Promise<CompiledQuery[]> {
  const out = orphanStatements(ctx);
  for (const model of await modelRepository(ctx.db, ctx.scope).list()) out.push(...(await reindexModelStatements(ctx, model)));
  return out;
}

export interface ReindexReport {
  /** Published instances whose document was rebuilt. */
  documents: number;
  /** D1 batches committed. */
  batches: number;
}

async function committing(ctx: ReindexContext, models: Model[], extra: CompiledQuery[]): Promise<ReindexReport> {
  const report: ReindexReport = { documents: 0, batches: 0 };
  const sink = async (statements: CompiledQuery[], documents: number) => {
    if (statements.length === 0) return;
    await commit(ctx.d1, statements);
    report.documents += documents;
    report.batches += 1;
  };
  await sink(extra, 0);
  for (const model of models) await walkModel(ctx, model, sink);
  return report;
}

/** Rebuilds one model's documents, committing a page of items per batch (each statement is guarded). */
export async function reindexModel(ctx: ReindexContext, modelId: string): Promise<ReindexReport> {
  const model = await modelRepository(ctx.db, ctx.scope).findById(modelId);
  if (!model) throw new AppError("not_found", "No such model.");
  return committing(ctx, [model], []);
}

/** Rebuilds the site's whole index, a page of items per batch. */
export async function reindexSite(ctx: ReindexContext): Promise<ReindexReport> {
  return committing(ctx, await modelRepository(ctx.db, ctx.scope).list(), orphanStatements(ctx));
}
