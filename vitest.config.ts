import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { testGroups } from "./scripts/lib/test-groups.mjs";

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
const GROUP_SIZE = Number((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.TEST_GROUP_SIZE ?? 34);

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations/d1");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          // CONFIG_CACHE_MS 0: tests change sites and models between reads and must see it at once.
          // MANAGE_RATE_LIMIT 40: the 429 test need not send 600 requests.
          // MEDIA_REQUEST_BODY_LIMIT_BYTES 45 MB: the streamed upload's limit below the 100 MB default,
          // so a test crosses it with ~45 MB rather than 100 MB (media-streamed-upload.test.ts).
          // OPS_TOKEN: the operators' routes are on (site-move.test.ts; absent → 404 is tested with an env without it).
          bindings: { TEST_MIGRATIONS: migrations, CONFIG_CACHE_MS: "0", MANAGE_RATE_LIMIT: "40", MEDIA_REQUEST_BODY_LIMIT_BYTES: "45000000", OPS_TOKEN: "test-ops-token" },
          // Tests only; wrangler.jsonc binds nothing here, so `npm start` keeps caching and purging off.
          serviceBindings: { CF_PURGE_API: fakePurgeApi, WEBHOOK_FETCH: fakeWebhookReceiver },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup/apply-migrations.ts"],
      projects: testGroups(GROUP_SIZE).map((files, index) => ({ extends: true as const, test: { name: `workerd-${index + 1}`, include: files, isolate: false } })),
      // A deadline, not a speed check (speed is measured by `npm run bench`): a loaded 2-core
      // machine can take several seconds for a test that makes dozens of requests.
      testTimeout: 30_000,
    },
  };
});
