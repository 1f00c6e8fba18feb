import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { testGroups, workerMain } from "./scripts/lib/test-groups.mjs";

/** One call the fake Cloudflare purge API received. */
interface PurgeCall {
  zone: string;
  path: string;
  authorization: string | null;
  tags: string[];
}

const purgeCalls: PurgeCall[] = [];
let purgeCallCount = 0;

const cloudflareAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A stand-in for api.cloudflare.com, bound as `CF_PURGE_API` (the machine has no internet).
 * `POST /client/v4/zones/{zone}/purge_cache` records the call and answers like Cloudflare; zone ids
 * choose failures: `zone-fail` (400, success false), `zone-false` (200, success false),
 * `zone-garbage` (200, not JSON), `zone-slow` (answers after 300 ms), `zone-second-fails` (every
 * second call fails). `GET /calls[?zone=]` lists recorded calls, `DELETE /calls` forgets them.
 */
async function fakePurgeApi(request: { url: string; method: string; headers: { get(name: string): string | null }; text(): Promise<string> }) {
  const url = new URL(request.url);
  if (url.pathname === "/calls") {
    if (request.method === "DELETE") {
      purgeCalls.length = 0;
      return new Response(null, { status: 204 });
    }
    const zone = url.searchParams.get("zone");
    return cloudflareAnswer(200, zone === null ? purgeCalls : purgeCalls.filter((c) => c.zone === zone));
  }
  const match = /^\/client\/v4\/zones\/([^/]+)\/purge_cache$/.exec(url.pathname);
  if (!match?.[1] || request.method !== "POST") return cloudflareAnswer(404, { success: false, errors: [{ code: 7003, message: "No route" }], messages: [], result: null });
  const zone = decodeURIComponent(match[1]);
  const parsed: unknown = JSON.parse(await request.text());
  const tags = typeof parsed === "object" && parsed !== null && "tags" in parsed && Array.isArray(parsed.tags) ? parsed.tags.map(String) : [];
  purgeCalls.push({ zone, path: url.pathname, authorization: request.headers.get("authorization"), tags });
  purgeCallCount++;
  const refused = { success: false, errors: [{ code: 1134, message: "Purge request refused" }], messages: [], result: null };
  if (zone === "zone-fail") return cloudflareAnswer(400, refused);
  if (zone === "zone-false") return cloudflareAnswer(200, refused);
  if (zone === "zone-garbage") return new Response("<html>bad gateway</html>", { status: 200 });
  if (zone === "zone-second-fails" && purgeCalls.filter((c) => c.zone === zone).length % 2 === 0) return cloudflareAnswer(400, refused);
  if (zone === "zone-slow") await new Promise((resolve) => setTimeout(resolve, 300));
  return cloudflareAnswer(200, { success: true, errors: [], messages: [], result: { id: `purge-${purgeCallCount}` } });
}

