/**
 * End to end against `wrangler dev`: the generated public client type-checks under strict
 * TypeScript and works against the running service. Run: npm run test:e2e
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8791;
let server;
let client;
const work = path.join(root, ".tmp", "e2e-client");

/** The client's fetch option: through node:http with the site's Host header. */
const viaHost = (host) => async (url, init) => {
  const u = new URL(url);
  const res = await request(PORT, { host, path: u.pathname + u.search, headers: init?.headers ?? {} });
  return { status: res.status, ok: res.status >= 200 && res.status < 300, json: async () => JSON.parse(res.text) };
};

before(async () => {
  server = await startDevServer({ port: PORT });
  const demo = server.info.sites.find((s) => s.slug === "demo");
  const signIn = await request(PORT, { method: "POST", host: "admin.localhost", path: "/api/session", body: server.info.admin });
  assert.equal(signIn.status, 200, signIn.text);
  const cookie = String(signIn.headers["set-cookie"]).split(";")[0];
  const source = await request(PORT, { host: "admin.localhost", path: "/api/models/public-client.ts", headers: { cookie, "x-site-id": demo.id } });
  assert.equal(source.status, 200, source.text);
  client = source.text;
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, "client.ts"), client);
});

after(() => server?.stop());

describe("generated public client", () => {
  it("type-checks under strict TypeScript, and misuse does not", () => {
    writeFileSync(
      path.join(work, "usage.ts"),
      `import { createClient, type Article } from "./client";
const api = createClient({ baseUrl: "http://demo.localhost" });
export async function titles(): Promise<string[]> {
  const page = await api.list("article", { locale: "fr", limit: 5, tag: [["categories", "woodcraft"]] });
  const first: Article | undefined = page.data[0];
  const author = first?.relations.author[0]?.display ?? null;
  return page.data.map((a) => a.fields.title ?? String(author));
}
`,
    );
    writeFileSync(path.join(work, "misuse.ts"), `import { createClient } from "./client";\nconst api = createClient({ baseUrl: "x" });\nvoid api.list("note");\nvoid api.list("article", { tag: [["title", "x"]] });\n`);
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const args = ["--ignoreConfig", "--noEmit", "--strict", "--target", "es2022", "--module", "es2022", "--moduleResolution", "bundler", "--lib", "es2022,dom", "--skipLibCheck"];
    const ok = spawnSync(process.execPath, [tsc, ...args, path.join(work, "usage.ts")], { encoding: "utf8" });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const bad = spawnSync(process.execPath, [tsc, ...args, path.join(work, "misuse.ts")], { encoding: "utf8" });
    assert.notEqual(bad.status, 0, "a private model and a non-relation filter must not type-check");
    assert.match(bad.stdout, /"note"/);
  });

  it("reads lists, items, filters, locales, search and a private model from the running service", async () => {
    const esbuild = await import("esbuild");
    const js = await esbuild.transform(client, { loader: "ts", format: "esm", target: "node20" });
    writeFileSync(path.join(work, "client.mjs"), js.code);
    const mod = await import(pathToFileURL(path.join(work, "client.mjs")).href);
    const api = mod.createClient({ baseUrl: "http://demo.localhost", fetch: viaHost("demo.localhost") });
    assert.deepEqual(await api.health(), { ok: true, site: "demo" });
    const page = await api.list("article", { limit: 5 });
    assert.equal(page.data.length, 5);
    assert.equal(page.page.has_more, true);
    const all = await api.all("article", { limit: 50 });
    assert.ok(all.length >= 40, `only ${all.length} articles`);
    assert.equal(new Set(all.map((a) => a.id)).size, all.length);
    const item = await api.item("article", "reading-the-tide-tables", { locale: "fr" });
    assert.equal(item.data.locale, "fr");
    const wood = await api.list("article", { tag: [["categories", "woodcraft"]], limit: 50 });
    assert.ok(wood.data.length > 0 && wood.data.every((a) => a.relations.categories.some((c) => c.slug === "woodcraft")));
    const authorId = all[0].relations.author[0].instance_id;
    const byAuthor = await api.list("article", { relation: [["author", authorId]], limit: 50 });
    assert.ok(byAuthor.data.length > 0 && byAuthor.data.every((a) => a.relations.author[0].instance_id === authorId));
    const found = await api.search("tide");
    assert.ok(found.data.length > 0);
    await assert.rejects(api.item("article", "no-such-thing"), (e) => e instanceof mod.DriftwoodError && e.status === 404 && e.code === "not_found");
    const privateApi = mod.createClient({ baseUrl: "http://demo.localhost", token: server.info.site_api_token, fetch: viaHost("demo.localhost") });
    const notes = await privateApi.list("note");
    assert.ok(notes.data.length > 0);
    await assert.rejects(api.list("note"), (e) => e.status === 404);
  });
});
