import type { CompiledQuery, Kysely } from "kysely";
import type { Clock } from "../../clock";
import { isoAt } from "../../clock";
import { createDb } from "../../db/client";
import type { Database, SiteRow } from "../../db/database";
import { batchFailure, commit, guard } from "../../db/batch";
import { databaseByBinding, DEFAULT_SITE_DATABASE, isSiteDatabaseBinding, SITE_DATABASE_BINDINGS, siteScopedDatabase, type DatabaseBindings } from "../../db/site-databases";
import { siteScope } from "../../db/site-scope";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { normaliseHost, toSite } from "../../repositories/site-repository";
import { createInvitation, OPERATOR_INVITER, type CreatedInvitation } from "../people/invitations";
import { storedSet } from "../people/rules";
import { provisionSite } from "./provision";

/**
 * The operators' site services (docs/operations-api.md): create a site, read sites with their
 * figures, add and remove hosts, invite an administrator, suspend and resume. Directory writes go
 * to the control database in one batch each; `extra` statements (the idempotency answer,
 * workers/ops/idempotency.ts) ride in the same batch, so a change and its answer commit together.
 */

export interface OpsSiteView {
  id: string;
  slug: string;
  name: string;
  hosts: string[];
  languages: string[];
  default_lang: string;
  database: string;
  suspended: boolean;
  suspended_at: string | null;
  created_at: string;
  figures: {
    entries: Record<string, number>;
    media: { files: number; bytes: number };
    members: number;
    last_write_at: string | null;
  };
}

export interface CreateSiteInput {
  slug: string;
  name: string;
  hosts: string[];
  languages: string[];
  default_lang: string;
  database?: string | undefined;
}

type Env = DatabaseBindings;

const notFound = () => new AppError("not_found", "No such site.");

/** Who an operator's audit rows name (actor_kind `system`). */
const OPERATOR_ACTOR = "operators";

function hostTaken(host: string, siteId?: string): AppError {
  return new AppError("host_taken", `The host "${host}" is already served${siteId ? " by another site" : ""}.`, siteId ? { host, site_id: siteId } : { host });
}

function auditRow(db: Kysely<Database>, siteId: string, action: string, at: string, details: Record<string, unknown>): CompiledQuery {
  return db
    .insertInto("audit_log")
    .values({ id: newId("aud"), site_id: siteId, at, actor_kind: "system", actor_id: OPERATOR_ACTOR, credential_id: null, action, target_kind: "site", target_id: siteId, details: JSON.stringify(details) })
    .compile();
}

/** A batch failure as the operator's refusal it stands for (a unique slug or host taken meanwhile). */
function directoryFailure(error: unknown, input: { hosts?: string[] }): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("sites.slug")) return new AppError("slug_taken", "Another site already uses this slug.");
  if (message.includes("site_hosts.host")) return hostTaken(input.hosts?.[0] ?? "", "?");
  return batchFailure(error);
}

async function commitDirectory(d1: D1Database, statements: CompiledQuery[], input: { hosts?: string[] }): Promise<void> {
  try {
    await commit(d1, statements);
  } catch (error) {
    throw directoryFailure(error, input);
  }
}

