/**
 * The worker side of the write figures of `npm run bench` (issue #14; the Node side is
 * write-figures.mjs). Routes on `primitive.bench`:
 *
 *   POST /do_write?object=          primitive: the request body INSERTed into a bench-only Durable
 *                                   Object's SQLite (one `sql.exec`), a real DO round trip (`object`
 *                                   picks one of several objects, default 0)
 *   POST /d1_batch?n=               primitive: one D1 batch of n INSERTs (the first carries the body)
 *   POST /_bench/write/setup        site `write-<index>.bench.localhost` (article model, admin person,
 *                                   management credential) and the D1 primitive's table
 *   POST /_bench/write/plugins      bench plugins installed on a site, each with a manage-view launch code
 *   GET|POST /_bench/write/counters D1 calls, statements, batches, rows read and written (D1 result
 *                                   `meta`), Durable Object calls and queue sends since the last reset
 *
 * Counting: bench-worker.ts hands the real worker and the real SiteObject an env whose `DB`, `SITE`
 * and `EVENTS` go through `countingEnv` (one wrapper per binding, kept, so per-isolate caches keyed
 * by the binding still hit). Counters are module state: the worker and the site objects run in the
 * same workerd isolate on Miniflare, so one read sees both sides (checked by the bench: a create must
 * show its batch on the object side). Totals over a figure ÷ operations = the cost per operation.
 */
import { DurableObject } from "cloudflare:workers";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { isoAt, systemClock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { findSiteById } from "../../shared/repositories/site-repository";
import { commitPlan, type LifecycleContext } from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { createModel } from "../../shared/services/models/create-model";
import { createLaunch } from "../../shared/services/plugins/launches";
import { grantInstallation, installPlugin, transitionInstallation } from "../../shared/services/plugins/installations";
import { grantMembership, provisionPerson, provisionSite } from "../../shared/services/sites/provision";
import { notePhase } from "../../shared/observability/write-phases";
import { isTracing, phaseLabel, type Side } from "./write-tracer";

// ── Counters ────────────────────────────────────────────────────────────────────────────────

interface SideCounts {
  d1_calls: number;
  d1_batches: number;
  d1_statements: number;
  rows_read: number;
  rows_written: number;
  do_calls: number;
  queue_sends: number;
}

const zero = (): SideCounts => ({ d1_calls: 0, d1_batches: 0, d1_statements: 0, rows_read: 0, rows_written: 0, do_calls: 0, queue_sends: 0 });
interface QueryCounts {
  side: Side;
  calls: number;
  rows_read: number;
  rows_written: number;
}
type Counts = Record<Side, SideCounts> & { batch_sizes: number[]; queries: Record<string, QueryCounts> };
let counts: Counts = { worker: zero(), object: zero(), batch_sizes: [], queries: {} };

export function readCounters() {
  return counts;
}
export function resetCounters() {
  counts = { worker: zero(), object: zero(), batch_sizes: [], queries: {} };
  return counts;
}

/**
 * A query's line: its SQL's first 160 characters, white space folded. Kept by SQL text, so the
 * counting costs the runtime a map look-up per statement, not a regular-expression pass over SQL
 * of up to kilobytes: the count is the same, the CPU per write it adds (measured by the same
 * runtime, docs/benchmarks.md "Fair writes") is less.
 */
const queryLines = new Map<string, string>();
function queryLine(sql: string): string {
  let line = queryLines.get(sql);
  if (line === undefined) {
    line = sql.replace(/\s+/g, " ").slice(0, 160);
    if (queryLines.size < 10_000) queryLines.set(sql, line);
  }
  return line;
}

/** Adds a query's meta to its side and to the query's own line (by its SQL's first 160 characters). */
function noteMeta(side: Side, meta: { rows_read?: number; rows_written?: number } | undefined, sql: string | undefined): void {
  counts[side].rows_read += meta?.rows_read ?? 0;
  counts[side].rows_written += meta?.rows_written ?? 0;
  const key = `${side}: ${queryLine(sql ?? "?")}`;
  const q = (counts.queries[key] ??= { side, calls: 0, rows_read: 0, rows_written: 0 });
  q.calls += 1;
  q.rows_read += meta?.rows_read ?? 0;
  q.rows_written += meta?.rows_written ?? 0;
}

/** A D1 binding that counts every query's meta; statements keep their real object for `batch`. */
function countingD1(d1: D1Database, side: Side): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const wrap = (s: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const w = {
      bind: (...values: unknown[]) => wrap(s.bind(...values), sql),
      async first(column?: string) {
        // first() carries no meta: read it through all(), which does.
        const r = await s.all<Record<string, unknown>>();
        notePhase(`${side} d1 ${phaseLabel(sql)}`);
        counts[side].d1_calls += 1;
        noteMeta(side, r.meta, sql);
        const row = r.results[0] ?? null;
        return column === undefined ? row : (row?.[column] ?? null);
      },
      async all() {
        const r = await s.all();
        notePhase(`${side} d1 ${phaseLabel(sql)}`);
        counts[side].d1_calls += 1;
        noteMeta(side, r.meta, sql);
        return r;
      },
      async run() {
        const r = await s.run();
        notePhase(`${side} d1 ${phaseLabel(sql)}`);
        counts[side].d1_calls += 1;
        noteMeta(side, r.meta, sql);
        return r;
      },
      async raw(options?: { columnNames?: boolean }) {
        counts[side].d1_calls += 1; // raw() carries no meta; nothing in the product calls it
        return s.raw(options as { columnNames: true });
      },
    };
    real.set(w, s);
    sqlOf.set(w, sql);
    return w as unknown as D1PreparedStatement;
  };
  const wrapped = {
    prepare: (query: string) => wrap(d1.prepare(query), query),
    async batch(statements: D1PreparedStatement[]) {
      notePhase(`${side} d1 batch sent (${statements.length})`);
      const results = await d1.batch(statements.map((s) => real.get(s) ?? s));
      notePhase(`${side} d1 batch done (${statements.length})`);
      counts[side].d1_calls += 1;
      counts[side].d1_batches += 1;
      counts[side].d1_statements += statements.length;
      counts.batch_sizes.push(statements.length);
      results.forEach((r, i) => noteMeta(side, r.meta, `[batch] ${sqlOf.get(statements[i] as object) ?? "?"}`));
      return results;
    },
    exec: (query: string) => d1.exec(query),
    dump: () => (d1 as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
    withSession: (...args: unknown[]) => (d1 as unknown as { withSession(...a: unknown[]): unknown }).withSession(...args),
  };
  return wrapped as unknown as D1Database;
}

/** A stub whose method calls count as Durable Object requests. */
function countingStub<T extends object>(stub: T, side: Side): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof property === "symbol" || property === "then" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        counts[side].do_calls += 1;
        // Reflect.apply: `value.apply` on an RPC method would be a remote property of that name.
        if (!isTracing()) return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        notePhase(`${side} object ${property} sent`);
        return Promise.resolve(Reflect.apply(value as (...a: unknown[]) => unknown, target, args)).finally(() => notePhase(`${side} object ${property} answered`));
      };
    },
  });
}

