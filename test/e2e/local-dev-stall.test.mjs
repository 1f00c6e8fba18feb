/**
 * End to end against `wrangler dev` (issue #9 item 16): a plugin request whose chunked body is
 * refused past the protocol's 16384 bytes must not stall the next request to the service.
 * Under wrangler dev an unread request body left behind by an early answer hangs the next request
 * for about a minute (local proxy bug, workers-sdk issue 15709); the service drains a bounded
 * remainder of any unread body before answering, whichever surface refused it (docs/local-run.md).
 * Run: node --test test/e2e/local-dev-stall.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8794;
/** Far below the proxy's minute-long stall, far above a local answer. */
const NEXT_REQUEST_BUDGET_MS = 5_000;
let server;

before(async () => {
  server = await startDevServer({ port: PORT });
});

after(() => server?.stop());

/** A JSON body of `size` bytes in 1 KiB chunks (sent chunked: no Content-Length to refuse early). */
function chunkedBody(size) {
  const text = `{"code":"${"x".repeat(size - 11)}"}`;
  const chunks = [];
  for (let i = 0; i < text.length; i += 1024) chunks.push(text.slice(i, i + 1024));
  return chunks;
}

const plugin = (options) =>
  request(PORT, { host: "demo.localhost", path: "/api/plugin/v1/launch/exchange", method: "POST", headers: { authorization: `Bearer ${server.info.plugin_token}` }, ...options });

describe("local dev: a refused oversized plugin body", () => {
  for (const size of [16385, 64 * 1024, 512 * 1024]) {
    it(`refuses a chunked body of ${size} bytes, and the next request answers at once`, { timeout: 60_000 }, async () => {
      const refused = await plugin({ chunks: chunkedBody(size), timeoutMs: NEXT_REQUEST_BUDGET_MS });
      assert.equal(refused.status, 400, refused.text);
      const outcome = JSON.parse(refused.text).outcome;
      assert.equal(outcome.code, "invalid_request");
      assert.equal(outcome.retry, false);
      assert.match(outcome.message, /16384/);

      const started = Date.now();
      const next = await request(PORT, { host: "demo.localhost", path: "/health", timeoutMs: NEXT_REQUEST_BUDGET_MS });
      assert.equal(next.status, 200, next.text);
      assert.ok(Date.now() - started < NEXT_REQUEST_BUDGET_MS);
      // And the protocol itself still answers.
      const context = await request(PORT, { host: "demo.localhost", path: "/api/plugin/v1/context", headers: { authorization: `Bearer ${server.info.plugin_token}` }, timeoutMs: NEXT_REQUEST_BUDGET_MS });
      assert.equal(context.status, 200, context.text);
    });
  }

  it("refuses a declared Content-Length over the limit, and the next request answers at once", { timeout: 60_000 }, async () => {
    const body = JSON.stringify({ code: "x".repeat(20_000) });
    const refused = await plugin({ body, timeoutMs: NEXT_REQUEST_BUDGET_MS });
    assert.equal(refused.status, 400, refused.text);
    const next = await request(PORT, { host: "demo.localhost", path: "/health", timeoutMs: NEXT_REQUEST_BUDGET_MS });
    assert.equal(next.status, 200, next.text);
  });

  // A guard rather than a reproduction: a body left wholly unread did not stall before the drain either.
  it("any surface refusing before it reads the body: a management write with a wrong credential", { timeout: 60_000 }, async () => {
    const refused = await request(PORT, {
      method: "POST",
      host: "demo.localhost",
      path: "/api/manage/v1/entries",
      headers: { authorization: `Bearer dwm_${"A".repeat(43)}`, "idempotency-key": "stall-1" },
      chunks: chunkedBody(256 * 1024),
      timeoutMs: NEXT_REQUEST_BUDGET_MS,
    });
    assert.equal(refused.status, 401, refused.text);
    const next = await request(PORT, { host: "demo.localhost", path: "/health", timeoutMs: NEXT_REQUEST_BUDGET_MS });
    assert.equal(next.status, 200, next.text);
  });
});

// Found by a black-box run: past the default 1 MiB drain bound the body was cancelled, and the next
// request stalled again. The local scripts raise the bound (UNREAD_BODY_DRAIN_BYTES, 128 MiB).
describe("local dev: refused bodies over 1 MiB, on every surface", () => {
  const big = JSON.stringify({ code: "x".repeat(1_100_000) });
  /** Each refusal, built when the test runs (the plugin token comes from the seed). */
  const cases = [
    { name: "management, wrong credential, declared length", status: 401, call: () => ({ method: "POST", host: "demo.localhost", path: "/api/manage/v1/entries", headers: { authorization: "Bearer nope", "idempotency-key": "stall-big" }, body: big }) },
    { name: "public API, a write method", status: 404, call: () => ({ method: "POST", host: "demo.localhost", path: "/v1/article", body: big }) },
    { name: "admin sign-in over its cap", status: 413, call: () => ({ method: "POST", host: "admin.localhost", path: "/api/session", body: big }) },
    { name: "plugin protocol, chunked 2 MiB", status: 400, call: () => ({ method: "POST", host: "demo.localhost", path: "/api/plugin/v1/launch/exchange", headers: { authorization: `Bearer ${server.info.plugin_token}` }, chunks: chunkedBody(2 * 1024 * 1024) }) },
  ];
  for (const { name, status, call } of cases) {
    it(`${name}: answered, and the next requests answer at once`, { timeout: 60_000 }, async () => {
      const refused = await request(PORT, { ...call(), timeoutMs: 20_000 });
      assert.equal(refused.status, status, refused.text.slice(0, 300));
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const next = await request(PORT, { host: "demo.localhost", path: "/health", timeoutMs: NEXT_REQUEST_BUDGET_MS });
        assert.equal(next.status, 200, next.text);
        assert.ok(Date.now() - started < NEXT_REQUEST_BUDGET_MS);
      }
    });
  }
});
