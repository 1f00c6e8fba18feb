/**
 * The generated standalone backend end to end (issue #24, docs/generated-backend.md): the demo
 * site's backend fetched with the generated CLI (`get-generated-backend --out`), unpacked in a temp
 * dir, its dependencies installed once (cached under the OS temp dir, keyed by the emitted
 * package.json and package-lock.json), `db:init`, the project's own tests, then one contract suite
 * over HTTP against its local Node server and against `npm run dev:worker` (wrangler dev, local D1): every row operation, where/orderBy/pagination, closed
 * bodies, access modes, read-token scopes, 401/403/503, a disabled operation, an invalid
 * ACCESS_CONFIG refusing start and the dangling check refusing a corrupted data/.
 * Run: npm run test:e2e -- test/node/generated-backend.test.mjs (in a private network namespace)
 */
import assert from "node:assert/strict";
import { execFile, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";
import { deployContract, prepareSessions, SESSION_ENV, sessionContract } from "./generated-backend/sessions.mjs";
import { manageClient } from "./generated-backend/cms.mjs";
import { fileTests, seedFiles, seeded as filesSeeded } from "./generated-backend/files.mjs";
import { pointTests, seedPoints } from "./generated-backend/points.mjs";
import { seedLocalizedList, translationTests } from "./generated-backend/translations.mjs";
import { configureRelationOperations, prepareOverrides, relationRoutes, seedRelationModels } from "./generated-backend/relations.mjs";

const CMS_PORT = 8811;
const PORT = 8812;
const WORKER_PORT = 8815;
/** A local server without private file storage (test/node/generated-backend/files.mjs). */
const FILES_PORT = 8819;
/** The port the row-route suite is running against (the local server, then wrangler dev). */
let active = PORT;
const SERVICE = "service-token-for-the-contract-suite";
const READER = "reader-secret-author-only";
const WILDCARD = "reader-secret-everything";
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

let cms;
let project;
let schema;
const servers = [];

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, timeout: 300_000, ...options }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The emitted project's dependencies, installed once per package.json + package-lock.json. */
function installOnce(tree) {
  const key = sha256(readFileSync(path.join(tree, "package.json")) + "\n" + readFileSync(path.join(tree, "package-lock.json"))).slice(0, 16);
  const cache = path.join(os.tmpdir(), `driftwood-generated-backend-deps-${key}`);
  if (!existsSync(path.join(cache, "node_modules", ".package-lock.json"))) {
    const staging = `${cache}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    cpSync(path.join(tree, "package.json"), path.join(staging, "package.json"));
    cpSync(path.join(tree, "package-lock.json"), path.join(staging, "package-lock.json"));
    const install = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: staging, encoding: "utf8", timeout: 600_000 });
    assert.equal(install.status, 0, install.stderr);
    rmSync(cache, { recursive: true, force: true });
    renameSync(staging, cache);
  }
  symlinkSync(path.join(cache, "node_modules"), path.join(tree, "node_modules"), "dir");
}

function accessConfig() {
  return JSON.stringify({
    version: 1,
    site: schema.site.id,
    tokens: [
      { id: "author-reader", digest: sha256(READER), models: ["author"] },
      { id: "everything", digest: sha256(WILDCARD), models: ["*"] },
    ],
  });
}

/** Starts the local server; resolves once it listens, or with its exit code and stderr when it refuses. */
function startBackend(port, env, cwd = project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/src/node/server.js"], { cwd, env: { PATH: process.env.PATH, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    servers.push(child);
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => String(chunk).includes("listening") && resolve({ child }));
    child.on("exit", (code) => resolve({ exited: code, stderr }));
  });
}

async function call(method, pathname, { token, body, port = active } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`, { method, headers, ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const q = (args) => "?" + Object.entries(args).map(([k, v]) => `${k}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`).join("&");

before(async () => {
  cms = await startDevServer({ port: CMS_PORT });
  const manage = manageClient(CMS_PORT, cms.info.management_token);
  await seedPoints(manage);
  await seedFiles(manage, CMS_PORT, cms.info.management_token);
  await seedLocalizedList(manage, filesSeeded.instances.map((instance_id, i) => ({ instance_id, group_id: [filesSeeded.withFiles, filesSeeded.withoutFiles][i] })), "dossier");
  await seedRelationModels(CMS_PORT, cms.info.management_token);
  const work = mkdtempSync(path.join(os.tmpdir(), "driftwood-generated-backend-"));
  const archive = path.join(work, "backend.tar.gz");
  const cli = await run(process.execPath, [path.join(root, "cli", "manage.mjs"), "get-generated-backend", "--out", archive], {
    env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${CMS_PORT}`, SERVICE_MANAGEMENT_TOKEN: cms.info.management_token },
  });
  assert.equal(cli.code, 0, `${cli.stdout}\n${cli.stderr}`);
  assert.equal(cli.stdout, "", "a binary answer never reaches stdout");
  assert.match(cli.stderr, /wrote \d+ bytes \(application\/gzip\)/);
  const untar = await run("tar", ["-xzf", archive, "-C", work]);
  assert.equal(untar.code, 0, untar.stderr);
  project = path.join(work, "demo-backend");
  schema = JSON.parse(readFileSync(path.join(project, "schema.json"), "utf8"));
  // A disabled operation, and a model whose reads are service-only, configured as an owner would.
  const operations = JSON.parse(readFileSync(path.join(project, "access", "operations.json"), "utf8"));
  operations.article.delete = { enabled: false, access: "service" };
  operations.note.findManyPaginated = { enabled: false, access: "service" };
  configureRelationOperations(operations);
  writeFileSync(path.join(project, "access", "operations.json"), JSON.stringify(operations, null, 2));
  prepareSessions(project);
  prepareOverrides(project);
  installOnce(project);
  const init = await run("npm", ["run", "db:init"], { cwd: project });
  assert.equal(init.code, 0, init.stderr);
  const started = await startBackend(PORT, { API_BEARER_TOKEN: SERVICE, ACCESS_CONFIG: accessConfig(), PRIVATE_FILES_DIRECTORY: path.join(project, "private-files"), ...SESSION_ENV });
  assert.ok(started.child, started.stderr);
});

after(() => {
  for (const child of servers) if (child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  cms?.stop();
});

describe("the CMS's get-generated-backend", () => {
  // Nothing needs the CMS after this (the project is fetched in before()): stopped here, its
  // wrangler dev and two workerd processes do not idle through the rest of the file (docs/testing.md,
  // "Where the CPU goes").
  after(() => {
    cms?.stop();
    cms = undefined;
  });

  it("the CLI never writes the binary answer to a terminal or pipe: --out is required", async () => {
    const refused = await run(process.execPath, [path.join(root, "cli", "manage.mjs"), "get-generated-backend"], {
      env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${CMS_PORT}`, SERVICE_MANAGEMENT_TOKEN: cms.info.management_token },
    });
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /--out <path> is required/);
  });
});