function countingNamespace(ns: DurableObjectNamespace, side: Side): DurableObjectNamespace {
  return new Proxy(ns, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getByName") {
        return (...args: unknown[]) => countingStub(Reflect.apply(value as (...a: unknown[]) => object, target, args), side);
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

function countingQueue(queue: Queue, side: Side): Queue {
  return {
    send: (...args: Parameters<Queue["send"]>) => {
      counts[side].queue_sends += 1;
      return queue.send(...args);
    },
    sendBatch: (...args: Parameters<Queue["sendBatch"]>) => {
      counts[side].queue_sends += 1;
      if (!isTracing()) return queue.sendBatch(...args);
      notePhase(`${side} queue sendBatch sent`);
      return queue.sendBatch(...args).finally(() => notePhase(`${side} queue sendBatch answered`));
    },
  } as Queue;
}

let counting = false;

/** Counting is switched on by the write figures' set-up, so the read figures run the worker as it is. */
export function startCounting(): void {
  counting = true;
}

/** The env the bench worker hands the real worker: counted once the write figures started. */
export function workerEnv(env: Env): Env {
  return counting ? countingEnv(env, "worker") : env;
}

const envs = { worker: new WeakMap<object, Env>(), object: new WeakMap<object, Env>() };

/** The same env with counted D1, Durable Object and queue bindings; one wrapper per binding and side. */
export function countingEnv(env: Env, side: Side): Env {
  const known = envs[side].get(env.DB);
  if (known) return known;
  const wrapped: Env = {
    ...env,
    DB: countingD1(env.DB, side),
    SITE: countingNamespace(env.SITE as unknown as DurableObjectNamespace, side) as unknown as Env["SITE"],
    ...(env.EVENTS ? { EVENTS: countingQueue(env.EVENTS as unknown as Queue, side) as unknown as Env["EVENTS"] } : {}),
  };
  envs[side].set(env.DB, wrapped);
  return wrapped;
}

// ── Primitives ───────────────────────────────────────────────────────────────────────────────

/** Bench-only: a Durable Object whose one method is one SQLite INSERT. */
export class BenchWriteObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS bench_writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }
  write(body: string): number {
    this.ctx.storage.sql.exec("INSERT INTO bench_writes (body) VALUES (?)", body);
    return body.length;
  }
}

