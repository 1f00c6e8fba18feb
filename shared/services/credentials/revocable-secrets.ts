import { isoAt } from "../../clock";
import type { ManagementCredentialsTable, SiteApiTokensTable } from "../../db/database";
import { AppError } from "../../errors";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";

/** Tables of site-scoped secrets kept as digests and revoked by stamping `revoked_at`. */
interface SecretTables {
  site_api_tokens: SiteApiTokensTable;
  management_credentials: ManagementCredentialsTable;
}

export interface SecretKind<T extends keyof SecretTables> {
  table: T;
  /** Audit names: `<auditName>.revoke`, target kind. */
  auditName: string;
  targetKind: string;
  notFound: string;
}

/** Every row of the site, newest first, revoked ones included. */
export async function listSecrets<T extends keyof SecretTables>(ctx: LifecycleContext, kind: SecretKind<T>): Promise<SecretTables[T][]> {
  const rows = await ctx.d1
    .prepare(`SELECT * FROM ${kind.table} WHERE site_id = ? ORDER BY created_at DESC, id DESC`)
    .bind(ctx.site.id)
    .all<SecretTables[T]>();
  return rows.results;
}

/**
 * Revokes one of the site's secrets from the next request on. Revoking a revoked one answers it
 * unchanged (nothing written); another site's or none is 404 not_found. Audited in the same batch.
 */
export async function revokeSecret<T extends keyof SecretTables>(ctx: LifecycleContext, kind: SecretKind<T>, id: string): Promise<SecretTables[T]> {
  const row = await ctx.d1.prepare(`SELECT * FROM ${kind.table} WHERE site_id = ? AND id = ?`).bind(ctx.site.id, id).first<SecretTables[T]>();
  if (!row) throw new AppError("not_found", kind.notFound);
  if (row.revoked_at !== null) return row;
  const revokedAt = isoAt(ctx.clock.now());
  const revoked = { ...row, revoked_at: revokedAt };
  const compiled = ctx.db.updateTable("site_api_tokens").set({ revoked_at: revokedAt }).compile();
  await commitPlan(ctx, {
    statements: [{ ...compiled, sql: `UPDATE ${kind.table} SET revoked_at = ? WHERE site_id = ? AND id = ? AND revoked_at IS NULL`, parameters: [revokedAt, ctx.site.id, id] }],
    answer: revoked,
    events: [],
    purgeTags: [],
    audit: { action: `${kind.auditName}.revoke`, targetKind: kind.targetKind, targetId: id },
  });
  return revoked;
}
