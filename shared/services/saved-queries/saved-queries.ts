import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { parseDefinition, queryIssues, type SavedQueryDefinition } from "./definition";

/**
 * Saved queries (spec 3 "Private fields": a saved query on a public route; issue #29 item 6;
 * docs/saved-queries.md). Managed with `settings:write` (the creator needs `site:settings`): a
 * query publishes a list at GET /v1/_queries/{name}, like other site-level delivery settings.
 */

export const MAX_SAVED_QUERIES = 100;
export const DEFAULT_QUERY_LIMIT = 20;

export interface SavedQueryView {
  id: string;
  name: string;
  model_id: string;
  model_slug: string;
  filters: SavedQueryDefinition["filters"];
  order: SavedQueryDefinition["order"];
  fields: string[] | null;
  limit: number;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface SavedQueryInput {
  name: string;
  model_id: string;
  filters?: SavedQueryDefinition["filters"];
  order?: SavedQueryDefinition["order"];
  fields?: string[];
  limit?: number;
}

export interface UpdateSavedQueryInput extends Omit<SavedQueryInput, "name" | "model_id"> {
  query_id: string;
  name?: string;
  expected_revision: number;
}

interface Row {
  id: string;
  name: string;
  model_id: string;
  definition: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

function requireSettings(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) throw new AppError("missing_permission", "Managing saved queries needs site:settings.", { permission: "site:settings" });
}

function view(row: Row, modelSlug: string): SavedQueryView {
  const d = parseDefinition(row.definition);
  return { id: row.id, name: row.name, model_id: row.model_id, model_slug: modelSlug, filters: d.filters, order: d.order, fields: d.fields ?? null, limit: d.limit, revision: row.revision, created_at: row.created_at, updated_at: row.updated_at };
}

async function loadRow(ctx: LifecycleContext, id: string): Promise<Row> {
  const row = await ctx.d1.prepare("SELECT id, name, model_id, definition, revision, created_at, updated_at FROM saved_queries WHERE site_id = ? AND id = ?").bind(ctx.site.id, id).first<Row>();
  if (!row) throw new AppError("saved_query_not_found", "No such saved query.");
  return row;
}

/** The model a query names and its checked definition: unknown names 400, private fields 422. */
async function checkedDefinition(ctx: LifecycleContext, modelId: string, input: Omit<SavedQueryInput, "name" | "model_id">) {
  const model = await modelRepository(ctx.db, ctx.scope).findById(modelId);
  if (!model) throw new AppError("invalid_request", "No such model.", { issues: [{ path: "model_id", message: `"${modelId}" is not a model of this site` }] });
  const definition: SavedQueryDefinition = {
    filters: input.filters ?? [],
    order: input.order ?? "desc",
    ...(input.fields !== undefined ? { fields: [...new Set(input.fields)] } : {}),
    limit: input.limit ?? DEFAULT_QUERY_LIMIT,
  };
  const issues = queryIssues(model, definition);
  // A private field is refused by its own code (spec 3), even beside unknown names.
  if (issues.private.length > 0) throw new AppError("private_field_on_public_route", "A saved query is served publicly: it may not name private fields.", { issues: issues.private });
  if (issues.unknown.length > 0) throw new AppError("invalid_request", "Some names are not fields of the model.", { issues: issues.unknown });
  return { model, definition };
}

async function requireNameFree(ctx: LifecycleContext, name: string, exceptId?: string): Promise<void> {
  const row = await ctx.d1.prepare("SELECT id FROM saved_queries WHERE site_id = ? AND name = ?").bind(ctx.site.id, name).first<{ id: string }>();
  if (row && row.id !== exceptId) throw new AppError("saved_query_name_taken", `A saved query is already named "${name}".`, { name });
}

/** Saved queries of the site, by name. */
export async function listSavedQueries(ctx: LifecycleContext): Promise<SavedQueryView[]> {
  const rows = await ctx.d1.prepare("SELECT id, name, model_id, definition, revision, created_at, updated_at FROM saved_queries WHERE site_id = ? ORDER BY name").bind(ctx.site.id).all<Row>();
  const models = new Map((await modelRepository(ctx.db, ctx.scope).list()).map((m) => [m.id, m.slug]));
  return rows.results.map((r) => view(r, models.get(r.model_id) ?? ""));
}

/** POST /saved-queries */
export async function createSavedQuery(ctx: LifecycleContext, input: SavedQueryInput): Promise<WritePlan<SavedQueryView>> {
  requireSettings(ctx);
  const { model, definition } = await checkedDefinition(ctx, input.model_id, input);
  await requireNameFree(ctx, input.name);
  const count = await ctx.d1.prepare("SELECT count(*) AS n FROM saved_queries WHERE site_id = ?").bind(ctx.site.id).first<{ n: number }>();
  if ((count?.n ?? 0) >= MAX_SAVED_QUERIES) throw new AppError("invalid_request", `At most ${MAX_SAVED_QUERIES} saved queries per site.`);
  const at = isoAt(ctx.clock.now());
  const row: Row = { id: newId("qry"), name: input.name, model_id: model.id, definition: JSON.stringify(definition), revision: 1, created_at: at, updated_at: at };
  return {
    statements: [ctx.db.insertInto("saved_queries").values({ ...row, site_id: ctx.site.id }).compile()],
    answer: view(row, model.slug),
    events: [{ name: "saved_query.created", payload: { id: row.id, name: row.name, model_id: model.id } }],
    // A name answered 404 before is not cached (errors never are): nothing to purge.
    purgeTags: [],
    audit: { action: "saved_query.create", targetKind: "saved_query", targetId: row.id, details: { name: row.name, model_id: model.id, definition } },
  };
}

/** PUT /saved-queries/{id}: replaces the definition (and optionally the name). */
export async function updateSavedQuery(ctx: LifecycleContext, input: UpdateSavedQueryInput): Promise<WritePlan<SavedQueryView>> {
  requireSettings(ctx);
  const before = await loadRow(ctx, input.query_id);
  if (before.revision !== input.expected_revision) throw new AppError("saved_query_changed", "The saved query changed since you read it.", { current_revision: before.revision });
  const { model, definition } = await checkedDefinition(ctx, before.model_id, input);
  const name = input.name ?? before.name;
  if (name !== before.name) await requireNameFree(ctx, name, before.id);
  const at = isoAt(ctx.clock.now());
  const row: Row = { ...before, name, definition: JSON.stringify(definition), revision: before.revision + 1, updated_at: at };
  return {
    statements: [
      ctx.db
        .updateTable("saved_queries")
        .set({ name, definition: row.definition, revision: row.revision, updated_at: at })
        .where("site_id", "=", ctx.site.id)
        .where("id", "=", before.id)
        .where("revision", "=", before.revision)
        .compile(),
    ],
    answer: view(row, model.slug),
    events: [{ name: "saved_query.updated", payload: { id: row.id, name, model_id: model.id } }],
    // Its cached answers carry the site tag (lists do); a query change is rare.
    purgeTags: [cacheTag.site(ctx.site.id)],
    audit: { action: "saved_query.update", targetKind: "saved_query", targetId: row.id, details: { name, definition } },
  };
}

/** DELETE /saved-queries/{id} */
export async function deleteSavedQuery(ctx: LifecycleContext, input: { query_id: string }): Promise<WritePlan<{ id: string; name: string; deleted: true }>> {
  requireSettings(ctx);
  const before = await loadRow(ctx, input.query_id);
  return {
    statements: [ctx.db.deleteFrom("saved_queries").where("site_id", "=", ctx.site.id).where("id", "=", before.id).compile()],
    answer: { id: before.id, name: before.name, deleted: true },
    events: [{ name: "saved_query.deleted", payload: { id: before.id, name: before.name } }],
    purgeTags: [cacheTag.site(ctx.site.id)],
    audit: { action: "saved_query.delete", targetKind: "saved_query", targetId: before.id, details: { name: before.name } },
  };
}