interface BenchBindings {
  BENCH_WRITE?: DurableObjectNamespace<BenchWriteObject>;
}

export async function doWrite(env: Env, request: Request): Promise<Response> {
  const ns = (env as unknown as BenchBindings).BENCH_WRITE;
  if (!ns) return new Response("BENCH_WRITE is not bound\n", { status: 503 });
  // ?object=<k> spreads the primitive over several objects (the many-writers comparison).
  const object = new URL(request.url).searchParams.get("object") ?? "0";
  const written = await ns.getByName(object === "0" ? "primitive" : `primitive-${object}`).write(await request.text());
  return Response.json({ written });
}

export async function d1Batch(env: Env, request: Request, url: URL): Promise<Response> {
  const n = Math.max(1, Math.min(100, Number(url.searchParams.get("n") ?? "1") || 1));
  const body = await request.text();
  const id = crypto.randomUUID();
  const statements = Array.from({ length: n }, (_, i) =>
    env.DB.prepare("INSERT INTO bench_d1_writes (id, seq, body) VALUES (?, ?, ?)").bind(id, i, i === 0 ? body : `statement ${i}`),
  );
  await env.DB.batch(statements);
  return Response.json({ statements: n });
}

// ── Set-up ───────────────────────────────────────────────────────────────────────────────────

const ARTICLE_FIELDS = [
  { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 200 } },
  { key: "summary", label: "Summary", type: "long_text" },
  { key: "body", label: "Body", type: "rich_text" },
  { key: "published_date", label: "Published date", type: "date" },
  { key: "internal_note", label: "Internal note", type: "text", private: true },
];

export interface WriteSite {
  host: string;
  site_id: string;
  person_id: string;
  model_id: string;
  token: string;
}

export interface WritePlugin {
  token: string;
  code: string;
}

async function adminContext(d1: D1Database, siteId: string, personId: string): Promise<LifecycleContext> {
  const db = createDb(d1);
  const site = await findSiteById(db, siteId);
  if (!site) throw new Error("bench site missing");
  const admin = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!admin) throw new Error("no seeded admin role");
  return { db, d1, scope: siteScope(site.id), site, actor: { kind: "person", id: personId, permissions: structuredClone(admin.permissions) }, clock: systemClock };
}

/** Site write-<index> with an article model, an admin person and a management credential; the D1 primitive's table. */
export async function setupWriteSite(env: Env, index: number): Promise<WriteSite> {
  startCounting();
  await env.DB.prepare("CREATE TABLE IF NOT EXISTS bench_d1_writes (id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (id, seq))").run();
  const db = createDb(env.DB);
  const at = isoAt(systemClock.now());
  const host = `write-${index}.bench.localhost`;
  const provisioned = provisionSite(db, { slug: `write-${index}`, name: `Write bench ${index}`, default_lang: "en", languages: ["en"], hosts: [host] }, at);
  const person = await provisionPerson(db, { email: `writer@write-${index}.bench.localhost`, name: `Writer ${index}`, password: "bench-only-password" }, at);
  const adminRole = provisioned.roleIds.admin;
  if (!adminRole) throw new Error("provisionSite made no admin role");
  await commit(env.DB, [...provisioned.statements, ...person.statements, grantMembership(db, provisioned.siteId, person.personId, adminRole, at)]);
  const ctx = await adminContext(env.DB, provisioned.siteId, person.personId);
  const model = (await commitPlan(ctx, await createModel(ctx, { slug: "article", name: "Article", fields: ARTICLE_FIELDS } as never))).answer;
  const credential = await createManagementCredential(ctx, { name: "Bench: writes", scopes: ["content:read", "content:write", "lifecycle:publish"] });
  return { host, site_id: provisioned.siteId, person_id: person.personId, model_id: model.id, token: credential.token };
}

