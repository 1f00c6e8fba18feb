import { isoAt, type Clock } from "../../clock";
import { createDb } from "../../db/client";
import { siteScope } from "../../db/site-scope";
import { findSiteById } from "../../repositories/site-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import type { Actor, LifecycleContext } from "../lifecycle/context";

/** Why a connection was revoked (`oauth_connections.revoked_reason`). */
export type RevokedReason = "person" | "client" | "code_reused" | "refresh_reused";

/** A lifecycle context on a connection's site, for the audit row of a change to it. */
export async function connectionContext(d1: D1Database, siteId: string, actor: Actor, clock: Clock): Promise<LifecycleContext | undefined> {
  const db = createDb(d1);
  const site = await findSiteById(db, siteId);
  if (!site) return undefined;
  return { db, d1, scope: siteScope(site.id), site, actor, clock };
}

/** The actor of a change a connection's own token asked for (revocation, reuse): the connection itself. */
export function connectionActor(personId: string, connectionId: string): Actor {
  return { kind: "management_credential", id: personId, credentialId: connectionId, permissions: { models: {}, system: [] } };
}

/**
 * Revokes a connection from the next request on, with an audit row `oauth_connection.revoke`
 * (details: the reason) in the same batch. Revoking a revoked connection writes nothing.
 * `actor` is who asked: the person in the admin, or the connection itself (revocation endpoint,
 * a reused code or refresh token).
 */
export async function revokeConnectionRow(d1: D1Database, connectionId: string, reason: RevokedReason, clock: Clock, actor?: Actor): Promise<boolean> {
  const row = await d1
    .prepare("SELECT site_id, person_id, revoked_at FROM oauth_connections WHERE id = ?")
    .bind(connectionId)
    .first<{ site_id: string; person_id: string; revoked_at: string | null }>();
  if (!row || row.revoked_at !== null) return false;
  const ctx = await connectionContext(d1, row.site_id, actor ?? connectionActor(row.person_id, connectionId), clock);
  if (!ctx) return false;
  const at = isoAt(clock.now());
  const compiled = ctx.db
    .updateTable("oauth_connections")
    .set({ revoked_at: at, revoked_reason: reason })
    .where("id", "=", connectionId)
    .where("revoked_at", "is", null)
    .compile();
  await commitPlan(ctx, {
    statements: [compiled],
    answer: null,
    events: [],
    purgeTags: [],
    audit: { action: "oauth_connection.revoke", targetKind: "oauth_connection", targetId: connectionId, details: { reason } },
  });
  return true;
}
