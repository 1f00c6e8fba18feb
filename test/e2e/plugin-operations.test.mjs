/**
 * End to end against `wrangler dev` and the real demo plugin process (examples/plugin/server.mjs,
 * started by the dev server as `npm start` starts it): plugin operations (spec 2 rules 12–13,
 * docs/plugin-operations.md), content policies (rule 14, docs/plugin-policies.md) and the demo's
 * media source (docs/media.md, "Media sources of plugins").
 * Run: npm run test:e2e -- test/e2e/plugin-operations.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8802;
let server;
let article;
let keys = 0;

const json = (res) => JSON.parse(res.text);

/** A management API call with the seed's management token (every scope); writes carry a fresh key unless given. */
const manage = (method, path, body, key) =>
  request(PORT, {
    method,
    host: "demo.localhost",
    path: `/api/manage/v1${path}`,
    body,
    headers: { authorization: `Bearer ${server.info.management_token}`, ...(method === "GET" ? {} : { "idempotency-key": key ?? `e2e-ops-${Date.now()}-${keys++}` }) },
  });

const invoke = (operation, body = {}, key) => manage("POST", `/plugins/demo-helper/operations/${operation}/invoke`, body, key);

const createArticle = (title, slug) => manage("POST", "/entries", { model_id: article.id, slug, fields: { title } });

before(async () => {
  server = await startDevServer({ port: PORT });
  const models = await manage("GET", "/models");
  assert.equal(models.status, 200, models.text);
  article = json(models).data.find((m) => m.slug === "article");
});

after(() => server?.stop());

