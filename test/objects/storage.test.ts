import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SITE_OBJECT_MIGRATIONS } from "../../objects/site/migrations";
import { migrate, migrateStorage, schemaVersion } from "../../objects/site/storage";

function tables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name")
    .toArray()
    .map((row) => row.name);
}

// SiteObject migrates in its constructor, so each test first wipes the object's storage
// (deleteAll drops SQL tables too in a SQLite-backed object) to start from a blank database.
function inBlankStorage(name: string, callback: (storage: DurableObjectStorage) => void): Promise<void> {
  return runInDurableObject(env.SITE.getByName(name), async (_instance, state) => {
    await state.storage.deleteAll();
    expect(tables(state.storage.sql)).toEqual([]);
    callback(state.storage);
  });
}

describe("migrate", () => {
  it("loads the .sql migration as text through the wrangler Text rule", () => {
    const first = SITE_OBJECT_MIGRATIONS[0];
    expect(first?.version).toBe(1);
    expect(typeof first?.sql).toBe("string");
    expect(first?.sql).toContain("CREATE TABLE ledger_claims");
  });

  it("applies every step once and is idempotent", async () => {
    await inBlankStorage("test-migrate-idempotent", (storage) => {
      const sql = storage.sql;
      expect(schemaVersion(sql)).toBe(0);
      expect(migrateStorage(storage, SITE_OBJECT_MIGRATIONS)).toEqual({ from: 0, to: 5, applied: [1, 2, 3, 4, 5] });
      expect(tables(sql)).toEqual(["lease_leases", "lease_lost", "ledger_claims", "limit_windows", "media_cleanup", "schema_version", "site_identity", "upload_objects"]);
      expect(migrateStorage(storage, SITE_OBJECT_MIGRATIONS)).toEqual({ from: 5, to: 5, applied: [] });
      expect(migrate(sql, SITE_OBJECT_MIGRATIONS)).toEqual({ from: 5, to: 5, applied: [] });
      expect(sql.exec("SELECT version FROM schema_version ORDER BY version").toArray()).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }]);
      expect(schemaVersion(sql)).toBe(5);
    });
  });

  it("applies only the new steps, in order", async () => {
    await inBlankStorage("test-migrate-steps", (storage) => {
      const steps = [
        { version: 1, sql: "CREATE TABLE t_a (x INTEGER);" },
        { version: 2, sql: "ALTER TABLE t_a ADD COLUMN y INTEGER; CREATE TABLE t_b (z TEXT);" },
      ];
      expect(migrateStorage(storage, steps.slice(0, 1))).toEqual({ from: 0, to: 1, applied: [1] });
      expect(migrateStorage(storage, steps)).toEqual({ from: 1, to: 2, applied: [2] });
      storage.sql.exec("INSERT INTO t_a (x, y) VALUES (1, 2)");
      expect(tables(storage.sql)).toEqual(["schema_version", "t_a", "t_b"]);
    });
  });

  it("applies a step numbered below one already applied when its own version is not recorded (numbers handed out per slice)", async () => {
    await inBlankStorage("test-migrate-gap", (storage) => {
      const steps = [
        { version: 1, sql: "CREATE TABLE t_a (x INTEGER);" },
        { version: 3, sql: "CREATE TABLE t_c (x INTEGER);" },
        { version: 4, sql: "CREATE TABLE t_d (x INTEGER);" },
      ];
      expect(migrateStorage(storage, [steps[0]!, steps[2]!])).toEqual({ from: 0, to: 4, applied: [1, 4] });
      expect(migrateStorage(storage, steps)).toEqual({ from: 4, to: 4, applied: [3] });
      expect(tables(storage.sql)).toEqual(["schema_version", "t_a", "t_c", "t_d"]);
      expect(migrateStorage(storage, steps)).toEqual({ from: 4, to: 4, applied: [] });
    });
  });

  it("rolls a failing step back with its version row when run through migrateStorage", async () => {
    await inBlankStorage("test-migrate-failure", (storage) => {
      const steps = [
        { version: 1, sql: "CREATE TABLE t_ok (x INTEGER);" },
        { version: 2, sql: "CREATE TABLE t_half (x INTEGER); SELECT * FROM no_such_table;" },
      ];
      expect(() => migrateStorage(storage, steps)).toThrow(/no_such_table/);
      expect(schemaVersion(storage.sql)).toBe(0);
      expect(tables(storage.sql)).toEqual([]);
    });
  });

  it("refuses a mis-ordered list before touching storage", async () => {
    await inBlankStorage("test-migrate-order", (storage) => {
      const steps = [
        { version: 2, sql: "CREATE TABLE t_a (x INTEGER);" },
        { version: 1, sql: "CREATE TABLE t_b (x INTEGER);" },
      ];
      expect(() => migrate(storage.sql, steps)).toThrow(RangeError);
      expect(tables(storage.sql)).toEqual([]);
    });
  });

  it("platform: SQLite in a Durable Object refuses explicit SAVEPOINT/BEGIN", async () => {
    await runInDurableObject(env.SITE.getByName("test-migrate-platform"), (_instance, state) => {
      expect(() => state.storage.sql.exec("SAVEPOINT s1")).toThrow();
      expect(() => state.storage.sql.exec("BEGIN")).toThrow();
    });
  });
});