/** The site row of an id (`site_…`) or slug, or 404. */
export async function findOpsSite(env: Env, ref: string): Promise<SiteRow> {
  const db = createDb(env.DB);
  const row = await db
    .selectFrom("sites")
    .selectAll()
    .where(ref.startsWith("site_") ? "id" : "slug", "=", ref)
    // A site anchor on another database is never in the control database; be explicit anyway.
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

interface Figures {
  entries: Map<string, Record<string, number>>;
  media: Map<string, { files: number; bytes: number }>;
  members: Map<string, number>;
  lastWrite: Map<string, string>;
}

/**
 * The figures of some sites (or all): one grouped query per table per database, whatever the
 * number of sites. Content (entries, media) lives where each site's map points; audit rows live
 * with the change they record (content database or control database), so every database is asked.
 */
async function readFigures(env: Env, siteIds: string[] | "all"): Promise<Figures> {
  const figures: Figures = { entries: new Map(), media: new Map(), members: new Map(), lastWrite: new Map() };
  const filter = siteIds === "all" ? null : siteIds;
  if (filter !== null && filter.length === 0) return figures;
  const inSites = (column: string) => (filter === null ? "1 = 1" : `${column} IN (${filter.map(() => "?").join(", ")})`);
  const params = filter ?? [];
  const databases = new Map<D1Database, true>();
  for (const binding of SITE_DATABASE_BINDINGS) {
    const d1 = binding === DEFAULT_SITE_DATABASE ? env.DB : env[binding];
    if (d1) databases.set(d1, true);
  }
  for (const d1 of databases.keys()) {
    const [entries, media, audit] = await d1.batch<Record<string, unknown>>([
      d1
        .prepare(`SELECT site_id, CASE WHEN trashed_at IS NOT NULL THEN 'trashed' ELSE workflow_state END AS state, COUNT(*) AS n FROM entries WHERE ${inSites("site_id")} GROUP BY site_id, state`)
        .bind(...params),
      d1.prepare(`SELECT site_id, COUNT(*) AS files, COALESCE(SUM(byte_length), 0) AS bytes FROM media WHERE ${inSites("site_id")} GROUP BY site_id`).bind(...params),
      d1.prepare(`SELECT site_id, MAX(at) AS last FROM audit_log WHERE ${inSites("site_id")} GROUP BY site_id`).bind(...params),
    ]);
    for (const row of (entries?.results ?? []) as { site_id: string; state: string; n: number }[]) {
      const counts = figures.entries.get(row.site_id) ?? {};
      counts[row.state] = (counts[row.state] ?? 0) + row.n;
      figures.entries.set(row.site_id, counts);
    }
    for (const row of (media?.results ?? []) as { site_id: string; files: number; bytes: number }[]) {
      const known = figures.media.get(row.site_id) ?? { files: 0, bytes: 0 };
      figures.media.set(row.site_id, { files: known.files + row.files, bytes: known.bytes + row.bytes });
    }
    for (const row of (audit?.results ?? []) as { site_id: string; last: string | null }[]) {
      const known = figures.lastWrite.get(row.site_id);
      if (row.last !== null && (known === undefined || row.last > known)) figures.lastWrite.set(row.site_id, row.last);
    }
  }
  const members = await env.DB.prepare(
    `SELECT m.site_id AS site_id, COUNT(*) AS n FROM memberships m JOIN persons p ON p.id = m.person_id WHERE m.active = 1 AND p.active = 1 AND ${inSites("m.site_id")} GROUP BY m.site_id`,
  )
    .bind(...params)
    .all<{ site_id: string; n: number }>();
  for (const row of members.results) figures.members.set(row.site_id, row.n);
  return figures;
}

async function viewsOf(env: Env, rows: SiteRow[], siteIds: string[] | "all"): Promise<OpsSiteView[]> {
  const db = createDb(env.DB);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  // Every site: no id list (D1 binds at most 100 parameters a statement, and a fleet has more sites).
  const hostRows = db.selectFrom("site_hosts").select(["host", "site_id"]).orderBy("host");
  const bindingRows = db.selectFrom("site_databases").select(["site_id", "binding"]);
  const [hosts, bindings, figures] = await Promise.all([
    (siteIds === "all" ? hostRows : hostRows.where("site_id", "in", ids)).execute(),
    (siteIds === "all" ? bindingRows : bindingRows.where("site_id", "in", ids)).execute(),
    readFigures(env, siteIds),
  ]);
  return rows.map((row) => {
    const site = toSite(row);
    return {
      id: site.id,
      slug: site.slug,
      name: site.name,
      hosts: hosts.filter((h) => h.site_id === site.id).map((h) => h.host),
      languages: site.languages,
      default_lang: site.default_lang,
      database: bindings.find((b) => b.site_id === site.id)?.binding ?? DEFAULT_SITE_DATABASE,
      suspended: site.suspended_at !== null,
      suspended_at: site.suspended_at,
      created_at: row.created_at,
      figures: {
        entries: figures.entries.get(site.id) ?? {},
        media: figures.media.get(site.id) ?? { files: 0, bytes: 0 },
        members: figures.members.get(site.id) ?? 0,
        last_write_at: figures.lastWrite.get(site.id) ?? null,
      },
    };
  });
}

/** GET /api/ops/sites: every site, by slug. */
export async function listOpsSites(env: Env): Promise<OpsSiteView[]> {
  // Site anchors (shared/db/site-anchor.ts) live only on other databases: the control database's `sites` is the directory.
  const rows = await createDb(env.DB).selectFrom("sites").selectAll().orderBy("slug").execute();
  return viewsOf(env, rows, "all");
}

/** GET /api/ops/sites/{id}: one site by id or slug. */
export async function getOpsSite(env: Env, ref: string): Promise<OpsSiteView> {
  const row = await findOpsSite(env, ref);
  const [view] = await viewsOf(env, [row], [row.id]);
  if (!view) throw notFound();
  return view;
}

/**
 * POST /api/ops/sites. Refusals before anything is written: an unknown database binding (422
 * `unknown_database`), a slug another site uses (409 `slug_taken`), a host another site serves or
 * the admin host (409 `host_taken`). Then one control-database batch writes the site, its hosts,
 * its database map row, the four seeded roles, an audit row and `extra` (the idempotency answer);
 * a site on another database gets its foreign-key anchor there first (harmless if the batch fails).
 */
export async function createOpsSite(
  env: Env & { ADMIN_HOST?: string },
  clock: Clock,
  input: CreateSiteInput,
  extra: (view: OpsSiteView) => CompiledQuery[],
): Promise<OpsSiteView> {
  const db = createDb(env.DB);
  const hosts = [...new Set(input.hosts)];
  const languages = [...new Set([input.default_lang, ...input.languages])];
  if (input.database !== undefined && !isSiteDatabaseBinding(input.database)) {
    throw new AppError("unknown_database", `No site database is bound as "${input.database}".`, { binding: input.database });
  }
  await refuseTakenHosts(env, hosts);
  if (await db.selectFrom("sites").select("id").where("slug", "=", input.slug).executeTakeFirst()) throw new AppError("slug_taken", "Another site already uses this slug.", { slug: input.slug });
  const now = clock.now();
  const at = isoAt(now);
  const database = input.database ?? DEFAULT_SITE_DATABASE;
  const provisioned = provisionSite(db, { slug: input.slug, name: input.name, default_lang: input.default_lang, languages, hosts, database }, at);
  const view: OpsSiteView = {
    id: provisioned.siteId,
    slug: input.slug,
    name: input.name,
    hosts: [...hosts].sort(),
    languages,
    default_lang: input.default_lang,
    database,
    suspended: false,
    suspended_at: null,
    created_at: at,
    figures: { entries: {}, media: { files: 0, bytes: 0 }, members: 0, last_write_at: at },
  };
  if (provisioned.siteStatements.length > 0) await commit(databaseByBinding(env, database, provisioned.siteId), provisioned.siteStatements);
  await commitDirectory(env.DB, [...provisioned.statements, auditRow(db, provisioned.siteId, "site.create", at, { slug: input.slug, hosts, languages, database }), ...extra(view)], { hosts });
  return view;
}

async function refuseTakenHosts(env: Env & { ADMIN_HOST?: string }, hosts: string[]): Promise<void> {
  const admin = normaliseHost(env.ADMIN_HOST ?? null);
  for (const host of hosts) if (host === admin) throw new AppError("host_taken", `The host "${host}" is the admin host.`, { host });
  const taken = await createDb(env.DB).selectFrom("site_hosts").select(["host", "site_id"]).where("host", "in", hosts).executeTakeFirst();
  if (taken) throw hostTaken(taken.host, taken.site_id);
}

/** POST /api/ops/sites/{id}/hosts: one more host (409 `host_taken` when any site serves it already, this one included). */
export async function addOpsSiteHost(env: Env & { ADMIN_HOST?: string }, clock: Clock, ref: string, host: string, extra: (view: OpsSiteView) => CompiledQuery[]): Promise<OpsSiteView> {
  const before = await getOpsSite(env, ref);
  await refuseTakenHosts(env, [host]);
  const db = createDb(env.DB);
  const at = isoAt(clock.now());
  const view: OpsSiteView = { ...before, hosts: [...before.hosts, host].sort(), figures: { ...before.figures, last_write_at: at } };
  await commitDirectory(env.DB, [db.insertInto("site_hosts").values({ host, site_id: before.id }).compile(), auditRow(db, before.id, "site.host_add", at, { host }), ...extra(view)], { hosts: [host] });
  return view;
}

/**
 * DELETE /api/ops/sites/{id}/hosts/{host}: 404 when the site does not serve the host; 409
 * `last_host` for its only host (a guard in the batch keeps that true under concurrent removals).
 */
export async function removeOpsSiteHost(env: Env, clock: Clock, ref: string, host: string, extra: (view: OpsSiteView) => CompiledQuery[]): Promise<OpsSiteView> {
  const before = await getOpsSite(env, ref);
  if (!before.hosts.includes(host)) throw new AppError("not_found", "The site is not served on this host.", { host });
  if (before.hosts.length <= 1) throw new AppError("last_host", "A site keeps at least one host; add another before removing this one.", { host });
  const db = createDb(env.DB);
  const at = isoAt(clock.now());
  const view: OpsSiteView = { ...before, hosts: before.hosts.filter((h) => h !== host), figures: { ...before.figures, last_write_at: at } };
  await commitDirectory(
    env.DB,
    [
      guard(db, "last_host", "(SELECT COUNT(*) FROM site_hosts WHERE site_id = ?) > 1", [before.id]),
      db.deleteFrom("site_hosts").where("host", "=", host).where("site_id", "=", before.id).compile(),
      auditRow(db, before.id, "site.host_remove", at, { host }),
      ...extra(view),
    ],
    {},
  );
  return view;
}

/**
 * POST /api/ops/sites/{id}/suspend and /resume: sets or clears `suspended_at`; suspending a
 * suspended site (or resuming an active one) answers the site as it is and writes only the answer.
 */
export async function setOpsSiteSuspended(env: Env, clock: Clock, ref: string, suspended: boolean, extra: (view: OpsSiteView) => CompiledQuery[]): Promise<OpsSiteView> {
  const before = await getOpsSite(env, ref);
  if (before.suspended === suspended) {
    const statements = extra(before);
    if (statements.length > 0) await commit(env.DB, statements);
    return before;
  }
  const db = createDb(env.DB);
  const at = isoAt(clock.now());
  const suspendedAt = suspended ? at : null;
  const view: OpsSiteView = { ...before, suspended, suspended_at: suspendedAt, figures: { ...before.figures, last_write_at: at } };
  await commitDirectory(
    env.DB,
    [
      db.updateTable("sites").set({ suspended_at: suspendedAt, updated_at: at }).where("id", "=", before.id).compile(),
      auditRow(db, before.id, suspended ? "site.suspend" : "site.resume", at, {}),
      ...extra(view),
    ],
    {},
  );
  return view;
}

/**
 * POST /api/ops/sites/{id}/invitations: the People invitation (shared/services/people/invitations.ts)
 * to the site's seeded administrator role (`admin`), made by the operators (`invited_by` =
 * OPERATOR_INVITER): same link, same seven days, same acceptance; a pending invitation of the same
 * email is replaced. A suspended site is refused (403 `site_suspended`).
 */
export async function inviteOpsSiteAdministrator(env: Env, clock: Clock, ref: string, email: string, adminOrigin: string): Promise<CreatedInvitation> {
  const row = await findOpsSite(env, ref);
  const site = toSite(row);
  if (site.suspended_at !== null) throw new AppError("site_suspended", "This site is suspended; resume it before inviting anyone.");
  const control = createDb(env.DB);
  const role = await control.selectFrom("roles").select(["id", "permissions"]).where("site_id", "=", site.id).where("slug", "=", "admin").where("seeded", "=", 1).executeTakeFirst();
  if (!role) throw new AppError("unknown_role", "This site has no seeded administrator role.");
  const d1 = await siteScopedDatabase(env, site.id);
  return createInvitation(
    { db: createDb(d1), d1, scope: siteScope(site.id), site, clock, actor: { kind: "system", id: OPERATOR_INVITER, permissions: storedSet(role.permissions) } },
    { email, role_id: role.id },
    adminOrigin,
  );
}
