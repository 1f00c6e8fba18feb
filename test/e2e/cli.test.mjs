/**
 * End to end against `wrangler dev`: the generated `cli/manage.mjs`, spawned with Node as a user
 * runs it, with the seed's management token: read the site, create an entry, publish it (the
 * Idempotency-Key on stderr, `--key` replaying), a refusal's exit 1, a bad flag's exit 2, and the
 * admin host's `GET /manage.mjs` serving the same bytes as the repository's file. On the same
 * server (one `wrangler dev` for both: docs/testing.md, "Where the CPU goes"): a real WordPress
 * export (the WordPress importer's small-export.xml) imported through the CLI — create-import-source,
 * create-import, upload-import-part --file (5 MiB parts, keys from their bytes, then the completion
 * with the SHA-256), advance-import --follow (progress per step, stops at the review's decision, then
 * at the end), get-word-press-review --all, decide-word-press-review — its posts then served by the
 * public API; and a whole-site export saved by read-export-chunk --out --finish, its SHA-256 checked.
 *
 * The origin is `http://127.0.0.1:8798`: the management API answers on any host and resolves the
 * site by credential (docs/routing.md), and `*.localhost` does not resolve on every machine.
 * Run: node --test test/e2e/cli.test.mjs
 */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import chromium from "@sparticuz/chromium";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { chromium as playwright } from "playwright-core";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8798;
const CLI = path.join(root, "cli", "manage.mjs");
const WXR = path.join(root, "test", "fixtures", "wordpress", "small-export.xml");
let server;
let browser;

function cli(args, env = {}) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${PORT}`, SERVICE_MANAGEMENT_TOKEN: server.info.management_token, ...env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const json = (result) => {
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout);
};

before(async () => {
  server = await startDevServer({ port: PORT });
  assert.match(server.info.management_token, /^dwm_/);
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** `login` running in the background: resolves the address it prints, then its exit. */
function startLogin(config, extra = []) {
  const child = spawn(process.execPath, [CLI, "login", "--url", `http://demo.localhost:${PORT}`, "--no-open", ...extra], {
    env: { PATH: process.env.PATH, XDG_CONFIG_HOME: config },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  const address = new Promise((resolve) => {
    child.stderr.on("data", (c) => {
      stderr += c;
      const found = /^(http:\/\/demo\.localhost:\d+\/connect\?\S+)$/m.exec(stderr);
      if (found) resolve(found[1]);
    });
  });
  const exit = new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { address, exit };
}

/** Signs in on the /connect page and presses Connect or Cancel. */
async function driveConnect(address, action) {
  const tab = await browser.newPage();
  try {
    await tab.goto(address);
    await tab.getByLabel("Email").fill(server.info.admin.email);
    await tab.getByLabel("Password").fill(server.info.admin.password);
    await tab.getByRole("button", { name: "Sign in" }).click();
    await tab.getByRole("button", { name: action }).click();
    await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    return await tab.locator("body").innerText();
  } finally {
    await tab.close();
  }
}