/** One delivery the fake webhook receiver got. */
interface WebhookCall {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const webhookCalls: WebhookCall[] = [];
const failingPaths = new Set<string>();
const slowPaths = new Set<string>();

/**
 * A stand-in for subscribers' webhook endpoints, bound as `WEBHOOK_FETCH`. Any request to another
 * host is a delivery: recorded, answered 500 when its path is switched to failing, else 204. The
 * control host `receiver.control`: `GET /calls?path=` lists deliveries to a path, `PUT`/`DELETE
 * /fail?path=` switches failing on/off for a path.
 */
async function fakeWebhookReceiver(request: { url: string; method: string; headers: Headers | { forEach(cb: (value: string, key: string) => void): void }; text(): Promise<string> }) {
  const url = new URL(request.url);
  if (url.hostname === "receiver.control") {
    const path = url.searchParams.get("path") ?? "";
    if (url.pathname === "/fail") {
      if (request.method === "PUT") failingPaths.add(path);
      else failingPaths.delete(path);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/slow") {
      if (request.method === "PUT") slowPaths.add(path);
      else slowPaths.delete(path);
      return new Response(null, { status: 204 });
    }
    return new Response(JSON.stringify(webhookCalls.filter((c) => c.path === path)), { headers: { "content-type": "application/json" } });
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  webhookCalls.push({ url: request.url, path: url.pathname, headers, body: await request.text() });
  // A receiver slower than the service's 5000 ms call timeout: the service gives up first.
  if (slowPaths.has(url.pathname)) await new Promise((resolve) => setTimeout(resolve, 8000));
  return failingPaths.has(url.pathname) ? new Response("receiver down", { status: 500 }) : new Response(null, { status: 204 });
}

/** One call the fake plugin received (an operation run or a content policy question). */
interface PluginFetchCall {
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

const pluginCalls: PluginFetchCall[] = [];
/** Answers set by tests for a policy path: `{ status, body, delay_ms }` (PUT /answer?path=). */
const pluginAnswers = new Map<string, { status: number; body: unknown; delay_ms?: number }>();

const jsonAnswer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stand-in for plugins' endpoints, bound as `PLUGIN_FETCH` (test/helpers/fake-plugin.ts drives
 * it). Every call to another host is recorded; an operation's answer is chosen by its id (the last
 * path segment of `/operations/<id>`): `echo` (completed: text, rows, links, json echoing the
 * body), `refuse` (422 refusal), `garbage` (200, not JSON), `http-link` (an http link), `crash`
 * (500), `gateway` (502: unreachable; a refused connection is tested end to end), `slow` (answers after 6 s, past
 * the 5 s timeout), `wait` (answers after 1.5 s). Any path may be given a canned answer with
 * `PUT plugin.control/answer?path=` (body `{ status, body, delay_ms? }`), which wins.
 * The control host `plugin.control`: `GET /calls?path=` lists calls to a path (all without it).
 */
async function fakePlugin(request: { url: string; method: string; headers: Headers | { forEach(cb: (value: string, key: string) => void): void }; text(): Promise<string> }) {
  const url = new URL(request.url);
  if (url.hostname === "plugin.control") {
    const path = url.searchParams.get("path");
    if (url.pathname === "/answer") {
      if (request.method === "PUT") pluginAnswers.set(path ?? "", JSON.parse(await request.text()) as { status: number; body: unknown; delay_ms?: number });
      else pluginAnswers.delete(path ?? "");
      return new Response(null, { status: 204 });
    }
    return jsonAnswer(200, path === null ? pluginCalls : pluginCalls.filter((c) => c.path === path));
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = await request.text();
  pluginCalls.push({ host: url.hostname, path: url.pathname, headers, body, at: Date.now() });
  const canned = pluginAnswers.get(url.pathname);
  if (canned) {
    if (canned.delay_ms) await sleep(canned.delay_ms);
    return jsonAnswer(canned.status, canned.body);
  }
  const mediaSource = /\/media-sources\/[^/]+\/(items|resolve)$/.exec(url.pathname)?.[1];
  if (mediaSource) return fakeMediaSource(mediaSource, JSON.parse(body || "{}") as Record<string, unknown>);
  if (url.hostname === "files.example.test") return fakeSourceFile(url.pathname);
  const policy = /\/policies\/([^/]+)$/.exec(url.pathname)?.[1];
  if (policy) return fakePolicy(policy, JSON.parse(body || "{}") as { fields?: Record<string, unknown> });
  // An operation id starting with `echo` (`echo-entry`, `echo-archive`) answers like `echo`.
  const id = /\/operations\/([^/]+)$/.exec(url.pathname)?.[1];
  const operation = id?.startsWith("echo") ? "echo" : id;
  const sent = JSON.parse(body || "{}") as Record<string, unknown>;
  switch (operation) {
    case "echo":
    case "wait":
      if (operation === "wait") await sleep(1500);
      return jsonAnswer(200, {
        outcome: "completed",
        result: {
          blocks: [
            { type: "text", text: `ran ${String(sent.operation)}` },
            { type: "rows", columns: ["key", "value"], rows: [["instance_id", (sent.instance_id as string | null) ?? null]] },
            { type: "links", links: [{ label: "Docs", url: "https://plugins.example.test/docs" }] },
            { type: "json", value: { input: sent.input ?? null } },
          ],
        },
      });
    case "refuse":
      return jsonAnswer(422, { outcome: "refused", refusal: { code: "not_today", message: "Not today, thank you." } });
    case "garbage":
      return new Response("<html>oops</html>", { status: 200 });
    case "http-link":
      return jsonAnswer(200, { outcome: "completed", result: { blocks: [{ type: "links", links: [{ label: "Plain", url: "http://plugins.example.test/x" }] }] } });
    case "crash":
      return jsonAnswer(500, { error: "boom" });
    case "gateway":
      return new Response("bad gateway", { status: 502 });
    case "slow":
      await sleep(6000);
      return jsonAnswer(200, { outcome: "completed", result: { blocks: [] } });
    default:
      return jsonAnswer(404, { error: "no such route" });
  }
}

/** A 1×1 PNG: what every fake media source item's file is. */
const SAMPLE_PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

/**
 * The fake plugin's media sources (any source id): 30 images `img-1`…`img-30` titled "Sample n"
 * ("Bad n" for n > 27), 24 a page, `q` matching titles, the cursor an offset; `resolve` names the
 * file at `https://files.example.test/png/<n>` (`/exe/<n>` for the "Bad" ones: an executable);
 * an unknown item is 404.
 */
function fakeMediaSource(route: string, sent: Record<string, unknown>) {
  const items = Array.from({ length: 30 }, (_, i) => {
    const n = i + 1;
    return { id: `img-${n}`, title: n > 27 ? `Bad ${n}` : `Sample ${n}`, file_name: `sample-${n}.png`, kind: "image", size: SAMPLE_PNG.byteLength, thumbnail_url: `https://files.example.test/png/${n}`, attribution: `Photo ${n} by the demo` };
  });
  if (route === "items") {
    const q = typeof sent.q === "string" ? sent.q.toLowerCase() : "";
    const matching = items.filter((item) => item.title.toLowerCase().includes(q));
    const offset = typeof sent.cursor === "string" ? Number(sent.cursor) : 0;
    const page = matching.slice(offset, offset + 24);
    return jsonAnswer(200, { items: page, next_cursor: offset + 24 < matching.length ? String(offset + 24) : null });
  }
  const item = items.find((x) => x.id === sent.item_id);
  if (!item) return jsonAnswer(404, { error: "no such item" });
  const n = item.id.slice(4);
  return jsonAnswer(200, { item, url: `https://files.example.test/${item.title.startsWith("Bad") ? "exe" : "png"}/${n}` });
}

function fakeSourceFile(path: string) {
  if (path.startsWith("/png/")) return new Response(SAMPLE_PNG, { status: 200, headers: { "content-type": "image/png" } });
  if (path.startsWith("/exe/")) return new Response(new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]), { status: 200, headers: { "content-type": "image/png" } });
  return new Response("not found", { status: 404 });
}