/** `count` bench plugins (ids bench-<from>…) installed, granted the article model, activated, each with a manage-view launch code. */
export async function installWritePlugins(env: Env, site: WriteSite, from: number, count: number): Promise<WritePlugin[]> {
  const ctx = await adminContext(env.DB, site.site_id, site.person_id);
  const plugins: WritePlugin[] = [];
  for (let p = from; p < from + count; p++) {
    const manifest = {
      id: `bench-${p}`,
      name: `Bench plugin ${p}`,
      version: "1.0.0",
      endpoint: "https://plugins.example.test/plugin",
      capabilities: ["content:read", "workflow:read", "workflow:publish"],
      manage_views: [{ id: "dashboard", label: "Dashboard", path: "/views/dashboard" }],
    };
    const installed = await installPlugin(ctx, JSON.stringify(manifest));
    await grantInstallation(ctx, installed.installation.id, { capabilities: ["content:read", "workflow:read", "workflow:publish"], model_ids: [site.model_id] });
    await transitionInstallation(ctx, installed.installation.id, "activate");
    const launch = await createLaunch(ctx, { credential: null }, { plugin: installed.installation.id, kind: "manage_view", target: "dashboard" });
    const code = new URL(launch.url).searchParams.get("code");
    if (!code) throw new Error("the launch url carries no code");
    plugins.push({ token: installed.token, code });
  }
  return plugins;
}

// ── The publish's dependents query (shared/services/lifecycle/snapshot.ts, rebuildDependents) ──

/** The query before the fix of 2026-11-23: entries joined by the published version alone (no index applies). */
const DEPENDENTS_BEFORE = `SELECT DISTINCT entries.*, published_items.sort_at AS sort_at FROM relation_links
  INNER JOIN entries ON entries.published_version_id = relation_links.version_id AND entries.site_id = relation_links.site_id
  INNER JOIN published_items ON published_items.instance_id = entries.instance_id AND published_items.site_id = entries.site_id
  WHERE relation_links.site_id = ? AND relation_links.target_group_id = ?`;
/** As the lifecycle runs it now — the same rows: a link's version belongs to its source instance, so entries join by primary key. */
const DEPENDENTS_BY_SOURCE = `SELECT DISTINCT entries.*, published_items.sort_at AS sort_at FROM relation_links
  INNER JOIN entries ON entries.instance_id = relation_links.source_instance_id AND entries.published_version_id = relation_links.version_id AND entries.site_id = relation_links.site_id
  INNER JOIN published_items ON published_items.instance_id = entries.instance_id AND published_items.site_id = entries.site_id
  WHERE relation_links.site_id = ? AND relation_links.target_group_id = ?`;

/**
 * Rows read by the dependents query before the fix and as the lifecycle runs it now (entries joined
 * by the link's source instance), for a group of the site on `host`; both must answer the same rows.
 */
export async function dependentsQueryRows(
  env: Env,
  host: string,
): Promise<{ entries: number; group_id: string; now: { rows: number; rows_read: number }; by_source: { rows: number; rows_read: number } } | { missing: true }> {
  const site = await env.DB.prepare("SELECT site_id FROM site_hosts WHERE host = ?").bind(host).first<{ site_id: string }>();
  if (!site) return { missing: true };
  const siteId = site.site_id;
  // The most linked-to group when the site has relations (so the query has rows to find), else any published one.
  const group =
    (await env.DB.prepare("SELECT target_group_id AS g FROM relation_links WHERE site_id = ? GROUP BY target_group_id ORDER BY count(*) DESC LIMIT 1").bind(siteId).first<{ g: string }>()) ??
    (await env.DB.prepare("SELECT translation_group_id AS g FROM published_items WHERE site_id = ? LIMIT 1").bind(siteId).first<{ g: string }>());
  if (!group) throw new Error("no published item on the site");
  const entries = (await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? 0;
  const run = async (sql: string) => {
    const r = await env.DB.prepare(sql).bind(siteId, group.g).all();
    return { rows: r.results.length, rows_read: r.meta.rows_read ?? 0, ids: r.results.map((x) => String((x as { instance_id: string }).instance_id)).sort().join(",") };
  };
  const now = await run(DEPENDENTS_BEFORE);
  const bySource = await run(DEPENDENTS_BY_SOURCE);
  if (now.ids !== bySource.ids) throw new Error("the rewritten dependents query answers other rows");
  return { entries, group_id: group.g, now: { rows: now.rows, rows_read: now.rows_read }, by_source: { rows: bySource.rows, rows_read: bySource.rows_read } };
}