describe("demo plugin operations", () => {
  it("lists the operations the credential may run, with their fields", async () => {
    const res = await manage("GET", "/plugins/operations");
    assert.equal(res.status, 200, res.text);
    const ops = json(res).data.filter((op) => op.plugin_id === "demo-helper");
    assert.deepEqual(
      ops.map((op) => [op.id, op.scope, op.destructive, op.automation, op.input]),
      [
        ["word-count", "site", false, false, "none"],
        ["summarize", "entry", false, false, "optional"],
        ["archive", "entry", true, false, "none"],
        ["nightly-digest", "site", false, true, "none"],
        ["slow", "site", false, false, "none"],
      ],
    );
    const summarize = ops.find((op) => op.id === "summarize");
    assert.deepEqual(summarize.input_schema, { type: "object", properties: { max_words: { type: "integer", minimum: 1, maximum: 100 } } });
    assert.deepEqual(summarize.result, { blocks: ["text", "json"] });
    assert.ok(summarize.model_ids.includes(article.id));
  });

  it("runs a site operation: the plugin exchanges its one-time code and answers rows and text", { timeout: 60_000 }, async () => {
    const key = `e2e-word-count-${Date.now()}`;
    const res = await invoke("word-count", {}, key);
    assert.equal(res.status, 200, res.text);
    const body = json(res);
    assert.equal(body.outcome, "completed");
    assert.deepEqual(body.result.blocks.map((b) => b.type), ["text", "rows"]);
    assert.deepEqual(body.result.blocks[1].columns, ["model", "entries", "words"]);
    assert.ok(body.result.blocks[1].rows.some((row) => row[0] === "article" && row[2] > 0), res.text);
    // Same key and body: the first answer again, the plugin not called again; another body: refused.
    const replay = await invoke("word-count", {}, key);
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(json(replay), { ...body, replayed: true });
    const reused = await invoke("word-count", { input: {} }, key);
    assert.equal(reused.status, 409, reused.text);
    assert.equal(json(reused).error.code, "idempotency_key_reused");
  });

  it("runs an entry operation with checked input, and refuses bad input before calling the plugin", { timeout: 60_000 }, async () => {
    const created = await createArticle("One two three four five six seven", `summarize-me-${Date.now()}`);
    assert.equal(created.status, 201, created.text);
    const id = json(created).instance_id;
    const res = await invoke("summarize", { instance_id: id, input: { max_words: 3 } });
    assert.equal(res.status, 200, res.text);
    const [text, data] = json(res).result.blocks;
    assert.deepEqual(text, { type: "text", text: "One two three …" });
    assert.deepEqual(data, { type: "json", value: { instance_id: id, words: 7, kept: 3 } });
    const bad = await invoke("summarize", { instance_id: id, input: { max_words: 0, style: "short" } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(json(bad).error.code, "input_invalid");
    assert.deepEqual(json(bad).error.issues.map((i) => [i.path, i.code]), [["max_words", "too_small"], ["style", "unknown_key"]]);
    const noEntry = await invoke("summarize", { input: { max_words: 3 } });
    assert.equal(noEntry.status, 400, noEntry.text);
    const siteWithEntry = await invoke("word-count", { instance_id: id });
    assert.equal(siteWithEntry.status, 400, siteWithEntry.text);
    const unknown = await invoke("nope");
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(json(unknown).error.code, "operation_unavailable");
  });

  it("a destructive operation acts as the creator (unpublishes); the plugin's refusal is 422 plugin_refused", { timeout: 60_000 }, async () => {
    const created = await createArticle("To be archived", `archive-me-${Date.now()}`);
    const id = json(created).instance_id;
    const refused = await invoke("archive", { instance_id: id });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(json(refused).error.refusal, { code: "not_published", message: "Only a published entry can be archived." });
    const published = await manage("POST", `/entries/${id}/publish`, {});
    assert.equal(published.status, 200, published.text);
    const archived = await invoke("archive", { instance_id: id });
    assert.equal(archived.status, 200, archived.text);
    assert.match(json(archived).result.blocks[0].text, /Archived "To be archived"/);
    const entry = await manage("GET", `/entries/${id}`);
    assert.equal(json(entry).published_version_id, null, entry.text);
  });

  it("gives up on a plugin slower than 5000 ms (504 plugin_timeout); the same key meanwhile is 409 invocation_in_progress", { timeout: 60_000 }, async () => {
    const started = Date.now();
    const key = `e2e-slow-${Date.now()}`;
    const [res, second] = await Promise.all([invoke("slow", {}, key), new Promise((r) => setTimeout(r, 1000)).then(() => invoke("slow", {}, key))]);
    assert.equal(res.status, 504, res.text);
    assert.equal(json(res).error.code, "plugin_timeout");
    assert.ok(Date.now() - started >= 4900);
    assert.equal(second.status, 409, second.text);
    assert.equal(json(second).error.code, "invocation_in_progress");
  });

  it("MCP: each operation the credential may run is a tool with explicit destructiveHint; the automation one is none", { timeout: 60_000 }, async () => {
    const rpc = async (method, params) => {
      const res = await request(PORT, {
        method: "POST",
        host: "demo.localhost",
        path: "/api/manage/mcp",
        headers: { authorization: `Bearer ${server.info.management_token}`, "mcp-protocol-version": "2025-06-18" },
        body: { jsonrpc: "2.0", id: 1, method, ...(params ? { params } : {}) },
      });
      assert.equal(res.status, 200, res.text);
      return json(res);
    };
    const tools = (await rpc("tools/list")).result.tools.filter((t) => t.name.startsWith("plugin_demo_helper_op_"));
    assert.deepEqual(
      tools.map((t) => [t.name, t.annotations.destructiveHint]),
      [
        ["plugin_demo_helper_op_word_count", false],
        ["plugin_demo_helper_op_summarize", false],
        ["plugin_demo_helper_op_archive", true],
        ["plugin_demo_helper_op_slow", false],
      ],
    );
    assert.deepEqual(tools[1].inputSchema.required, ["instance_id"]);
    const called = await rpc("tools/call", { name: "plugin_demo_helper_op_word_count", arguments: { idempotency_key: `e2e-mcp-wc-${Date.now()}` } });
    assert.equal(called.result.structuredContent.status, 200, JSON.stringify(called));
    assert.equal(called.result.structuredContent.body.outcome, "completed");
    const automation = await rpc("tools/call", { name: "plugin_demo_helper_op_nightly_digest", arguments: {} });
    assert.equal(automation.error?.message, "Unknown tool: plugin_demo_helper_op_nightly_digest");
  });

  it("a disabled plugin's operation is 409 plugin_unavailable and unlisted; an unknown plugin is 404 not_found", { timeout: 60_000 }, async () => {
    const signIn = await request(PORT, { method: "POST", host: "admin.localhost", path: "/api/session", body: server.info.admin });
    assert.equal(signIn.status, 200, signIn.text);
    const demo = server.info.sites.find((site) => site.slug === "demo");
    const session = { cookie: String(signIn.headers["set-cookie"]).split(";")[0], csrf: json(signIn).csrf_token };
    const admin = (path) => request(PORT, { method: "POST", host: "admin.localhost", path, body: {}, headers: { cookie: session.cookie, "x-site-id": demo.id, "x-csrf-token": session.csrf } });
    const id = server.info.plugin_installation_id;
    assert.equal((await admin(`/api/plugins/${id}/disable`)).status, 200);
    try {
      const res = await invoke("word-count");
      assert.equal(res.status, 409, res.text);
      assert.equal(json(res).error.code, "plugin_unavailable");
      const listed = await manage("GET", "/plugins/operations");
      assert.equal(json(listed).data.filter((op) => op.plugin_id === "demo-helper").length, 0);
    } finally {
      assert.equal((await admin(`/api/plugins/${id}/activate`)).status, 200);
    }
    const unknown = await manage("POST", "/plugins/no-such-plugin/operations/word-count/invoke", {});
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(json(unknown).error.code, "not_found");
  });
});

describe("demo plugin media source", () => {
  it("lists sample-images, searches its items, imports one by copy and links one by reference", { timeout: 60_000 }, async () => {
    const sources = await manage("GET", "/media/sources");
    assert.equal(sources.status, 200, sources.text);
    assert.deepEqual(
      json(sources).data.filter((s) => s.plugin_id === "demo-helper").map((s) => [s.source_id, s.modes]),
      [["sample-images", ["copy", "reference"]]],
    );
    const items = await manage("GET", "/media/sources/demo-helper/sample-images/items?q=image%201");
    assert.equal(items.status, 200, items.text);
    const found = json(items).data;
    assert.ok(found.length > 0 && found.length <= 24, items.text);
    assert.ok(found.every((i) => i.title.includes("image 1") && i.kind === "image"), items.text);
    const imported = await manage("POST", "/media/sources/demo-helper/sample-images/import", { item_id: found[0].id, mode: "copy" });
    assert.ok(imported.status === 201 || imported.status === 200, imported.text);
    const media = json(imported).media;
    assert.equal(media.mime_type, "image/png");
    assert.equal(media.file_name, found[0].file_name);
    const read = await manage("GET", `/media/${media.id}`);
    assert.equal(read.status, 200, read.text);
    // By reference: the item links the demo's file address (loopback is allowed in the local run).
    const linked = await manage("POST", "/media/sources/demo-helper/sample-images/import", { item_id: found[1].id, mode: "reference" });
    assert.ok(linked.status === 201 || linked.status === 200, linked.text);
    assert.match(json(linked).media.external_url, /\/media\/sample-images\/[0-9]+\.png$/);
    assert.equal(json(linked).media.mime_type, "image/png");
  });
});

describe("demo plugin content policies", () => {
  it("refuses a title containing FORBIDDEN and writes nothing", async () => {
    const slug = `forbidden-${Date.now()}`;
    const res = await createArticle("A FORBIDDEN title", slug);
    assert.equal(res.status, 422, res.text);
    const error = json(res).error;
    assert.equal(error.code, "plugin_policy_refused");
    assert.equal(error.policy_id, "no-forbidden-words");
    assert.equal(error.plugin_name, "Demo helper");
    assert.deepEqual(error.refusal, { code: "forbidden_word", message: "The title may not contain the word FORBIDDEN." });
    assert.deepEqual(error.fields, ["title"]);
    const listed = await manage("GET", `/entries?model_id=${article.id}&slug=${slug}&lang=en`);
    assert.equal(json(listed).data.length, 0, listed.text);
  });

  it("trims the title on a save and says so in policy_results", async () => {
    const res = await createArticle("   Spaced title   ", `spaced-${Date.now()}`);
    assert.equal(res.status, 201, res.text);
    const body = json(res);
    assert.equal(body.fields.title, "Spaced title");
    assert.deepEqual(
      body.policy_results.map((r) => [r.plugin_name, r.policy_id, r.outcome, r.fields]),
      [["Demo helper", "trim-title", "transformed", ["title"]]],
    );
  });

  it("with the plugin down: operations are 502 plugin_unreachable and saves 503 plugin_policy_unavailable", { timeout: 60_000 }, async () => {
    await server.plugin.stop();
    const op = await invoke("word-count");
    assert.equal(op.status, 502, op.text);
    assert.equal(json(op).error.code, "plugin_unreachable");
    const save = await createArticle("While the plugin is down", `down-${Date.now()}`);
    assert.equal(save.status, 503, save.text);
    assert.equal(json(save).error.code, "plugin_policy_unavailable");
    assert.equal(json(save).error.failure, "unreachable");
  });
});
