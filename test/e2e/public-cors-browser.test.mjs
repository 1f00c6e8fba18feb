/**
 * CORS of the public API in a real Chromium (issue #29 item 7; docs/cors.md): pages served from
 * other origins call the demo site's public API with `fetch`, and the browser itself decides what
 * the page may read. Origins: `http://localhost:P` (reads), `http://app.localhost:P` (reads and a
 * site API token), `http://127.0.0.1:P` (not allowed). Local development honours localhost origins.
 * Run: unshare -n bash -c 'ip link set lo up && npm run test:e2e -- test/e2e/public-cors-browser.test.mjs'
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8853;
const PAGE_PORT = 8805;
let server;
let pages;
let browser;

before(async () => {
  // Settings reach the public API at once (no per-isolate configuration cache).
  server = await startDevServer({ port: PORT, vars: { CONFIG_CACHE_MS: "0" } });
  pages = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><html lang=en><title>Other origin</title><h1>A website on another origin</h1>");
  });
  await new Promise((resolve) => pages.listen(PAGE_PORT, "127.0.0.1", resolve));
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: ["--no-sandbox", "--no-zygote"], headless: true });
});
after(async () => {
  await browser?.close().catch(() => {});
  await new Promise((resolve) => pages?.close(resolve));
  server?.stop();
});

const manage = (method, pathname, body) =>
  request(PORT, {
    method,
    host: "demo.localhost",
    path: `/api/manage/v1${pathname}`,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${server.info.management_token}`, "content-type": "application/json", ...(method === "GET" ? {} : { "idempotency-key": `cors-${Date.now()}-${Math.random()}` }) },
  }).then((res) => ({ status: res.status, body: res.text ? JSON.parse(res.text) : null }));

/** Runs `fetch` in a page of `origin`; answers { ok, status, count, code } or { error } when the browser blocks it. */
async function fetchFrom(origin, url, headers = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  const outcome = await page.evaluate(
    async ({ url, headers }) => {
      try {
        const res = await fetch(url, { headers });
        const body = await res.json();
        return { status: res.status, count: Array.isArray(body.data) ? body.data.length : null, code: body.error?.code ?? null, requestId: res.headers.get("x-request-id") };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, headers },
  );
  await context.close();
  return outcome;
}

describe("public API CORS from browser pages on other origins", () => {
  it("lets allowed origins read, only token origins send a token, and blocks the rest in the browser", async () => {
    const api = `http://demo.localhost:${PORT}`;
    const readsOnly = `http://localhost:${PAGE_PORT}`;
    const withTokens = `http://app.localhost:${PAGE_PORT}`;
    const stranger = `http://127.0.0.1:${PAGE_PORT}`;
    const auth = { authorization: `Bearer ${server.info.site_api_token}` };

    // Before any setting: the browser keeps the answer from every other origin.
    const blockedFirst = await fetchFrom(readsOnly, `${api}/v1/article`);
    assert.match(blockedFirst.error ?? "", /TypeError/);

    const put = await manage("PUT", "/settings/cors", { origins: [{ origin: readsOnly }, { origin: withTokens, tokens: true }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.local_origins_honoured, true);

    const read = await fetchFrom(readsOnly, `${api}/v1/article`);
    assert.equal(read.status, 200, JSON.stringify(read));
    assert.ok(read.count > 0);
    const missing = await fetchFrom(readsOnly, `${api}/v1/article/no-such-article`);
    assert.deepEqual([missing.status, missing.code], [404, "not_found"], "an allowed page reads refusals too");
    assert.ok(missing.requestId, "X-Request-Id is exposed to the page");

    const tokenRefused = await fetchFrom(readsOnly, `${api}/v1/note`, auth);
    assert.match(tokenRefused.error ?? "", /TypeError/, "an origin without tokens may not send Authorization");
    const tokenRead = await fetchFrom(withTokens, `${api}/v1/note`, auth);
    assert.equal(tokenRead.status, 200, JSON.stringify(tokenRead));
    assert.ok(tokenRead.count > 0, "the token reads the private model");

    const strangerRead = await fetchFrom(stranger, `${api}/v1/article`);
    assert.match(strangerRead.error ?? "", /TypeError/, "an origin not listed is blocked");
  });
});