describe("manage.mjs against wrangler dev", () => {
  it("the admin host serves the repository's file for download", async () => {
    const res = await request(PORT, { host: "admin.localhost", path: "/manage.mjs" });
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-type"], "text/javascript; charset=utf-8");
    assert.equal(res.headers["content-disposition"], 'attachment; filename="manage.mjs"');
    assert.equal(res.headers["x-content-type-options"], "nosniff");
    assert.equal(res.text, readFileSync(CLI, "utf8"));
    const post = await request(PORT, { method: "POST", host: "admin.localhost", path: "/manage.mjs", body: "{}" });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, "GET, HEAD");
    // Only the admin host serves it: on a site host it is the public API's 404.
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/manage.mjs" })).status, 404);
  });

  it("get-site, create-entry, publish-entry (key on stderr, --key replays), refusal exit 1, bad flag exit 2", { timeout: 120_000 }, async () => {
    const site = json(await cli(["get-site"]));
    assert.ok(site.id ?? site.site?.id, JSON.stringify(site));

    const models = json(await cli(["list-models"]));
    const article = models.data.find((m) => m.slug === "article");
    assert.ok(article, "demo model article");

    const created = await cli(["create-entry", "--model-id", article.id, "--slug", "written-by-the-cli", "--body", JSON.stringify({ fields: { title: "Written by manage.mjs" } })]);
    const entry = json(created);
    assert.match(created.stderr, /^Idempotency-Key: \S+$/m);
    const id = entry.instance_id;
    assert.ok(id, created.stdout);

    const published = await cli(["publish-entry", "--id", id, "--key", "e2e-cli-publish-1"]);
    const first = json(published);
    assert.match(published.stderr, /^Idempotency-Key: e2e-cli-publish-1$/m);
    assert.equal(first.workflow?.state, "published", published.stdout);
    const again = json(await cli(["publish-entry", "--id", id, "--key", "e2e-cli-publish-1"]));
    assert.equal(again.replayed, true);
    assert.equal(again.workflow?.state, "published");

    const item = await request(PORT, { host: "demo.localhost", path: "/v1/article/written-by-the-cli" });
    assert.equal(item.status, 200, item.text);
    assert.equal(JSON.parse(item.text).data.fields.title, "Written by manage.mjs");

    const missing = await cli(["get-entry", "--id", "ent_missing"]);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stdout).error.code, "not_found");
    assert.match(missing.stderr, /refused: 404 not_found/);

    const badFlag = await cli(["publish-entry", "--id", id, "--no-such-flag", "x"]);
    assert.equal(badFlag.code, 2);
    assert.equal(badFlag.stdout, "");

    const wrongToken = await cli(["get-site"], { SERVICE_MANAGEMENT_TOKEN: "dwm_not_a_real_token" });
    assert.equal(wrongToken.code, 2);
  });
});

