/**
 * End to end against `wrangler dev`: the official MCP TypeScript SDK client (`@modelcontextprotocol/sdk`,
 * Streamable HTTP transport) on the demo's remote MCP server, with the seed's management token:
 * connect, list the tools, create an entry, add its French translation, publish it, and read it on
 * the public API. Run: node --test test/e2e/mcp-sdk.test.mjs
 */
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8797;
const HOST = `demo.localhost:${PORT}`;
let server;
let client;

/**
 * A `fetch` for the transport that connects to 127.0.0.1 whatever the URL's host: `*.localhost`
 * does not resolve on every machine (it does not here), and Node's fetch replaces a Host header.
 * The request keeps its URL's host as `Host` (the site is chosen by Host); the answer is a real
 * `Response`, as the SDK expects.
 */
function loopbackFetch(input, init = {}) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = Object.fromEntries(new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined)));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: url.port, method: init.method ?? "GET", path: `${url.pathname}${url.search}`, agent: false, headers: { ...headers, host: url.host } },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(", ") : value);
          const status = res.statusCode ?? 0;
          resolve(new Response([204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      },
    );
    // The SDK gives every request the transport's one signal: the listener goes with the request.
    const abort = () => req.destroy(new Error("aborted"));
    init.signal?.addEventListener("abort", abort, { once: true });
    req.on("close", () => init.signal?.removeEventListener("abort", abort));
    req.on("error", reject);
    if (init.body !== undefined && init.body !== null) req.write(init.body);
    req.end();
  });
}

/** The public API on the demo host. */
const publicGet = (path) => request(PORT, { host: "demo.localhost", path });

/** A tool call's structured result (the management answer: status, idempotency_key, body). */
async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(result.structuredContent, `${name}: no structuredContent`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${name}: text mirrors structuredContent`);
  return { ...result.structuredContent, isError: result.isError };
}

before(async () => {
  server = await startDevServer({ port: PORT });
  assert.match(server.info.management_token, /^dwm_/);
  client = new Client({ name: "driftwood-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://${HOST}/api/manage/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${server.info.management_token}` } },
    fetch: loopbackFetch,
  });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  server?.stop();
});

describe("official MCP SDK client on the remote MCP server", () => {
  it("initializes: server info and the tools capability, no session", () => {
    assert.equal(client.getServerVersion()?.name, "driftwood-management");
    assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: false });
  });

  it("lists the tools: the entry lifecycle and the uploads (content_base64, file_name)", async () => {
    const { tools, nextCursor } = await client.listTools();
    assert.equal(nextCursor, undefined);
    const names = tools.map((t) => t.name);
    for (const name of ["create_entry", "add_entry_language", "publish_entry", "get_entry", "list_models"]) assert.ok(names.includes(name), name);
    for (const name of ["upload_media", "replace_media", "set_media_original"]) assert.ok(names.includes(name), name);
    const upload = tools.find((t) => t.name === "upload_media");
    assert.deepEqual(upload.inputSchema.required, ["content_base64", "file_name"]);
    const publish = tools.find((t) => t.name === "publish_entry");
    assert.equal(publish.annotations?.readOnlyHint, false);
    assert.ok(publish.inputSchema.properties?.idempotency_key, "write tools take an idempotency_key");
  });

  it("creates an entry, adds its French translation, publishes both and reads them on the public API", { timeout: 60_000 }, async () => {
    const models = await call("list_models", {});
    assert.equal(models.status, 200);
    const article = models.body.data.find((m) => m.slug === "article");
    assert.ok(article, "demo model article");

    const created = await call("create_entry", { model_id: article.id, slug: "written-by-the-sdk", fields: { title: "Written by the MCP SDK" } });
    assert.equal(created.isError, false);
    assert.equal(created.status, 201);
    assert.match(created.idempotency_key, /^mcp-/);
    const id = created.body.instance_id;

    const fr = await call("add_entry_language", { id, lang: "fr", slug: "ecrit-par-le-sdk", fields: { title: "Écrit par le SDK MCP" }, idempotency_key: "e2e-sdk-fr-1" });
    assert.equal(fr.status, 201, JSON.stringify(fr.body));
    assert.equal(fr.idempotency_key, "e2e-sdk-fr-1");
    assert.equal(fr.body.lang, "fr");

    // Not public before it is published.
    assert.equal((await publicGet("/v1/article/ecrit-par-le-sdk?locale=fr")).status, 404);

    const published = await call("publish_entry", { id: fr.body.instance_id, idempotency_key: "e2e-sdk-publish-fr-1" });
    assert.equal(published.isError, false);
    assert.equal(published.status, 200, JSON.stringify(published.body));
    assert.equal(published.idempotency_key, "e2e-sdk-publish-fr-1");
    assert.equal(published.body.workflow?.state, "published");
    // The same key again: the first answer, replayed.
    const again = await call("publish_entry", { id: fr.body.instance_id, idempotency_key: "e2e-sdk-publish-fr-1" });
    assert.equal(again.status, 200);
    assert.equal(again.body.replayed, true);
    const en = await call("publish_entry", { id });
    assert.equal(en.status, 200, JSON.stringify(en.body));
    assert.match(en.idempotency_key, /^mcp-/);

    const frItem = await publicGet("/v1/article/ecrit-par-le-sdk?locale=fr");
    assert.equal(frItem.status, 200, frItem.text);
    const frData = JSON.parse(frItem.text).data;
    assert.equal(frData.locale, "fr");
    assert.equal(frData.id, fr.body.instance_id);
    assert.equal(frData.fields.title, "Écrit par le SDK MCP");
    const enItem = await publicGet("/v1/article/written-by-the-sdk");
    assert.equal(enItem.status, 200, enItem.text);
    assert.equal(JSON.parse(enItem.text).data.fields.title, "Written by the MCP SDK");

    // A refusal is a tool result with the HTTP status and code, not a protocol error.
    const missing = await call("get_entry", { id: "ent_missing" });
    assert.equal(missing.isError, true);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not_found");
  });

  it("a tool outside the catalogue is a protocol error the SDK throws", async () => {
    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool: no_such_tool/);
  });
});
