import { configCacheMs, TtlCache } from "../public/config-cache";
import { RoutedD1 } from "./routed-d1";

/**
 * Every D1 binding that may hold sites' content, listed once (docs/scale.md, "More than one
 * database"). `DB` is also the control database (the directory). Adding a database: a binding in
 * wrangler.jsonc, its name here and in `Env`, then the migrations applied to it.
 */
export const SITE_DATABASE_BINDINGS = ["DB", "DB_2"] as const;
export type SiteDatabaseBinding = (typeof SITE_DATABASE_BINDINGS)[number];

/** The binding of a site without a row in `site_databases`: every site made before the map. */
export const DEFAULT_SITE_DATABASE: SiteDatabaseBinding = "DB";

export type DatabaseBindings = { [K in SiteDatabaseBinding]?: D1Database } & { DB: D1Database; CONFIG_CACHE_MS?: string };

/** Whether a name is one of the bindings this code knows (the move's input check). */
export function isSiteDatabaseBinding(name: string): name is SiteDatabaseBinding {
  return (SITE_DATABASE_BINDINGS as readonly string[]).includes(name);
}

/** The map row names a binding this deployment does not have: a configuration fault, never a fallback. */
export class SiteDatabaseMisconfigured extends Error {
  constructor(siteId: string, binding: string) {
    super(`Site ${siteId} is mapped to database binding "${binding}", which this deployment does not bind.`);
    this.name = "SiteDatabaseMisconfigured";
  }
}

/** The control database: the directory (sites, hosts, the site map, persons, credentials, …). */
export function controlDatabase(env: { DB: D1Database }): D1Database {
  return env.DB;
}

/** The D1 binding behind a name; throws SiteDatabaseMisconfigured when it is not bound. */
export function databaseByBinding(env: DatabaseBindings, binding: string, siteId = "?"): D1Database {
  const db = isSiteDatabaseBinding(binding) ? env[binding] : undefined;
  if (!db) throw new SiteDatabaseMisconfigured(siteId, binding);
  return db;
}

/**
 * Per-isolate cache of the map (site id → binding name), like the site and model caches: entries
 * live CONFIG_CACHE_MS (default 5 s; tests 0), at most 1,000 sites. A move flips the row, then waits
 * that long before deleting the source rows, so a reader holding the old answer still finds them.
 */
const bindings = new TtlCache<string>("site databases");

/** The binding name a site's content lives in (the map row, else `DB`). */
export function siteDatabaseBinding(env: DatabaseBindings, siteId: string): Promise<string> {
  return bindings.get(siteId, configCacheMs(env), Date.now(), async () => {
    const row = await controlDatabase(env).prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(siteId).first<{ binding: string }>();
    return row?.binding ?? DEFAULT_SITE_DATABASE;
  });
}

/** Forgets this isolate's cached map (the site's object calls it after it moved a site). */
export function forgetSiteDatabases(): void {
  bindings.clear();
}

/** The D1 database holding a site's content. */
export async function siteDatabase(env: DatabaseBindings, siteId: string): Promise<D1Database> {
  return databaseByBinding(env, await siteDatabaseBinding(env, siteId), siteId);
}

const routed = new WeakMap<D1Database, RoutedD1>();

/**
 * One handle for everything a request about a site reads and writes: the control database itself
 * when the site lives there (every statement as before), else a RoutedD1 sending each statement to
 * the database holding its tables. One instance per database per isolate, so `createDb` keeps one
 * kysely client for it.
 */
export async function siteScopedDatabase(env: DatabaseBindings, siteId: string): Promise<D1Database> {
  const site = await siteDatabase(env, siteId);
  return scopedOver(controlDatabase(env), site);
}

/** The handle over a known pair (control, site); the same object for the same site database. */
export function scopedOver(control: D1Database, site: D1Database): D1Database {
  if (site === control) return control;
  let handle = routed.get(site);
  if (!handle || handle.control !== control) {
    handle = new RoutedD1(control, site);
    routed.set(site, handle);
  }
  return handle as unknown as D1Database;
}

/**
 * The databases where a site's write records (audit, outbox, idempotency answers) can be: its own,
 * and the control database for directory changes when the site lives elsewhere (shared/db/tables.ts).
 */
export async function recordDatabases(env: DatabaseBindings, siteId: string): Promise<D1Database[]> {
  const site = await siteDatabase(env, siteId);
  const control = controlDatabase(env);
  return site === control ? [site] : [site, control];
}
