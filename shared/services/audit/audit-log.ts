import { hasSystemPermission } from "../../auth/permissions";
import { recordDatabases } from "../../db/site-databases";
import type { DatabaseBindings } from "../../db/site-databases";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * The site's audit log as the admin reads it (issue #30 item 6, docs/admin-ui-settings.md):
 * newest first, each row with the surface it came through. Rows live where their write was
 * committed (shared/db/tables.ts, RECORD_TABLES): the site's database for content, the control
 * database for directory changes (credentials, plugins, people), so both are read and merged.
 * Rows hold digests of values only (commit-plan.ts), so nothing here can leak content or secrets.
 */

export type AuditSurface = "admin" | "credential" | "oauth_app" | "plugin" | "system";

export interface AuditFilter {
  person?: string;
  /** Rows written with this credential, connection or installation, and rows about it. */
  credential?: string;
  entry?: string;
  /** An exact action, or a family when it ends with a dot (`entry.`). */
  action?: string;
  surface?: AuditSurface;
  /** The `next_cursor` of the previous page. */
  before?: string;
  limit?: number;
}

export interface AuditRowView {
  id: string;
  at: string;
  surface: AuditSurface;
  actor_kind: string;
  person_id: string | null;
  person_name: string | null;
  credential_id: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
}

interface AuditRow {
  id: string;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  credential_id: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
}

export const DEFAULT_AUDIT_PAGE = 50;

/**
 * Which door a write came through. OAuth apps act as a management credential whose id is their
 * connection's (`con_…`, shared/services/oauth/tokens.ts); a credential's is `mcr_…`.
 */
export function surfaceOf(row: { actor_kind: string; credential_id: string | null }): AuditSurface {
  if (row.actor_kind === "person") return "admin";
  if (row.actor_kind === "plugin") return "plugin";
  if (row.actor_kind === "management_credential") return row.credential_id?.startsWith("con_") ? "oauth_app" : "credential";
  return "system";
}

const SURFACE_SQL: Record<AuditSurface, string> = {
  admin: "actor_kind = 'person'",
  credential: "actor_kind = 'management_credential' AND (credential_id IS NULL OR credential_id NOT LIKE 'con\\_%' ESCAPE '\\')",
  oauth_app: "actor_kind = 'management_credential' AND credential_id LIKE 'con\\_%' ESCAPE '\\'",
  plugin: "actor_kind = 'plugin'",
  system: "actor_kind NOT IN ('person', 'plugin', 'management_credential')",
};

/** `at|id` of the last row shown: the next page starts strictly after it. */
function parseCursor(text: string): { at: string; id: string } {
  const bar = text.indexOf("|");
  if (bar <= 0 || bar === text.length - 1) throw new AppError("invalid_request", "before is not a cursor this list gave.", { field: "before" });
  return { at: text.slice(0, bar), id: text.slice(bar + 1) };
}

/** The SQL of one database's page and its bindings. */
function pageQuery(siteId: string, filter: AuditFilter, limit: number): { sql: string; binds: unknown[] } {
  const where = ["site_id = ?"];
  const binds: unknown[] = [siteId];
  if (filter.person) {
    where.push("actor_id = ?");
    binds.push(filter.person);
  }
  if (filter.credential) {
    // What the credential (or OAuth connection, or plugin) did, and what was done to it (created, revoked).
    where.push("(credential_id = ? OR target_id = ?)");
    binds.push(filter.credential, filter.credential);
  }
  if (filter.entry) {
    where.push("target_kind = 'entry' AND target_id = ?");
    binds.push(filter.entry);
  }
  if (filter.action) {
    if (filter.action.endsWith(".")) {
      where.push("substr(action, 1, ?) = ?");
      binds.push(filter.action.length, filter.action);
    } else {
      where.push("action = ?");
      binds.push(filter.action);
    }
  }
  if (filter.surface) where.push(SURFACE_SQL[filter.surface]);
  if (filter.before) {
    const cursor = parseCursor(filter.before);
    where.push("(at < ? OR (at = ? AND id < ?))");
    binds.push(cursor.at, cursor.at, cursor.id);
  }
  const sql = `SELECT id, at, actor_kind, actor_id, credential_id, action, target_kind, target_id FROM audit_log WHERE ${where.join(" AND ")} ORDER BY at DESC, id DESC LIMIT ?`;
  binds.push(limit + 1);
  return { sql, binds };
}

const newestFirst = (a: AuditRow, b: AuditRow) => (a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.at < b.at ? 1 : -1);

/** One page of the site's audit log; needs `site:settings`. */
export async function listAuditLog(ctx: LifecycleContext, env: DatabaseBindings, filter: AuditFilter): Promise<{ data: AuditRowView[]; next_cursor: string | null }> {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) {
    throw new AppError("missing_permission", 'Reading the audit log needs "site:settings".', { permission: "site:settings" });
  }
  const limit = filter.limit ?? DEFAULT_AUDIT_PAGE;
  const { sql, binds } = pageQuery(ctx.site.id, filter, limit);
  const rows: AuditRow[] = [];
  for (const store of await recordDatabases(env, ctx.site.id)) {
    rows.push(...(await store.prepare(sql).bind(...binds).all<AuditRow>()).results);
  }
  rows.sort(newestFirst);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? `${last.at}|${last.id}` : null;

  const personIds = [...new Set(page.filter((r) => r.actor_kind !== "system").map((r) => r.actor_id).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  if (personIds.length > 0) {
    const found = await ctx.db.selectFrom("persons").select(["id", "name"]).where("id", "in", personIds).execute();
    for (const p of found) names.set(p.id, p.name);
  }
  return {
    data: page.map((r) => ({
      id: r.id,
      at: r.at,
      surface: surfaceOf(r),
      actor_kind: r.actor_kind,
      person_id: r.actor_kind === "system" ? null : r.actor_id,
      person_name: r.actor_id ? (names.get(r.actor_id) ?? null) : null,
      credential_id: r.credential_id,
      action: r.action,
      target_kind: r.target_kind,
      target_id: r.target_id,
    })),
    next_cursor: next,
  };
}
