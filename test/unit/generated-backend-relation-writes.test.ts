/**
 * The generated backend's relation writes without a batch runner (spec 3: 503
 * relation_writes_unavailable): the emitted router (backend-template/src/runtime/router.ts) called
 * with a Request, as the worker and the local server call it, but embedded without `batch`. The
 * refusal comes before any database read, so the database is a stub that fails if touched.
 * The rules with a runner are tested on both runtimes by test/node/generated-backend/relations.mjs.
 * Also: an operation override of create (runtime/overrides.ts) turning with-relations into 501
 * atomic_create_unavailable, and the start-time check of src/overrides.ts.
 */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import { checkOverrides } from "../../backend-template/src/runtime/overrides";
import { handle, type Backend } from "../../backend-template/src/runtime/router";
import type { SiteSchema } from "../../backend-template/src/runtime/schema-types";

const schema: SiteSchema = {
  site: { id: "site1", slug: "demo", name: "Demo", languages: ["en"] },
  models: [
    {
      api: "shelf",
      pascal: "Shelf",
      columns: [
        { name: "id", type: "text", nullable: false, unique: true, private: false },
        { name: "name", type: "text", nullable: true, unique: false, private: false },
        { name: "created_at", type: "text", nullable: false, unique: false, private: false, system: true },
        { name: "updated_at", type: "text", nullable: false, unique: false, private: false, system: true },
      ],
      uniques: [],
      relations: [{ field: "books", toOne: false, hierarchy: false, oneOwner: true, localized: false, private: false, minItems: 0, targets: [{ model: "book", table: "shelf_books" }] }],
    },
  ],
};

const untouchable = new Proxy({}, { get: () => { throw new Error("the database was touched"); } }) as Backend["db"];
const backend: Backend = { db: untouchable, schema, operations: {}, access: { version: 1, site: "site1", tokens: [] }, serviceToken: "service" };
const send = (method: string, path: string, body: unknown) =>
  handle(new Request(`http://backend.test${path}`, { method, headers: { authorization: "Bearer service", "content-type": "application/json" }, body: JSON.stringify(body) }), backend);

describe("relation writes without a batch runner", () => {
  it("PUT /relations/<field> and POST /with-relations answer 503 relation_writes_unavailable, writing nothing", async () => {
    for (const answer of [await send("PUT", "/api/shelf/relations/books", { where: { id: "s1" }, set: ["b1"] }), await send("POST", "/api/shelf/with-relations", { data: { name: "x" }, relations: { books: ["b1"] } })]) {
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("relation_writes_unavailable");
    }
  });
});

describe("an overridden create (src/overrides.ts)", () => {
  it("with-relations answers 501 atomic_create_unavailable before any database read; the guard still answers first", async () => {
    let ran = 0;
    const overridden: Backend = { ...backend, batch: async () => undefined, overrides: { "Shelf.create": async ({ next }) => (ran++, next()) } };
    const post = (authorization: string | undefined) =>
      handle(new Request("http://backend.test/api/shelf/with-relations", { method: "POST", headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" }, body: JSON.stringify({ data: { name: "x" }, relations: { books: ["b1"] } }) }), overridden);
    const refused = await post("Bearer service");
    expect(refused.status).toBe(501);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("atomic_create_unavailable");
    expect((await post(undefined)).status).toBe(401);
    expect(ran).toBe(0);
  });

  it("a key naming no operation of the backend, or a handler that is no function, refuses start", () => {
    expect(() => checkOverrides({ "Shelf.create": async ({ next }) => next() }, schema)).not.toThrow();
    expect(() => checkOverrides({ "Shelf.createWithRelations": async ({ next }) => next() }, schema)).toThrow(/no operation of this backend/);
    expect(() => checkOverrides({ "Book.create": async ({ next }) => next() }, schema)).toThrow(/no operation of this backend/);
    expect(() => checkOverrides({ "Shelf.update": "yes" } as never, schema)).toThrow(/must be a function/);
  });
});

describe("a batch failure the pre-checks could not see", () => {
  // A database that answers every read with no rows: every pre-check passes (no taken unique value,
  // no linked target), as when a concurrent write commits between the checks and the batch.
  const empty = new Kysely<Record<string, never>>({ dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() } });
  const failingWith = (message: string): Backend => ({ ...backend, db: empty, batch: async () => { throw new Error(message); } });
  const create = (b: Backend) =>
    handle(new Request("http://backend.test/api/shelf/with-relations", { method: "POST", headers: { authorization: "Bearer service", "content-type": "application/json" }, body: JSON.stringify({ data: { id: "s1", name: "x" }, relations: { books: [] } }) }), b);

  // (A one-owner target claimed first, 409 relation_target_taken, is raced for real on both runtimes.)
  it("a unique value or foreign key taken first is 409 write_conflict (SQLite's and D1's messages)", async () => {
    for (const [message, code] of [
      ["UNIQUE constraint failed: shelf.id", "write_conflict"],
      ["D1_ERROR: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT", "write_conflict"],
    ] as const) {
      const answer = await create(failingWith(message));
      expect(answer.status, message).toBe(409);
      expect(((await answer.json()) as { error: { code: string } }).error.code, message).toBe(code);
    }
  });
});