/**
 * A content policy of the fake plugin, by policy id: `forbid` refuses string fields containing
 * FORBIDDEN, `trim` trims surrounding spaces of string fields, `shout` upper-cases a title containing
 * "shout", `down` answers 502 (unreachable), `bad` sets the title to a number, `stray` sets a field
 * not being written; any other id allows. A title containing SLOW makes any policy answer after 2 s.
 */
async function fakePolicy(policy: string, sent: { fields?: Record<string, unknown> }) {
  const fields = sent.fields ?? {};
  const title = typeof fields.title === "string" ? fields.title : "";
  if (title.includes("SLOW")) await sleep(2000);
  const allowed = jsonAnswer(200, { outcome: "allowed" });
  switch (policy) {
    case "forbid": {
      const bad = Object.entries(fields).filter(([, value]) => typeof value === "string" && value.includes("FORBIDDEN")).map(([key]) => key);
      return bad.length > 0 ? jsonAnswer(200, { outcome: "refused", code: "forbidden_word", message: "Remove the word FORBIDDEN.", fields: bad }) : allowed;
    }
    case "trim": {
      const changed = Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === "string" && value.trim() !== value).map(([key, value]) => [key, String(value).trim()]));
      return Object.keys(changed).length > 0 ? jsonAnswer(200, { outcome: "transformed", fields: changed, message: "Trimmed spaces." }) : allowed;
    }
    case "shout":
      return title.includes("shout") ? jsonAnswer(200, { outcome: "transformed", fields: { title: title.toUpperCase() } }) : allowed;
    case "down":
      return new Response("bad gateway", { status: 502 });
    case "bad":
      return jsonAnswer(200, { outcome: "transformed", fields: { title: 42 } });
    case "stray":
      return jsonAnswer(200, { outcome: "transformed", fields: { not_written: "x" } });
    default:
      return allowed;
  }
}