describe("the emitted project", () => {
  it("holds the tree, runs its own tests, and its check passes", async () => {
    for (const file of ["README.md", "tsconfig.json", "wrangler.jsonc", "openapi.json", "migrations/0001_schema.sql", "access/read-tokens.json", "src/access-config-rules.js", "src/media-original.ts", "data/article.json"]) {
      assert.ok(existsSync(path.join(project, file)), file);
    }
    assert.match(readFileSync(path.join(project, "migrations/0001_schema.sql"), "utf8"), /DROP TRIGGER IF EXISTS "category_parent_id_no_cycle_insert"/);
    const own = await run("npm", ["test"], { cwd: project });
    assert.equal(own.code, 0, `${own.stdout}\n${own.stderr}`);
    const check = await run("npm", ["run", "--silent", "check"], { cwd: project });
    assert.equal(check.code, 0, check.stderr);
  });

  it("refuses a corrupted data/ with relation_ids_dangling, in check and db:init", async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), "driftwood-dangling-"));
    for (const part of ["scripts", "data", "migrations", "schema.json"]) cpSync(path.join(project, part), path.join(copy, part), { recursive: true });
    symlinkSync(path.join(project, "node_modules"), path.join(copy, "node_modules"), "dir");
    rmSync(path.join(copy, "data", "site.db"), { force: true });
    const articles = JSON.parse(readFileSync(path.join(copy, "data", "article.json"), "utf8"));
    const linked = articles.find((row) => row.author_id !== null);
    assert.ok(linked, "a demo article links an author");
    linked.author_id = "grp_gone";
    writeFileSync(path.join(copy, "data", "article.json"), JSON.stringify(articles));
    const check = await run(process.execPath, ["scripts/check.mjs"], { cwd: copy });
    assert.equal(check.code, 1);
    assert.match(check.stderr, /relation_ids_dangling/);
    assert.equal(check.stdout.trim(), `article\tauthor_id\t${linked.id}\tauthor:grp_gone`);
    const init = await run(process.execPath, ["scripts/db-init.mjs"], { cwd: copy, env: { PATH: process.env.PATH, DATABASE_FILE: path.join(copy, "x.db") } });
    assert.equal(init.code, 1);
    assert.equal(existsSync(path.join(copy, "x.db")), false);
  });

  it("refuses to start without a valid ACCESS_CONFIG", async () => {
    const missing = await startBackend(PORT + 1, { API_BEARER_TOKEN: SERVICE });
    assert.equal(missing.exited, 1);
    assert.match(missing.stderr, /ACCESS_CONFIG is not set/);
    const wrongSite = await startBackend(PORT + 1, { API_BEARER_TOKEN: SERVICE, ACCESS_CONFIG: JSON.stringify({ version: 1, site: "another", tokens: [] }) });
    assert.equal(wrongSite.exited, 1);
    assert.match(wrongSite.stderr, /ACCESS_CONFIG.site/);
    const duplicate = JSON.stringify({ version: 1, site: schema.site.id, tokens: [{ id: "a", digest: sha256("x"), models: ["*"] }, { id: "b", digest: sha256("x"), models: ["*"] }] });
    const twice = await startBackend(PORT + 1, { ACCESS_CONFIG: duplicate });
    assert.equal(twice.exited, 1);
    assert.match(twice.stderr, /digest is used twice/);
  });
});

