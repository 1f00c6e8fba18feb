/**
 * End to end against `wrangler dev` (issue #29 "Done when"): the example static-site build
 * (examples/static-site/build.mjs) mirrors the demo site with the generated client's `sync()`.
 * First run: the full snapshot. After an edit (published), a new publication, an unpublish and a
 * Trash: exactly those changes. Run:
 *   unshare -n bash -c 'ip link set lo up && npm run test:e2e -- test/e2e/static-site-sync.test.mjs'
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";
import { build } from "../../examples/static-site/build.mjs";

const PORT = 8806;
const work = path.join(root, ".tmp", "e2e-static-site");
let server;
let mod;

const viaHost = (host) => async (url, init) => {
  const u = new URL(url);
  const res = await request(PORT, { host, path: u.pathname + u.search, headers: init?.headers ?? {} });
  return { status: res.status, ok: res.status >= 200 && res.status < 300, json: async () => JSON.parse(res.text) };
};

const manage = async (method, pathname, body) => {
  const res = await request(PORT, {
    method,
    host: "demo.localhost",
    path: `/api/manage/v1${pathname}`,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${server.info.management_token}`, "content-type": "application/json", ...(method === "GET" ? {} : { "idempotency-key": `sync-${Date.now()}-${Math.random()}` }) },
  });
  try {
    return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
  } catch {
    throw new Error(`${method} ${pathname}: ${res.status} ${res.text.slice(0, 300)}`);
  }
};

before(async () => {
  server = await startDevServer({ port: PORT });
  const demo = server.info.sites.find((s) => s.slug === "demo");
  const signIn = await request(PORT, { method: "POST", host: "admin.localhost", path: "/api/session", body: server.info.admin });
  assert.equal(signIn.status, 200, signIn.text);
  const cookie = String(signIn.headers["set-cookie"]).split(";")[0];
  const source = await request(PORT, { host: "admin.localhost", path: "/api/models/public-client.ts", headers: { cookie, "x-site-id": demo.id } });
  assert.equal(source.status, 200, source.text);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const esbuild = await import("esbuild");
  const js = await esbuild.transform(source.text, { loader: "ts", format: "esm", target: "node20" });
  writeFileSync(path.join(work, "client.mjs"), js.code);
  mod = await import(pathToFileURL(path.join(work, "client.mjs")).href);
});

after(() => server?.stop());

describe("static-site build with sync()", () => {
  it("mirrors the demo: full snapshot first, then exactly an edit, a publication, an unpublish and a Trash", async () => {
    const api = mod.createClient({ baseUrl: "http://demo.localhost", fetch: viaHost("demo.localhost") });
    const out = path.join(work, "public");
    const first = await build({ api, outDir: out });
    assert.equal(first.reset, false);
    // Every published article, author and category in every language, and nothing private.
    const articles = [...(await api.all("article", { limit: 100 })), ...(await api.all("article", { limit: 100, locale: "fr" }))];
    const entries = first.changes.filter((r) => r.type === "entry");
    assert.ok(entries.length > 40, `${entries.length} items`);
    assert.ok(entries.every((r) => r.item.model !== "note"), "no private model without a token");
    const mirrored = new Set(entries.map((r) => r.item.id));
    for (const a of articles) if (a.locale === "en" || a.locale === "fr") assert.ok(mirrored.has(a.id), `article ${a.id} (${a.locale}) mirrored`);
    assert.ok(first.changes.some((r) => r.type === "media"), "the pinned media items are mirrored");
    const index = JSON.parse(readFileSync(path.join(out, "index.json"), "utf8"));
    assert.equal(index.items.length, entries.length);

    // Nothing changed: a second run applies nothing.
    assert.deepEqual((await build({ api, outDir: out })).changes, []);

    // Two articles no other item links to: their changes re-render nothing else.
    const unlinked = [];
    for (const a of (await api.list("article", { limit: 20 })).data) {
      if ((await api.relatedFrom("article", a.slug)).data.length === 0) unlinked.push(a);
      if (unlinked.length === 2) break;
    }
    const [edited, withdrawn] = unlinked;
    assert.ok(withdrawn, "two unlinked articles");
    const current = await manage("GET", `/entries/${edited.id}`);
    const saved = await manage("PUT", `/entries/${edited.id}`, { expected_version_id: current.body.current_version_id, fields: { title: "Edited for the mirror" } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const republished = await manage("POST", `/entries/${edited.id}/publish`, {});
    assert.equal(republished.status, 200, JSON.stringify(republished.body));
    const articleModel = (await manage("GET", "/models")).body.data.find((m) => m.slug === "article");
    const created = await manage("POST", "/entries", { model_id: articleModel.id, slug: "fresh-for-the-mirror", fields: { title: "Fresh for the mirror" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const published = await manage("POST", `/entries/${created.body.instance_id}/publish`, {});
    assert.equal(published.status, 200, JSON.stringify(published.body));
    assert.equal((await manage("POST", `/entries/${withdrawn.id}/unpublish`, {})).status, 200);
    const trashed = await manage("POST", `/entries/${withdrawn.id}/trash`, { language_only: true });
    assert.equal(trashed.status, 200, JSON.stringify(trashed.body));

    const second = await build({ api, outDir: out });
    assert.equal(second.reset, false);
    const contentChanges = second.changes.filter((r) => r.type === "entry" || r.type === "deleted");
    assert.deepEqual(
      contentChanges.map((r) => (r.type === "entry" ? `entry ${r.item.id} ${r.item.fields.title}` : `deleted ${r.id}`)),
      [`entry ${edited.id} Edited for the mirror`, `entry ${created.body.instance_id} Fresh for the mirror`, `deleted ${withdrawn.id}`],
    );
    assert.ok(existsSync(path.join(out, "article", "en", "fresh-for-the-mirror.json")));
    assert.ok(!existsSync(path.join(out, "article", withdrawn.locale, `${withdrawn.slug}.json`)), "the withdrawn page is removed");
    assert.equal(JSON.parse(readFileSync(path.join(out, "article", edited.locale, `${edited.slug}.json`), "utf8")).fields.title, "Edited for the mirror");
    // And again nothing.
    assert.deepEqual((await build({ api, outDir: out })).changes, []);
  });
});
