import { hasSystemPermission } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { isoAt } from "../../clock";
import { revokeConnectionRow } from "./connection-store";
import { ACCESS_TOKEN_TTL_MS } from "./tokens";

/**
 * OAuth connections as the admin lists and revokes them (docs/oauth.md). A person sees and revokes
 * their own connections to the site; with `site:settings` (which manages the site's management
 * credentials) they see and revoke every connection to it. Never a token or a digest.
 */

/** A connection as the admin lists it. */
export interface ConnectionView {
  id: string;
  client_id: string;
  client_name: string | null;
  person_id: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  /**
   * When the connection's newest access token was issued: at connecting, then at each refresh
   * (tokens are kept until they expire, so null once none is left: the app has not refreshed lately).
   */
  last_refresh_at: string | null;
}

interface Row {
  id: string;
  client_id: string;
  client_name: string | null;
  person_id: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  newest_access_expires: number | null;
}

function toView(row: Row): ConnectionView {
  const { newest_access_expires, ...rest } = row;
  return { ...rest, scopes: JSON.parse(row.scopes) as string[], last_refresh_at: newest_access_expires === null ? null : isoAt(newest_access_expires - ACCESS_TOKEN_TTL_MS) };
}

const SELECT = `SELECT c.id, c.client_id, k.client_name, c.person_id, c.scopes, c.created_at, c.revoked_at, c.revoked_reason,
  (SELECT MAX(t.expires_at) FROM oauth_tokens t WHERE t.connection_id = c.id AND t.kind = 'access') AS newest_access_expires
  FROM oauth_connections c JOIN oauth_clients k ON k.id = c.client_id`;

/** Whether the actor sees every connection of the site (else only their own). */
function seesAll(ctx: LifecycleContext): boolean {
  return hasSystemPermission(ctx.actor.permissions, "site:settings");
}

/** The site's connections the person may see, newest first, revoked ones included. */
export async function listConnections(ctx: LifecycleContext): Promise<ConnectionView[]> {
  const rows = seesAll(ctx)
    ? await ctx.d1.prepare(`${SELECT} WHERE c.site_id = ? ORDER BY c.created_at DESC, c.id DESC`).bind(ctx.site.id).all<Row>()
    : await ctx.d1.prepare(`${SELECT} WHERE c.site_id = ? AND c.person_id = ? ORDER BY c.created_at DESC, c.id DESC`).bind(ctx.site.id, ctx.actor.id).all<Row>();
  return rows.results.map(toView);
}

/**
 * Revokes a connection of the site: the next request with any of its access tokens is 401 and its
 * refresh token is refused. Another person's connection without `site:settings`, another site's
 * or none → 404 not_found. Revoking a revoked connection answers it unchanged.
 */
export async function revokeConnection(ctx: LifecycleContext, connectionId: string): Promise<ConnectionView> {
  const find = () => ctx.d1.prepare(`${SELECT} WHERE c.site_id = ? AND c.id = ?`).bind(ctx.site.id, connectionId).first<Row>();
  const row = await find();
  if (!row || (!seesAll(ctx) && row.person_id !== ctx.actor.id)) throw new AppError("not_found", "No such connection.");
  if (row.revoked_at !== null) return toView(row);
  await revokeConnectionRow(ctx.d1, connectionId, "person", ctx.clock, ctx.actor);
  const revoked = await find();
  return toView(revoked ?? row);
}
