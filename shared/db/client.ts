import { Kysely } from "kysely";
import { D1Dialect } from "kysely-d1";
import type { Database } from "./database";

const clients = new WeakMap<D1Database, Kysely<Database>>();

/** A kysely client over a D1 binding; one per binding per isolate. */
export function createDb(d1: D1Database): Kysely<Database> {
  let db = clients.get(d1);
  if (!db) {
    db = new Kysely<Database>({ dialect: new D1Dialect({ database: d1 }) });
    clients.set(d1, db);
  }
  return db;
}

/** Where a site's content lives. Today every site shares `DB`; a later shard map changes only this. */
export function siteDatabase(env: { DB: D1Database }, _siteId: string): D1Database {
  return env.DB;
}
