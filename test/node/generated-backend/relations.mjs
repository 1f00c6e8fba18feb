/**
 * The generated backend's relation routes (issue #25 items 1 and 2, spec 3 "Relation routes", "Rules
 * of list relation writes", "Rules of with-relations"; docs/generated-backend.md, "Relations"), run
 * by test/node/generated-backend.test.mjs on both runtimes. Edge-case models are built in the CMS
 * through the management API before generation (so they flow through the real generator):
 *   relbook, relcrate; relshelf with `books` (one_to_many, 1–3), `items` (many_to_many over
 *   relbook + author), `pick` (to-one over relbook + author), `keeper` (required to-one author),
 *   `secret` (a private list). The demo's category `parent` is the hierarchy.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { request } from "../../../scripts/lib/dev-server.mjs";

/** Builds the edge-case models in the demo site (before the backend is generated). */
export async function seedRelationModels(cmsPort, token) {
  const manage = async (method, pathname, body) => {
    const answer = await request(cmsPort, { method, host: "demo.localhost", path: `/api/manage/v1${pathname}`, body, headers: { authorization: `Bearer ${token}`, ...(method === "GET" ? {} : { "idempotency-key": `rel-${pathname}-${Math.random()}` }) } });
    assert.ok(answer.status < 300, `${method} ${pathname}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  const models = (await manage("GET", "/models")).data;
  const authorId = models.find((m) => m.slug === "author")?.id;
  assert.ok(authorId, "the demo has an author model");
  const book = await manage("POST", "/models", { definition: { model: { name: "Rel book", slug: "rel-book", is_public: true }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] } });
  const list = (key, extra) => ({ key, label: key, type: "relation", ...extra });
  await manage("POST", "/models", {
    definition: {
      model: { name: "Rel shelf", slug: "rel-shelf", is_public: true },
      fields: [
        { key: "name", label: "Name", type: "text", required: true, title: true },
        list("books", { relation: "one_to_many", multiple: true, targets: [book.model_id], validation: { min_items: 1, max_items: 3 } }),
        list("items", { relation: "many_to_many", multiple: true, targets: [book.model_id, authorId] }),
        list("pick", { relation: "many_to_one", targets: [book.model_id, authorId] }),
        list("keeper", { relation: "many_to_one", targets: [authorId], required: true }),
        list("secret", { relation: "many_to_many", multiple: true, targets: [book.model_id], private: true }),
      ],
    },
  });
  await manage("POST", "/models", {
    definition: { model: { name: "Rel crate", slug: "rel-crate", is_public: true }, fields: [{ key: "label", label: "Label", type: "text" }, list("books", { relation: "many_to_many", multiple: true, targets: [book.model_id] })] },
  });
}

/** The owner's configuration of the edge-case models: relcrate's create and update disabled. */
export function configureRelationOperations(operations) {
  operations.relcrate.create = { enabled: false, access: "service" };
  operations.relcrate.update = { enabled: false, access: "service" };
}

/**
 * An owner's operation override, written into the unpacked project before it is built (both
 * runtimes compile it): `Article.create` runs the built-in create and marks its answer. Article has
 * a list relation (`categories`), so its with-relations answers 501 atomic_create_unavailable.
 */
export function prepareOverrides(project) {
  writeFileSync(
    path.join(project, "src", "overrides.ts"),
    `import type { OperationOverrides } from "./runtime/overrides.js";

export const overrides: OperationOverrides = {
  "Article.create": async ({ request, caller, next }) => {
    const answer = await next(request);
    const headers = new Headers(answer.headers);
    headers.set("x-created-by", "override:" + caller.kind);
    return new Response(answer.body, { status: answer.status, headers });
  },
};
`,
  );
}

/**
 * The contract, inside the harness's per-runtime describe. `ctx`: { runtime, project, call, q,
 * SERVICE, READER (author-only read token), WILDCARD }.
 */
export function relationRoutes(ctx) {
  const { q, SERVICE, WILDCARD } = ctx;
  // A slow step before a test (the harness's openapi validation, a spawned process) can leave the
  // keep-alive connection idle past the server's timeout; the server closes it as undici reuses it,
  // and that one request fails with "fetch failed" before reaching the server. It is sent again once;
  // a server that is really gone fails the second time too.
  const call = async (...args) => {
    try {
      return await ctx.call(...args);
    } catch (error) {
      if (!(error instanceof TypeError) || error.message !== "fetch failed") throw error;
      return ctx.call(...args);
    }
  };
  const put = (model, field, body) => call("PUT", `/api/${model}/relations/${field}`, { token: SERVICE, body });
  const list = (model, field, id, token) => call("GET", `/api/${model}/relations/${field}?id=${encodeURIComponent(id)}`, token ? { token } : {});
  const create = async (model, data) => {
    const answer = await call("POST", `/api/${model}`, { token: SERVICE, body: { data } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body;
  };
  const refused = (answer, status, code) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, code, JSON.stringify(answer.body));
    return answer.body.error;
  };
  const books = (...ids) => ids.map((id) => ({ model: "relbook", id }));

  it("relation fixtures: books, authors and shelves", async () => {
    for (const id of ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9"]) await create("relbook", { id, title: `Book ${id}` });
    for (const id of ["a1", "a2"]) await create("author", { id, name: `Author ${id}` });
    for (const id of ["s1", "s2"]) await create("relshelf", { id, name: `Shelf ${id}`, keeper_id: "a1" });
  });

  it("list writes: set, connect, disconnect in order; duplicates, bounds, missing targets; an equal list writes nothing", async () => {
    assert.deepEqual((await list("relshelf", "books", "s1")).body, []);
    // Counts are checked on every request: an empty list below min_items refuses even a no-op.
    refused(await put("relshelf", "books", { where: { id: "s1" }, disconnect: ["b9"] }), 422, "relation_too_few");
    assert.deepEqual(refused(await put("relshelf", "books", { where: { id: "s1" }, set: ["b1", "b1"] }), 422, "relation_duplicate_target").targets, ["b1"]);
    refused(await put("relshelf", "books", { where: { id: "s1" }, set: ["b1", "b2", "b3", "b4"] }), 422, "relation_too_many");
    const missing = refused(await put("relshelf", "books", { where: { id: "s1" }, set: ["b1", "nope"] }), 422, "relation_target_missing");
    assert.deepEqual([missing.field, missing.targets], ["books", ["nope"]]);
    refused(await put("relshelf", "books", { where: { id: "s1" }, set: ["b1"], connect: ["b2"] }), 400, "invalid_request");
    refused(await put("relshelf", "books", { where: { id: "s1" }, set: ["b1"], extra: 1 }), 400, "invalid_request");
    const before = (await call("GET", "/api/relshelf/unique" + q({ where: { id: "s1" } }))).body.updated_at;
    const set = await put("relshelf", "books", { where: { id: "s1" }, set: ["b2", { model: "relbook", id: "b1" }] });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, books("b2", "b1"));
    assert.deepEqual((await list("relshelf", "books", "s1")).body, books("b2", "b1"));
    const changed = (await call("GET", "/api/relshelf/unique" + q({ where: { id: "s1" } }))).body.updated_at;
    assert.ok(changed > before, "a list write changes the owner's updated_at");
    assert.deepEqual((await put("relshelf", "books", { where: { id: "s1" }, connect: ["b3"] })).body, books("b2", "b1", "b3"));
    assert.deepEqual((await put("relshelf", "books", { where: { id: "s1" }, disconnect: ["b2", "b-never-linked"] })).body, books("b1", "b3"));
    // connect of a linked target keeps its place; an equal list answers the stored one and writes nothing.
    assert.deepEqual((await put("relshelf", "books", { where: { id: "s1" }, connect: ["b1"] })).body, books("b1", "b3"));
    assert.deepEqual((await put("relshelf", "books", { where: { id: "s1" }, set: ["b1", "b3"] })).body, books("b1", "b3"));
    const unchanged = (await call("GET", "/api/relshelf/unique" + q({ where: { id: "s1" } }))).body.updated_at;
    await put("relshelf", "books", { where: { id: "s1" }, set: ["b1", "b3"] });
    assert.equal((await call("GET", "/api/relshelf/unique" + q({ where: { id: "s1" } }))).body.updated_at, unchanged);
    // one_to_many: a target another shelf holds.
    const taken = refused(await put("relshelf", "books", { where: { id: "s2" }, set: ["b4", "b1"] }), 409, "relation_target_taken");
    assert.deepEqual(taken.targets, ["b1"]);
    refused(await put("relshelf", "books", { where: { id: "s2" }, set: [{ model: "author", id: "a1" }] }), 422, "relation_target_model_not_allowed");
    assert.equal((await put("relshelf", "books", { where: { id: "s2" }, set: ["b4"] })).status, 200);
    refused(await put("relshelf", "books", { where: { id: "no-such-shelf" }, set: ["b5"] }), 404, "not_found");
    refused(await put("relshelf", "nofield", { where: { id: "s1" }, set: [] }), 404, "not_found");
  });

  it("a deleted target leaves the list below min_items: relation_too_few until a write restores it", async () => {
    await create("relshelf", { id: "s3", name: "Shelf s3", keeper_id: "a1" });
    assert.equal((await put("relshelf", "books", { where: { id: "s3" }, set: ["b6"] })).status, 200);
    assert.equal((await call("DELETE", "/api/relbook", { token: SERVICE, body: { where: { id: "b6" } } })).status, 200);
    assert.deepEqual((await list("relshelf", "books", "s3")).body, []);
    refused(await put("relshelf", "books", { where: { id: "s3" }, set: [] }), 422, "relation_too_few");
    assert.deepEqual((await put("relshelf", "books", { where: { id: "s3" }, connect: ["b7"] })).body, books("b7"));
  });

  it("multi-model fields: { model, id } required, allowed models only, answers in order; a to-one holds one reference", async () => {
    refused(await put("relshelf", "items", { where: { id: "s1" }, set: ["b2"] }), 422, "relation_target_model_required");
    refused(await put("relshelf", "items", { where: { id: "s1" }, set: [{ model: "note", id: "x" }] }), 422, "relation_target_model_not_allowed");
    assert.deepEqual(refused(await put("relshelf", "items", { where: { id: "s1" }, set: [{ model: "relbook", id: "a1" }] }), 422, "relation_target_missing").targets, ["relbook:a1"]);
    const mixed = [{ model: "author", id: "a1" }, { model: "relbook", id: "b2" }, { model: "author", id: "a2" }, { model: "relbook", id: "b1" }];
    assert.deepEqual((await put("relshelf", "items", { where: { id: "s1" }, set: mixed })).body, mixed);
    assert.deepEqual((await list("relshelf", "items", "s1")).body, mixed);
    assert.deepEqual((await put("relshelf", "items", { where: { id: "s1" }, disconnect: [{ model: "relbook", id: "b2" }], connect: [{ model: "relbook", id: "b2" }] })).body, [mixed[0], mixed[2], mixed[3], mixed[1]]);
    refused(await put("relshelf", "pick", { where: { id: "s1" }, set: [{ model: "relbook", id: "b2" }, { model: "author", id: "a1" }] }), 422, "relation_too_many");
    // Racing writes of the two models: the field ends with exactly one reference.
    const race = await Promise.all([
      put("relshelf", "pick", { where: { id: "s1" }, set: [{ model: "relbook", id: "b2" }] }),
      put("relshelf", "pick", { where: { id: "s1" }, set: [{ model: "author", id: "a2" }] }),
    ]);
    for (const answer of race) if (answer.status !== 200) refused(answer, 409, "relation_changed_concurrently");
    const picked = (await list("relshelf", "pick", "s1")).body;
    assert.equal(picked.length, 1);
    assert.ok(race.some((answer) => answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify(picked)));
    const rows = await call("GET", "/api/relshelf_pick_author" + q({ where: { owner_id: "s1" } }));
    const bookRows = await call("GET", "/api/relshelf_pick_relbook" + q({ where: { owner_id: "s1" } }));
    assert.equal(rows.body.length + bookRows.body.length, 1);
  });

  it("concurrent list writes never lose an update: each is written whole or refused relation_changed_concurrently", async () => {
    await create("relshelf", { id: "s4", name: "Shelf s4", keeper_id: "a1" });
    const targets = ["b2", "b3", "b4", "b5"].map((id) => ({ model: "relbook", id }));
    const answers = await Promise.all(targets.map((ref) => put("relshelf", "items", { where: { id: "s4" }, connect: [ref] })));
    const written = [];
    answers.forEach((answer, index) => {
      if (answer.status === 200) written.push(targets[index]);
      else refused(answer, 409, "relation_changed_concurrently");
    });
    assert.ok(written.length >= 1);
    const stored = (await list("relshelf", "items", "s4")).body;
    assert.deepEqual([...stored].sort((a, b) => (a.id < b.id ? -1 : 1)), written.sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  it("to-one links live on the row; a required one refuses an empty list; deleting its target is 409 relation_target_referenced", async () => {
    // A row-stored link's refusals name its column (docs/generated-backend.md), counts and models included.
    assert.equal(refused(await put("relshelf", "keeper", { where: { id: "s2" }, set: [] }), 422, "relation_too_few").field, "keeper_id");
    assert.equal(refused(await put("relshelf", "keeper", { where: { id: "s2" }, set: ["a1", "a2"] }), 422, "relation_too_many").field, "keeper_id");
    assert.equal(refused(await put("relshelf", "keeper", { where: { id: "s2" }, set: [{ model: "relbook", id: "b1" }] }), 422, "relation_target_model_not_allowed").field, "keeper_id");
    assert.deepEqual((await put("relshelf", "keeper", { where: { id: "s2" }, set: ["a2"] })).body, [{ model: "author", id: "a2" }]);
    assert.equal((await call("GET", "/api/relshelf/unique" + q({ where: { id: "s2" } }))).body.keeper_id, "a2");
    refused(await put("relshelf", "keeper", { where: { id: "s2" }, set: ["nobody"] }), 422, "relation_target_missing");
    refused(await call("DELETE", "/api/author", { token: SERVICE, body: { where: { id: "a2" } } }), 409, "relation_target_referenced");
    assert.ok((await call("GET", "/api/author/unique" + q({ where: { id: "a2" } }), { token: SERVICE })).body);
  });

  it("hierarchy: a loop is 422 relation_hierarchy_cycle with field and targets, from the row and relation routes and the database trigger", async () => {
    await create("category", { id: "h1", title: "Root" });
    await create("category", { id: "h2", title: "Child", parent_id: "h1" });
    await create("category", { id: "h3", title: "Grandchild", parent_id: "h2" });
    const viaRow = refused(await call("PUT", "/api/category", { token: SERVICE, body: { where: { id: "h1" }, data: { parent_id: "h3" } } }), 422, "relation_hierarchy_cycle");
    assert.deepEqual([viaRow.field, viaRow.targets], ["parent_id", ["h3"]]);
    const viaList = refused(await put("category", "parent", { where: { id: "h1" }, set: ["h3"] }), 422, "relation_hierarchy_cycle");
    assert.deepEqual([viaList.field, viaList.targets], ["parent_id", ["h3"]]);
    refused(await put("category", "parent", { where: { id: "h2" }, set: ["h2"] }), 422, "relation_hierarchy_cycle");
    refused(await call("POST", "/api/category", { token: SERVICE, body: { data: { id: "h9", title: "Self", parent_id: "h9" } } }), 422, "relation_hierarchy_cycle");
    refused(await put("category", "parent", { where: { id: "h2" }, set: ["grp_nowhere"] }), 422, "relation_target_missing");
    // Reparenting and clearing are ordinary writes.
    assert.deepEqual((await put("category", "parent", { where: { id: "h3" }, set: ["h1"] })).body, [{ model: "category", id: "h1" }]);
    assert.deepEqual((await put("category", "parent", { where: { id: "h2" }, set: [] })).body, []);
    assert.equal((await call("GET", "/api/category/unique" + q({ where: { id: "h2" } }), { token: SERVICE })).body.parent_id, null);
    const migration = readFileSync(path.join(ctx.project, "migrations", "0001_schema.sql"), "utf8");
    assert.match(migration, /DROP TRIGGER IF EXISTS "relshelf_pick_author_one_order"[\s\S]*CREATE TRIGGER "relshelf_pick_author_one_order"/);
    if (ctx.runtime === "local server") {
      // The database itself refuses the loop (a write that bypassed the routes).
      const direct = spawnSync(process.execPath, ["-e", "const D=require('libsql');const db=new D('data/site.db');try{db.prepare(\"UPDATE category SET parent_id='h3' WHERE id='h1'\").run();console.log('written')}catch(e){console.log(e.message)}"], { cwd: ctx.project, encoding: "utf8" });
      assert.match(direct.stdout, /relation_hierarchy_cycle: category\.parent_id/);
    }
  });

  it("GET lists: ordered with each model, inherits findUnique; a private list only for editors; join tables' three reads", async () => {
    const article = JSON.parse(readFileSync(path.join(ctx.project, "data", "article_categories.json"), "utf8"))[0];
    assert.ok(article, "the demo links articles to categories");
    const expected = JSON.parse(readFileSync(path.join(ctx.project, "data", "article_categories.json"), "utf8"))
      .filter((row) => row.owner_id === article.owner_id)
      .sort((a, b) => a.position - b.position)
      .map((row) => ({ model: "category", id: row.target_id }));
    assert.deepEqual((await list("article", "categories", article.owner_id)).body, expected);
    refused(await list("article", "categories", "no-such-article"), 404, "not_found");
    refused(await call("GET", "/api/article/relations/categories"), 400, "invalid_request");
    await put("relshelf", "secret", { where: { id: "s1" }, set: ["b3"] });
    refused(await list("relshelf", "secret", "s1"), 403, "forbidden");
    assert.deepEqual((await list("relshelf", "secret", "s1", WILDCARD)).body, books("b3"));
    refused(await call("GET", "/api/relshelf_secret"), 403, "forbidden");
    const rows = await call("GET", "/api/relshelf_books" + q({ where: { owner_id: "s1" } }));
    assert.deepEqual(rows.body, [{ owner_id: "s1", target_id: "b1", position: 0 }, { owner_id: "s1", target_id: "b3", position: 1 }]);
    const page = await call("GET", "/api/relshelf_books/paginated" + q({ where: { owner_id: { in: ["s1", "s2"] } }, take: 1, skip: 1 }));
    assert.deepEqual(page.body, { data: [{ owner_id: "s1", target_id: "b3", position: 1 }], total: 3, hasMore: true });
    assert.deepEqual((await call("GET", "/api/relshelf_books/unique" + q({ where: { owner_id: "s1", target_id: "b3" } }))).body, { owner_id: "s1", target_id: "b3", position: 1 });
    assert.equal((await call("GET", "/api/relshelf_books/unique" + q({ where: { owner_id: "s1", target_id: "b4" } }))).body, null);
    refused(await call("GET", "/api/relshelf_books/unique" + q({ where: { owner_id: "s1" } })), 400, "invalid_request");
    refused(await call("GET", "/api/relshelf_books" + q({ where: { nope: 1 } })), 400, "invalid_request");
    refused(await call("POST", "/api/relshelf_books", { token: SERVICE, body: { data: {} } }), 405, "method_not_allowed");
  });

  it("with-relations: row and lists in one batch; every pre-check; 201 without private fields; nothing half-written", async () => {
    const body = (id, extra = {}) => ({ data: { id, name: `Shelf ${id}`, keeper_id: "a1" }, relations: { books: ["b5"], items: [{ model: "author", id: "a1" }], secret: ["b2"], ...extra } });
    const created = await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: body("w1") });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.id, "w1");
    assert.equal(created.body.keeper_id, "a1");
    assert.deepEqual(created.body.books, ["b5"]);
    assert.deepEqual(created.body.items, [{ model: "author", id: "a1" }]);
    assert.equal("secret" in created.body, false);
    assert.deepEqual((await list("relshelf", "secret", "w1", SERVICE)).body, books("b2"));
    const generated = await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { data: { name: "Generated", keeper_id: "a1" }, relations: { books: ["b4"] } } });
    refused(generated, 409, "relation_target_taken");
    const fresh = await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { data: { name: "Generated", keeper_id: "a1" }, relations: { books: ["b2"] } } });
    assert.equal(fresh.status, 201, JSON.stringify(fresh.body));
    assert.match(fresh.body.id, /^[0-9a-f]{32}$/);
    // b9 is free: each refusal below comes from the part the case changes.
    const base = { books: ["b9"], items: [{ model: "author", id: "a1" }] };
    for (const [extra, status, code] of [
      [{ books: undefined }, 422, "relation_too_few"],
      [{ books: ["b3", "b3"] }, 422, "relation_duplicate_target"],
      [{ books: ["b3", "b7", "b1", "b2"] }, 422, "relation_too_many"],
      [{ books: ["gone"] }, 422, "relation_target_missing"],
      [{ books: ["b5"] }, 409, "relation_target_taken"],
      [{ items: ["b3"] }, 422, "relation_target_model_required"],
      [{ items: [{ model: "note", id: "n" }] }, 422, "relation_target_model_not_allowed"],
      [{ nofield: [] }, 400, "invalid_request"],
      [{ keeper: ["a1"] }, 400, "invalid_request"],
    ]) {
      const relations = { ...base, ...extra };
      for (const key of Object.keys(relations)) if (relations[key] === undefined) delete relations[key];
      const answer = await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { data: body("w-refused").data, relations } });
      refused(answer, status, code);
    }
    refused(await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { data: { id: "w-refused", name: "x", keeper_id: "nobody" }, relations: { books: ["b9"] } } }), 422, "relation_target_missing");
    refused(await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: body("w1", { books: ["b9"] }) }), 409, "record_exists");
    refused(await call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { ...body("w-refused"), extra: 1 } }), 400, "invalid_request");
    refused(await call("POST", "/api/category/with-relations", { token: SERVICE, body: { data: { title: "x" } } }), 404, "not_found");
    assert.equal((await call("GET", "/api/relshelf/unique" + q({ where: { id: "w-refused" } }))).body, null);
    assert.deepEqual((await call("GET", "/api/relshelf_books" + q({ where: { target_id: "b3" } }))).body.map((r) => r.owner_id), ["s1"]);
    refused(await call("POST", "/api/relshelf/with-relations", { body: body("w-anon") }), 401, "unauthorized");
    refused(await call("POST", "/api/relshelf/with-relations", { token: WILDCARD, body: body("w-reader") }), 403, "forbidden");
    // Two creates claiming one one-to-many target: one 201, one 409 relation_target_taken.
    const [x, y] = await Promise.all(["w-race-1", "w-race-2"].map((id) => call("POST", "/api/relshelf/with-relations", { token: SERVICE, body: { data: { id, name: id, keeper_id: "a1" }, relations: { books: ["b8"] } } })));
    const statuses = [x.status, y.status].sort();
    assert.deepEqual(statuses, [201, 409], JSON.stringify([x.body, y.body]));
    refused(x.status === 409 ? x : y, 409, "relation_target_taken");
  });

  it("a disabled owner operation takes its relation routes with it (openapi.json too); with-relations is x-atomic-create", async () => {
    // relcrate.create and .update are disabled: the relation path keeps GET (findUnique), PUT is 405.
    const put405 = await call("PUT", "/api/relcrate/relations/books", { token: SERVICE, body: { where: { id: "c1" }, set: [] } });
    refused(put405, 405, "method_not_allowed");
    assert.equal(put405.headers.get("allow"), "GET");
    assert.equal(refused(await list("relcrate", "books", "c1"), 404, "not_found").message, "No row matches where.");
    assert.deepEqual((await call("GET", "/api/relcrate_books")).body, []);
    refused(await call("POST", "/api/relcrate/with-relations", { token: SERVICE, body: { data: { label: "x" } } }), 404, "not_found");
    const openapi = (await call("GET", "/api/openapi.json", { token: WILDCARD })).body;
    assert.equal(openapi.paths["/api/relshelf/with-relations"].post["x-atomic-create"], true);
    assert.equal(openapi.paths["/api/relshelf/with-relations"].post.operationId, "RelShelf.createWithRelations");
    assert.ok(openapi.paths["/api/relshelf/relations/books"].put);
    assert.equal(openapi.paths["/api/relcrate/with-relations"], undefined);
    assert.equal(openapi.paths["/api/relcrate/relations/books"].put, undefined);
    assert.ok(openapi.paths["/api/relcrate/relations/books"].get);
    assert.ok(openapi.paths["/api/relshelf_books/unique"].get);
  });

  it("an overridden create (src/overrides.ts) runs in the operation's place; with-relations then answers 501 atomic_create_unavailable", async () => {
    const slug = `override-${ctx.runtime === "wrangler dev" ? "worker" : "local"}`;
    const created = await call("POST", "/api/article", { token: SERVICE, body: { data: { slug, title: "Through the override" } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers.get("x-created-by"), "override:service");
    assert.equal(created.body.title, "Through the override");
    // The guard comes first (401, 403), then the refusal; nothing is written.
    const atomic = { data: { slug: `${slug}-atomic`, title: "Atomic" }, relations: { categories: [] } };
    refused(await call("POST", "/api/article/with-relations", { body: atomic }), 401, "unauthorized");
    refused(await call("POST", "/api/article/with-relations", { token: WILDCARD, body: atomic }), 403, "forbidden");
    const unavailable = refused(await call("POST", "/api/article/with-relations", { token: SERVICE, body: atomic }), 501, "atomic_create_unavailable");
    assert.match(unavailable.message, /Article\.create is overridden/);
    assert.equal((await call("GET", "/api/article/unique" + q({ where: { slug: `${slug}-atomic` } }), { token: SERVICE })).body, null);
    // Without an override the route is atomic as before; openapi.json no longer offers article's.
    const openapi = (await call("GET", "/api/openapi.json", { token: WILDCARD })).body;
    assert.equal(openapi.paths["/api/article/with-relations"], undefined);
    assert.equal(openapi.paths["/api/article"].post.operationId, "Article.create");
    assert.equal(openapi.paths["/api/relshelf/with-relations"].post["x-atomic-create"], true);
  });
}