describe("login, the saved login, status and logout (the /connect page in Chromium)", () => {
  before(async () => {
    browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: ["--no-sandbox", "--no-zygote"], headless: true });
  });

  it("cancel exits 1 and writes nothing", { timeout: 120_000 }, async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-e2e-config-"));
    const run = startLogin(config);
    const address = await run.address;
    assert.match(address, /code_challenge_method=S256/);
    assert.match(address, /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
    await driveConnect(address, "Cancel");
    const done = await run.exit;
    assert.equal(done.code, 1, done.stderr);
    assert.match(done.stderr, /cancelled/);
    assert.deepEqual(existsSync(path.join(config, "driftwood")) ? readdirSync(path.join(config, "driftwood")) : [], []);
  });

  it("connects, saves (0700/0600, no access token), renews on every command, status, logout", { timeout: 180_000 }, async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-e2e-config-"));
    const run = startLogin(config, ["--scope", "content:read content:write"]);
    const address = await run.address;
    // Another path and another state on the listener: 404 and 400, and the login keeps waiting.
    const port = /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A(\d+)/.exec(address)[1];
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${port}/callback?state=forged&code=x&iss=x`)).status, 400);
    assert.match(await driveConnect(address, "Connect"), /Connected/);
    const done = await run.exit;
    assert.equal(done.code, 0, done.stderr);
    const shown = JSON.parse(done.stdout);
    assert.equal(shown.origin, `http://demo.localhost:${PORT}`);
    assert.deepEqual(shown.scopes.sort(), ["content:read", "content:write"]);

    const dir = path.join(config, "driftwood");
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    const file = path.join(dir, files[0]);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    assert.match(saved.refresh_token, /^dwr_/);
    assert.match(saved.client_id, /^ocl_/);
    assert.ok(saved.site.id);
    assert.doesNotMatch(readFileSync(file, "utf8"), /dwo_/, "never an access token");

    // Two commands without the environment token: each renews, and the refresh token rotates.
    const env = { XDG_CONFIG_HOME: config, SERVICE_MANAGEMENT_TOKEN: "", SERVICE_URL: `http://demo.localhost:${PORT}` };
    const first = await cli(["get-site"], env);
    assert.equal(first.code, 0, first.stderr);
    const afterFirst = JSON.parse(readFileSync(file, "utf8")).refresh_token;
    assert.notEqual(afterFirst, saved.refresh_token);
    const second = await cli(["list-models"], env);
    assert.equal(second.code, 0, second.stderr);
    assert.notEqual(JSON.parse(readFileSync(file, "utf8")).refresh_token, afterFirst);
    assert.equal(existsSync(`${file}.lock`), false);
    // The kept scopes hold: publishing needs lifecycle:publish, which was not asked for.
    const refused = await cli(["publish-entry", "--id", "ent_missing"], env);
    assert.equal(refused.code, 1, refused.stderr);

    const status = await cli(["status"], env);
    assert.equal(status.code, 0);
    const seen = JSON.parse(status.stdout);
    assert.equal(seen.client_id_saved, true);
    assert.equal(seen.environment_token_set, false);
    assert.equal(seen.site.id, saved.site.id);

    // A new login replaces the saved one and revokes the old connection.
    const before = readFileSync(file, "utf8");
    const again = startLogin(config);
    assert.match(await driveConnect(await again.address, "Connect"), /Connected/);
    assert.equal((await again.exit).code, 0);
    assert.deepEqual(readdirSync(dir), files, "still one file per origin");
    const old = JSON.parse(before);
    const oldRefresh = await request(PORT, {
      method: "POST",
      host: `demo.localhost:${PORT}`,
      path: "/api/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: old.refresh_token, client_id: old.client_id }).toString(),
    });
    assert.equal(oldRefresh.status, 400, oldRefresh.text);
    assert.equal(JSON.parse(oldRefresh.text).error, "invalid_grant");
    assert.equal((await cli(["get-site"], env)).code, 0);

    // When the service no longer accepts the saved login (here: an old refresh token written back,
    // whose replay revokes the connection), a command exits 2 asking for login and keeps the file.
    const current = readFileSync(file, "utf8");
    assert.equal((await cli(["get-site"], env)).code, 0);
    writeFileSync(file, current);
    const rejected = await cli(["get-site"], env);
    assert.equal(rejected.code, 2);
    assert.match(rejected.stderr, /no longer accepted .*run login again/);
    assert.equal(readFileSync(file, "utf8"), current, "the file is kept as it was");

    const logout = await cli(["logout"], env);
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(existsSync(file), false);
    const gone = await cli(["get-site"], env);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /login/);
  });
});