describe("managed deployment of access (deploy script)", () => deployContract({ it, project: () => project }));

/** `npm run dev:worker` in the project (wrangler dev, local D1); resolves once it answers. */
async function startWorker() {
  const child = spawn("npm", ["run", "dev:worker"], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(WORKER_PORT), API_BEARER_TOKEN: SERVICE, ACCESS_CONFIG: accessConfig(), ...SESSION_ENV },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  servers.push(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dev:worker exited ${child.exitCode}:\n${output}`);
    try {
      const answer = await fetch(`http://127.0.0.1:${WORKER_PORT}/api/article?take=1`);
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`dev:worker did not answer in 300 s:\n${output}`);
}

for (const runtime of ["local server", "wrangler dev"]) describe(`row routes over HTTP (${runtime})`, () => {
  before(async () => {
    if (runtime === "wrangler dev") await startWorker();
    active = runtime === "wrangler dev" ? WORKER_PORT : PORT;
  });

  it("findMany: every published article, newest first, with take/skip/select, anonymous for a public model", async () => {
    const rows = JSON.parse(readFileSync(path.join(project, "data", "article.json"), "utf8"));
    const all = await call("GET", "/api/article" + q({ orderBy: { published_at: "desc" } }));
    assert.equal(all.status, 200);
    assert.equal(all.body.length, rows.length);
    assert.ok(all.body.length >= 3);
    const times = all.body.map((r) => r.published_at);
    assert.deepEqual(times, [...times].sort().reverse());
    // seo holds a private nested field: its column is private, left out of anonymous reads.
    assert.equal("seo" in all.body[0], false);
    const page = await call("GET", "/api/article" + q({ orderBy: [{ published_at: "desc" }], take: 2, skip: 1, select: { title: true, slug: true } }));
    assert.deepEqual(page.body, all.body.slice(1, 3).map((r) => ({ slug: r.slug, title: r.title })));
  });

  it("where: equals shorthand, contains/startsWith/endsWith, in/not, lt/gte, AND/OR/NOT", async () => {
    const all = (await call("GET", "/api/article", { token: SERVICE })).body;
    const first = all[0];
    const word = first.title.split(" ")[0];
    const expectMatch = async (where, predicate) => {
      const answer = await call("GET", "/api/article" + q({ where }), { token: SERVICE });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.map((r) => r.id).sort(), all.filter(predicate).map((r) => r.id).sort(), JSON.stringify(where));
    };
    await expectMatch({ slug: first.slug }, (r) => r.slug === first.slug);
    await expectMatch({ title: { contains: word } }, (r) => r.title.includes(word));
    await expectMatch({ title: { startsWith: word } }, (r) => r.title.startsWith(word));
    await expectMatch({ slug: { endsWith: first.slug.slice(-3) } }, (r) => r.slug.endsWith(first.slug.slice(-3)));
    await expectMatch({ slug: { in: [first.slug, all[1].slug] } }, (r) => r.slug === first.slug || r.slug === all[1].slug);
    await expectMatch({ slug: { not: first.slug } }, (r) => r.slug !== first.slug);
    await expectMatch({ published_at: { gte: all[1].published_at } }, (r) => r.published_at >= all[1].published_at);
    await expectMatch({ published_at: { lt: all[1].published_at } }, (r) => r.published_at < all[1].published_at);
    await expectMatch({ OR: [{ slug: first.slug }, { slug: all[2].slug }] }, (r) => r.slug === first.slug || r.slug === all[2].slug);
    await expectMatch({ AND: [{ title: { contains: word } }], NOT: { slug: first.slug } }, (r) => r.title.includes(word) && r.slug !== first.slug);
    await expectMatch({ format: "video" }, (r) => r.format === "video");
    await expectMatch({ author_id: null }, (r) => r.author_id === null);
    await expectMatch({ title: { contains: "100%_" } }, () => false);
  });

  it("findManyPaginated and findUnique", async () => {
    const total = (await call("GET", "/api/article")).body.length;
    const page = await call("GET", "/api/article/paginated" + q({ take: 2, skip: 1 }));
    assert.equal(page.status, 200);
    assert.equal(page.body.total, total);
    assert.equal(page.body.data.length, 2);
    assert.equal(page.body.hasMore, total > 3);
    const last = await call("GET", "/api/article/paginated" + q({ take: 5, skip: total - 1 }));
    assert.equal(last.body.hasMore, false);
    const one = (await call("GET", "/api/article")).body[0];
    assert.deepEqual((await call("GET", "/api/article/unique" + q({ where: { slug: one.slug } }))).body, one);
    assert.equal((await call("GET", "/api/article/unique" + q({ where: { slug: "no-such-slug" } }))).body, null);
    const notUnique = await call("GET", "/api/article/unique" + q({ where: { title: one.title } }));
    assert.equal(notUnique.status, 400);
    assert.equal(notUnique.body.error.code, "invalid_request");
  });

  it("refuses malformed reads with 400 invalid_request naming the path", async () => {
    for (const [args, path] of [
      [{ where: { nope: 1 } }, "where.nope"],
      [{ where: { title: { contanis: "x" } } }, "where.title.contanis"],
      [{ orderBy: { title: "up" } }, "orderBy.title"],
      [{ take: -1 }, "take"],
      [{ limit: 3 }, "limit"],
    ]) {
      const answer = await call("GET", "/api/article" + q(args));
      assert.equal(answer.status, 400, JSON.stringify(args));
      assert.equal(answer.body.error.code, "invalid_request");
      assert.equal(answer.body.error.path, path);
    }
    assert.equal((await call("GET", "/api/article?where=%7Bnot-json")).status, 400);
    // A private column is unknown to a reader who may not see it: filtering would reveal its values.
    const privateFilter = await call("GET", "/api/article" + q({ where: { seo: null } }));
    assert.equal(privateFilter.status, 400);
    assert.equal(privateFilter.body.error.path, "where.seo");
    assert.equal((await call("GET", "/api/article" + q({ where: { seo: null } }), { token: SERVICE })).status, 200);
  });

  it("create, update, delete with the service token; closed bodies; record_exists; write answers omit private fields", async () => {
    const created = await call("POST", "/api/article", { token: SERVICE, body: { data: { id: "contract-1", slug: "contract-one", title: "Contract one", seo: { title: "S", review_note: "private" } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.id, "contract-1");
    assert.equal(created.body.title, "Contract one");
    assert.equal("seo" in created.body, false);
    const again = await call("POST", "/api/article", { token: SERVICE, body: { data: { slug: "contract-one", title: "Again" } } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "record_exists");
    // Dates are real calendar dates, as the CMS checks them (a probe stored 2020-13-45).
    for (const body of [{ data: { title: "x", bogus: 1 } }, { data: { title: "x" }, extra: true }, { data: { title: 5 } }, { data: {} }, "not json", { data: { title: "x", published_date: "2021-02-29" } }, { data: { title: "x", published_date: "2020-13-45" } }]) {
      const refused = await call("POST", "/api/article", { token: SERVICE, body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error.code, "invalid_request");
    }
    const generated = await call("POST", "/api/author", { token: SERVICE, body: { data: { name: "Generated id" } } });
    assert.equal(generated.status, 201);
    assert.match(generated.body.id, /^[0-9a-f]{32}$/);
    const leapDay = await call("PUT", "/api/article", { token: SERVICE, body: { where: { slug: "contract-one" }, data: { published_date: "2024-02-29" } } });
    assert.equal(leapDay.body.published_date, "2024-02-29", JSON.stringify(leapDay.body));
    const updated = await call("PUT", "/api/article", { token: SERVICE, body: { where: { slug: "contract-one" }, data: { title: "Contract one, edited" } } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.title, "Contract one, edited");
    assert.ok(updated.body.updated_at >= created.body.updated_at);
    const missing = await call("PUT", "/api/article", { token: SERVICE, body: { where: { id: "nope" }, data: { title: "x" } } });
    assert.equal(missing.status, 404);
    const noTarget = await call("PUT", "/api/article", { token: SERVICE, body: { where: { id: "contract-1" }, data: { author_id: "grp_none" } } });
    assert.equal(noTarget.status, 422);
    assert.equal(noTarget.body.error.code, "relation_target_missing");
    const removed = await call("DELETE", "/api/author", { token: SERVICE, body: { where: { id: generated.body.id } } });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.name, "Generated id");
    assert.equal((await call("GET", "/api/author/unique" + q({ where: { id: generated.body.id } }), { token: SERVICE })).body, null);
  });

  it("access: 401 without credentials, 403 for a read token writing or outside its models, wildcard for openapi.json", async () => {
    const anonymous = await call("POST", "/api/article", { body: { data: { title: "x" } } });
    assert.equal(anonymous.status, 401);
    assert.equal((await call("GET", "/api/note")).status, 401);
    assert.equal((await call("GET", "/api/note", { token: "not-a-token" })).status, 401);
    const reader = await call("GET", "/api/author", { token: READER });
    assert.equal(reader.status, 200);
    const outside = await call("GET", "/api/note", { token: READER });
    assert.equal(outside.status, 403);
    assert.equal(outside.body.error.code, "forbidden");
    const writing = await call("POST", "/api/author", { token: READER, body: { data: { name: "x" } } });
    assert.equal(writing.status, 403);
    assert.equal((await call("GET", "/api/note", { token: WILDCARD })).status, 200);
    assert.equal((await call("GET", "/api/openapi.json", { token: READER })).status, 403);
    assert.equal((await call("GET", "/api/openapi.json")).status, 401);
    const service = await call("GET", "/api/note", { token: SERVICE });
    assert.equal(service.status, 200);
  });

  it("absent operations: reads have no POST alias; no bulk, aggregate, count, groupBy, upsert or updateEach route", async () => {
    for (const pathname of ["/api/article/paginated", "/api/article/unique"]) {
      const alias = await call("POST", pathname, { token: SERVICE, body: { where: {} } });
      assert.equal(alias.status, 405, pathname);
      assert.equal(alias.headers.get("allow"), "GET");
    }
    for (const name of ["createMany", "updateMany", "deleteMany", "aggregate", "count", "groupBy", "upsert", "updateEach"]) {
      const absent = await call("POST", `/api/article/${name}`, { token: SERVICE, body: { data: {} } });
      assert.equal(absent.status, 404, name);
      assert.equal(absent.body.error.code, "not_found");
    }
  });

  it("a disabled operation leaves execution and openapi.json; its path stays reserved", async () => {
    const removed = await call("DELETE", "/api/article", { token: SERVICE, body: { where: { id: "contract-1" } } });
    assert.equal(removed.status, 405);
    assert.equal(removed.headers.get("allow"), "GET, POST, PUT");
    const gone = await call("GET", "/api/note/paginated", { token: SERVICE });
    assert.equal(gone.status, 404);
    const openapi = await call("GET", "/api/openapi.json", { token: WILDCARD });
    assert.equal(openapi.status, 200);
    assert.equal(openapi.body.paths["/api/article"].delete, undefined);
    assert.equal(openapi.body.paths["/api/article"].get.operationId, "Article.findMany");
    assert.equal(openapi.body.paths["/api/note/paginated"], undefined);
    const result = await new Validator().validate(openapi.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  pointTests({ call, token: SERVICE, ...(runtime === "local server" ? { project: () => project } : {}) });
  fileTests({
    call,
    token: SERVICE,
    readers: { outside: READER, wildcard: WILDCARD },
    project: () => project,
    fetchRaw: async (pathname, token) => {
      const response = await fetch(`http://127.0.0.1:${active}${pathname}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
      return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
    },
    startLocal: runtime === "local server" ? (env) => startBackend(FILES_PORT, { API_BEARER_TOKEN: SERVICE, ACCESS_CONFIG: accessConfig(), ...env }) : undefined,
    localPort: FILES_PORT,
    workerConfig: runtime === "wrangler dev" ? () => path.join(project, "wrangler.jsonc") : undefined,
  });
  translationTests({ call, token: SERVICE, dataRows: (table) => JSON.parse(readFileSync(path.join(project, "data", `${table}.json`), "utf8")) });
  relationRoutes({ runtime, get project() { return project; }, call, q, SERVICE, READER, WILDCARD });
  sessionContract({ it, port: () => active, service: SERVICE, project: () => project, startBackend: runtime === "local server" ? startBackend : undefined, backendEnv: () => ({ ACCESS_CONFIG: accessConfig() }) });

  // A second wrangler dev without the token would cost half a minute more: the local server tells this one.
  if (runtime === "local server") it("a service write with no API_BEARER_TOKEN is 503 writes_unavailable", async () => {
    const started = await startBackend(PORT + 2, { ACCESS_CONFIG: accessConfig() });
    assert.ok(started.child, started.stderr);
    const refused = await call("POST", "/api/author", { port: PORT + 2, body: { data: { name: "x" } } });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, "writes_unavailable");
    assert.equal((await call("GET", "/api/article", { port: PORT + 2 })).status, 200);
  });
});
