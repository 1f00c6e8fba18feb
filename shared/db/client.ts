import { Kysely, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from "kysely";
import { D1Dialect } from "kysely-d1";
import type { Database } from "./database";

/**
 * kysely-d1 0.4 still reports `numUpdatedOrDeletedRows`, which makes kysely log an "outdated driver"
 * warning on every isolate; this wraps its connections to report `numAffectedRows` instead.
 */
class D1CurrentDialect extends D1Dialect {
  override createDriver(): Driver {
    const inner = super.createDriver();
    const wrap = (connection: DatabaseConnection): DatabaseConnection => ({
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const result = (await connection.executeQuery<R>(query)) as QueryResult<R> & { numUpdatedOrDeletedRows?: bigint };
        const { numUpdatedOrDeletedRows, ...rest } = result;
        return numUpdatedOrDeletedRows === undefined ? rest : { ...rest, numAffectedRows: rest.numAffectedRows ?? numUpdatedOrDeletedRows };
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    });
    const connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const unwrap = (c: DatabaseConnection) => connections.get(c) ?? c;
    return {
      init: () => inner.init(),
      async acquireConnection() {
        const connection = await inner.acquireConnection();
        const wrapped = wrap(connection);
        connections.set(wrapped, connection);
        return wrapped;
      },
      beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) => inner.beginTransaction(unwrap(c), settings),
      commitTransaction: (c: DatabaseConnection) => inner.commitTransaction(unwrap(c)),
      rollbackTransaction: (c: DatabaseConnection) => inner.rollbackTransaction(unwrap(c)),
      releaseConnection: (c: DatabaseConnection) => inner.releaseConnection(unwrap(c)),
      destroy: () => inner.destroy(),
    };
  }
}

const clients = new WeakMap<D1Database, Kysely<Database>>();

/** A kysely client over a D1 binding; one per binding per isolate. */
export function createDb(d1: D1Database): Kysely<Database> {
  let db = clients.get(d1);
  if (!db) {
    db = new Kysely<Database>({ dialect: new D1CurrentDialect({ database: d1 }) });
    clients.set(d1, db);
  }
  return db;
}