describe("mcp: the stdio server, driven by the official SDK client", () => {
  let client;
  /** The remote MCP server's answer to one message, with the same token. */
  const remote = async (method, params) => {
    const res = await request(PORT, {
      method: "POST",
      host: `127.0.0.1:${PORT}`,
      path: "/api/manage/mcp",
      headers: { authorization: `Bearer ${server.info.management_token}`, "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 1, method, ...(params ? { params } : {}) },
    });
    assert.equal(res.status, 200, res.text);
    return JSON.parse(res.text).result;
  };

  before(async () => {
    client = new Client({ name: "driftwood-cli-e2e", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--url", `http://127.0.0.1:${PORT}`],
      env: { PATH: process.env.PATH, SERVICE_MANAGEMENT_TOKEN: server.info.management_token },
      stderr: "pipe",
    });
    await client.connect(transport);
  });
  after(async () => client?.close());

  it("initializes and lists the remote server's tools: same names, schemas and annotations", async () => {
    assert.equal(client.getServerCapabilities()?.tools !== undefined, true);
    const local = (await client.listTools()).tools;
    const far = (await remote("tools/list")).tools;
    assert.ok(far.length > 20);
    assert.deepEqual(local.map((t) => t.name), far.map((t) => t.name));
    for (const [i, tool] of far.entries()) {
      assert.deepEqual(local[i].annotations, tool.annotations, tool.name);
      // Only the upload tools differ (docs/mcp.md, "Upload tools"): a local file_path for content_base64.
      if (!tool.inputSchema.properties.content_base64) {
        assert.deepEqual(local[i].inputSchema, tool.inputSchema, tool.name);
        continue;
      }
      const { content_base64: _bytes, ...rest } = tool.inputSchema.properties;
      assert.deepEqual(Object.keys(local[i].inputSchema.properties).sort(), ["file_path", ...Object.keys(rest)].sort(), tool.name);
      assert.deepEqual(local[i].inputSchema.required, ["file_path", ...tool.inputSchema.required.filter((n) => n !== "content_base64" && n !== "file_name")], tool.name);
    }
  });

  it("calls tools: a write answers its key; a refusal is the same tool result as the remote one", { timeout: 60_000 }, async () => {
    const models = await client.callTool({ name: "list_models", arguments: {} });
    const article = models.structuredContent.body.data.find((m) => m.slug === "article");
    const created = await client.callTool({ name: "create_entry", arguments: { model_id: article.id, slug: "written-over-stdio", fields: { title: "Over stdio" } }, });
    assert.equal(created.isError, false);
    assert.equal(created.structuredContent.status, 201);
    assert.match(created.structuredContent.idempotency_key, /\S/);
    assert.deepEqual(JSON.parse(created.content[0].text), created.structuredContent);
    const keyed = await client.callTool({ name: "publish_entry", arguments: { id: created.structuredContent.body.instance_id, idempotency_key: "e2e-stdio-pub-1" } });
    assert.equal(keyed.structuredContent.status, 200);
    assert.equal(keyed.structuredContent.idempotency_key, "e2e-stdio-pub-1");
    const missing = await client.callTool({ name: "get_entry", arguments: { id: "ent_missing" } });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent.status, 404);
    assert.deepEqual(missing, await remote("tools/call", { name: "get_entry", arguments: { id: "ent_missing" } }));
    // The upload tool reads a local file: the same checks and answer as the HTTP upload.
    const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-stdio-upload-"));
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    writeFileSync(path.join(dir, "dot.png"), png);
    const uploaded = await client.callTool({ name: "upload_media", arguments: { file_path: path.join(dir, "dot.png"), idempotency_key: "e2e-stdio-upload-1" } });
    assert.equal(uploaded.structuredContent.status, 201, JSON.stringify(uploaded.structuredContent));
    assert.equal(uploaded.structuredContent.body.media.kind, "image");
    writeFileSync(path.join(dir, "tool.png"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(56).fill(0)]));
    const program = await client.callTool({ name: "upload_media", arguments: { file_path: path.join(dir, "tool.png") } });
    assert.equal(program.structuredContent.status, 422);
    assert.equal(program.structuredContent.body.error.code, "executable_file");
    await assert.rejects(client.callTool({ name: "upload_media", arguments: { file_path: path.join(dir, "missing.png") } }), /cannot read file_path/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("imports and exports through manage.mjs", () => {
  it("imports a WordPress export end to end and saves a whole-site export", async () => {
    const models = json(await cli(["list-models"])).data;
    const category = models.find((m) => m.definition?.model?.slug === "category" || m.slug === "category");
    assert.ok(category, "the demo has a category model");
    const categoryId = category.id ?? category.model_id;
    const created = json(
      await cli([
        "create-model",
        "--body",
        JSON.stringify({
          definition: {
            model: { name: "Post", slug: "post" },
            fields: [
              { key: "title", label: "Title", type: "text", required: true, title: true },
              { key: "body", label: "Body", type: "rich_text" },
              { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [categoryId] },
            ],
          },
        }),
      ]),
    );
    assert.equal(created.slug, "post");

    const source = json(await cli(["create-import-source", "--kind", "wordpress", "--name", "WordPress importer fixture"]));
    const job = json(await cli(["create-import", "--source-id", source.source.id, "--file-name", "small-export.xml"])).import;
    const uploaded = await cli(["upload-import-part", "--id", job.id, "--file", WXR]);
    const completed = json(uploaded);
    assert.match(uploaded.stderr, /part 1\/1: \d+ bytes/);
    assert.equal(completed.import.file.sha256, createHash("sha256").update(readFileSync(WXR)).digest("hex"));
    // Sent again (its answer lost, say): the job already holds this very file, so nothing is sent and the job is answered.
    const again = await cli(["upload-import-part", "--id", job.id, "--file", WXR]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /already holds this file/);
    assert.equal(json(again).import.file.sha256, completed.import.file.sha256);

    const toReview = await cli(["advance-import", "--id", job.id, "--follow"]);
    assert.equal(toReview.code, 0, toReview.stderr);
    assert.match(toReview.stderr, /review: 0\/\d+ items, 0 findings/);
    assert.match(toReview.stderr, /waits for a decision/);

    const review = json(await cli(["get-word-press-review", "--id", job.id, "--all"]));
    assert.equal(review.counts.post.total, 6);
    assert.equal(review.mapping.proposed.post, created.model_id);
    json(await cli(["decide-word-press-review", "--id", job.id, "--body", JSON.stringify({ approve: true })]));

    const followed = await cli(["advance-import", "--id", job.id, "--follow"]);
    const done = json(followed);
    assert.equal(done.import.state, "done");
    assert.match(followed.stderr, /^writing: \d+\/\d+ items, \d+ findings$/m);
    assert.match(followed.stderr, /^done: (\d+)\/\1 items/m);
    const findings = json(await cli(["get-import-findings", "--id", job.id, "--all"])).findings;
    assert.ok(findings.some((f) => f.code === "status_kept_as_draft"));

    const served = await request(PORT, { host: "demo.localhost", path: "/v1/post/top-level-foo" });
    assert.equal(served.status, 200, served.text);
    assert.match(served.text, /Post associated with the top-level Foo category/);

    const exported = json(await cli(["create-export", "--body", "{}"])).export;
    const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-export-"));
    const file = path.join(dir, "site.ndjson");
    const saved = await cli(["read-export-chunk", "--id", exported.id, "--out", file, "--finish"]);
    assert.equal(saved.code, 0, saved.stderr);
    const bytes = readFileSync(file);
    const finished = json(await cli(["get-export-job", "--id", exported.id])).export;
    assert.equal(createHash("sha256").update(bytes).digest("hex"), finished.sha256);
    assert.match(bytes.toString("utf8"), /"slug":"top-level-foo"/);

    // --page <n> saves one kept page: page 1 is the file's start (header, models, roles), page 2 follows it.
    const pageFile = path.join(dir, "page-1.ndjson");
    const pageOne = await cli(["read-export-chunk", "--id", exported.id, "--out", pageFile, "--page", "1"]);
    assert.equal(pageOne.code, 0, pageOne.stderr);
    const first = readFileSync(pageFile);
    assert.ok(first.length > 0 && first.length < bytes.length);
    assert.deepEqual(first, bytes.subarray(0, first.length));
    assert.match(first.toString("utf8"), /^\{"format":"driftwood-export"/);
    assert.doesNotMatch(first.toString("utf8"), /"type":"entry"/);
    const pastLast = await cli(["read-export-chunk", "--id", exported.id, "--out", path.join(dir, "none.ndjson"), "--page", String(finished.pages + 1)]);
    assert.equal(pastLast.code, 1, pastLast.stderr);
    assert.match(pastLast.stderr, /416 range_not_satisfiable/);
  });
});