/**
 * The workerd suite runs in groups of files that share one runtime (a vitest project each, with
 * `isolate: false`): starting a runtime per file cost about half the suite's time. Tests call the
 * worker directly (test/helpers/worker.ts), never through SELF.fetch, whose per-request cost grows
 * with every request a runtime has served (workers-sdk #15446) — that growth is what kept groups
 * small before. Files share a group's D1, R2 and Durable Objects, so a test never assumes an empty
 * database: each seeds its own site (test/helpers/fixtures.ts). TEST_GROUP_SIZE overrides the size
 * (for measuring).
 */
// The worker tsconfig has no Node types: read the variable through globalThis.
const nodeProcess = (globalThis as { process?: { env: Record<string, string | undefined> } }).process;
const GROUP_SIZE = Number(nodeProcess?.env.TEST_GROUP_SIZE ?? 34);

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations/d1");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          // CONFIG_CACHE_MS 0: tests change sites and models between reads and must see it at once.
          // MANAGE_RATE_LIMIT 40: the 429 test need not send 600 requests.
          // PLUGIN_RATE_LIMIT 50: the plugin limit's test need not send 500 (the spec's 120 stays the default).
          // PLUGIN_POLICY_BUDGET 30: the policy budget test need not ask 600 policies.
          // MEDIA_REQUEST_BODY_LIMIT_BYTES 45 MB: the streamed upload's limit below the 100 MB default,
          // so a test crosses it with ~45 MB rather than 100 MB (media-streamed-upload.test.ts).
          // OPS_TOKEN: the operators' routes are on (site-move.test.ts; absent → 404 is tested with an env without it).
          // OPS_COPY_STEP_ROWS / OPS_DELETE_STEP_ROWS: a copy or delete of a small site takes several calls, so resuming is tested.
          bindings: { ...(nodeProcess?.env.QUIET_ALARMS_REPORT === "1" ? { QUIET_ALARMS_REPORT: "1" } : {}), TEST_MIGRATIONS: migrations, TEST_WORKER_MAIN: workerMain, CONFIG_CACHE_MS: "0", MANAGE_RATE_LIMIT: "40", PLUGIN_RATE_LIMIT: "50", MEDIA_REQUEST_BODY_LIMIT_BYTES: "45000000", PLUGIN_POLICY_BUDGET: "30", OPS_TOKEN: "test-ops-token", OPS_COPY_STEP_ROWS: "15", OPS_DELETE_STEP_ROWS: "15" },
          // Tests only; wrangler.jsonc binds nothing here, so `npm start` keeps caching and purging off.
          serviceBindings: { CF_PURGE_API: fakePurgeApi, WEBHOOK_FETCH: fakeWebhookReceiver, PLUGIN_FETCH: fakePlugin },
        },
      }),
    ],
    test: {
      // QUIET_ALARMS=0 leaves finished files' alarms ringing (for measuring test/setup/quiet-alarms.ts against it).
      setupFiles: ["./test/setup/apply-migrations.ts", ...(nodeProcess?.env.MEMO_MAIN_IMPORT === "0" ? [] : ["./test/setup/memo-main-import.ts"]), ...(nodeProcess?.env.QUIET_ALARMS === "0" ? [] : ["./test/setup/quiet-alarms.ts"])],
      projects: testGroups(GROUP_SIZE).map((files, index) => ({ extends: true as const, test: { name: `workerd-${index + 1}`, include: files, isolate: false } })),
      // A deadline, not a speed check (speed is measured by `npm run bench`): a loaded 2-core
      // machine can take several seconds for a test that makes dozens of requests.
      testTimeout: 30_000,
    },
  };
});
