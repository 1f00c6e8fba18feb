/**
 * Read tokens of the generated backend (docs/generated-backend.md, "Access"): issued in the CMS,
 * shown once, only the SHA-256 digest stored; generation writes the live ones (model ids mapped to
 * the emitted API names) into `access/read-tokens.json`. The secret is made in the worker before the
 * command and never enters the plan, so an Idempotency-Key replay, which answers the stored answer,
 * cannot show it again (it answers `token: null`).
 */
import { isoAt } from "../../clock";
import type { BackendReadTokensTable } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { apiName } from "./names";
import type { IssuedReadToken } from "./project";
import { requireInfra } from "./infra";

/** A token as the CMS shows it: never the secret or its digest. */
export interface BackendReadTokenView {
  id: string;
  name: string;
  /** Model ids, or `["*"]` for every model (and the routes reading no model, `openapi.json`). */
  models: string[];
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

function toView(row: BackendReadTokensTable): BackendReadTokenView {
  return { id: row.id, name: row.name, models: JSON.parse(row.models) as string[], created_by: row.created_by, created_at: row.created_at, revoked_at: row.revoked_at };
}

/** Plan: a new token with the digest the worker computed (`digest` is never the caller's input). */
export async function createBackendReadToken(ctx: LifecycleContext, input: { name: string; models: readonly string[]; digest: string }): Promise<WritePlan<BackendReadTokenView>> {
  requireInfra(ctx);
  const models = [...new Set(input.models)];
  if (models.includes("*") && models.length > 1) throw new AppError("invalid_request", 'models is either ["*"] or model ids.', { issues: [{ path: "models", message: '"*" stands alone.' }] });
  if (!models.includes("*")) {
    const found = new Set((await modelRepository(ctx.db, ctx.scope).findMany(models)).map((m) => m.id));
    const unknown = models.filter((id) => !found.has(id));
    if (unknown.length > 0) throw new AppError("unknown_model", "Some model ids are not models of this site.", { model_ids: unknown });
  }
  const row: BackendReadTokensTable = {
    id: newId("brt"),
    site_id: ctx.site.id,
    name: input.name,
    digest: input.digest,
    models: JSON.stringify(models),
    created_by: ctx.actor.id,
    created_at: isoAt(ctx.clock.now()),
    revoked_at: null,
  };
  return {
    statements: [ctx.db.insertInto("backend_read_tokens").values(row).compile()],
    answer: toView(row),
    events: [],
    purgeTags: [],
    audit: { action: "backend_read_token.create", targetKind: "backend_read_token", targetId: row.id, details: { name: row.name, models } },
    locks: [],
  };
}

/** Plan: revoke a token (revoking a revoked one answers it unchanged; another site's: 404). */
export async function revokeBackendReadToken(ctx: LifecycleContext, input: { id: string }): Promise<WritePlan<BackendReadTokenView>> {
  requireInfra(ctx);
  const row = await ctx.db.selectFrom("backend_read_tokens").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", input.id).executeTakeFirst();
  if (row === undefined) throw new AppError("not_found", "No such backend read token.");
  const revokedAt = row.revoked_at ?? isoAt(ctx.clock.now());
  return {
    statements: row.revoked_at === null ? [ctx.db.updateTable("backend_read_tokens").set({ revoked_at: revokedAt }).where("site_id", "=", ctx.site.id).where("id", "=", row.id).where("revoked_at", "is", null).compile()] : [],
    answer: toView({ ...row, revoked_at: revokedAt }),
    events: [],
    purgeTags: [],
    audit: { action: "backend_read_token.revoke", targetKind: "backend_read_token", targetId: row.id },
    locks: [],
  };
}

/** Every token of the site, newest first, revoked ones included. */
export async function listBackendReadTokens(ctx: LifecycleContext): Promise<BackendReadTokenView[]> {
  requireInfra(ctx);
  const rows = await ctx.db.selectFrom("backend_read_tokens").selectAll().where("site_id", "=", ctx.site.id).orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map(toView);
}

/** The live tokens as the emitted ACCESS_CONFIG names them (model ids → API names; a removed model drops out). */
export async function issuedReadTokens(ctx: LifecycleContext): Promise<IssuedReadToken[]> {
  const [rows, models] = await Promise.all([
    ctx.db.selectFrom("backend_read_tokens").select(["id", "digest", "models"]).where("site_id", "=", ctx.site.id).where("revoked_at", "is", null).execute(),
    modelRepository(ctx.db, ctx.scope).list(),
  ]);
  const names = new Map(models.map((m) => [m.id, apiName(m.name)] as const));
  return rows.flatMap((row) => {
    const ids = JSON.parse(row.models) as string[];
    const mapped = ids.includes("*") ? ["*"] : ids.flatMap((id) => (names.has(id) ? [names.get(id) as string] : []));
    return mapped.length === 0 ? [] : [{ id: row.id, digest: row.digest, models: mapped }];
  });
}
