/**
 * End to end against `wrangler dev` and a real browser: every payload of the XSS corpus
 * (test/corpus/rich-text-xss.json) is written as an article body through the management API,
 * published, read from the public API, and the served HTML rendered inline in a page in headless
 * Chromium. No payload may run script. The harness first proves it can tell: the same payloads,
 * rendered as sent, do run script in the same page.
 * Run: npm run test:e2e (or node --test test/e2e/rich-text-xss.test.mjs)
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8795;
const corpus = JSON.parse(readFileSync(new URL("../corpus/rich-text-xss.json", import.meta.url), "utf8"));
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);
const ORIGIN = "http://render.test";
/** Pages rendered side by side: enough to overlap the waits, few enough for a 2-core machine. */
const RENDER_AT_ONCE = 4;
/** A request of this file that has no answer in this time fails, naming itself (a hang never leaves the run silent). */
const ANSWER_MS = 60_000;

let server;
let browser;

/**
 * A management API call with the seed's management token on the demo site. wrangler's local proxy
 * answers 503 "Your worker restarted mid-request" to a POST whose connection to the worker dropped
 * (a loaded machine: docs/testing.md, "Lanes"); the call is sent again with the same
 * Idempotency-Key (at most twice, said on stderr), so a write the worker did commit is replayed,
 * never made twice. Any other answer is the test's to judge.
 */
async function manage(method, path, body) {
  const headers = { authorization: `Bearer ${server.info.management_token}`, ...(method === "GET" ? {} : { "idempotency-key": `xss-${Date.now()}-${Math.random()}` }) };
  for (let attempt = 1; ; attempt++) {
    const res = await request(PORT, { method, host: "demo.localhost", path: `/api/manage/v1${path}`, body, headers, timeoutMs: ANSWER_MS });
    if (attempt > 2 || res.status !== 503 || !res.text.includes("restarted mid-request")) return res;
    process.stderr.write(`# ${method} ${path}: the local proxy lost the worker (503); sent again with the same key\n`);
  }
}

/** The page a website would serve: its own script defines `xss`, the value sits inline in its template. */
const page = (value) =>
  `<!doctype html><html><head><title>render</title><script>window.__ran = []; window.xss = (name) => { window.__ran.push(String(name)); console.log("XSS-RAN " + name); };</script></head>` +
  `<body><div id="root">${value}</div><p id="after">end</p></body></html>`;

/**
 * A tab that renders values one after the other (a pool of RENDER_AT_ONCE of them renders the
 * corpus): one browser context and one page for many values instead of a context and a page —
 * a renderer process — per value (docs/testing.md, "Where the CPU goes"). Every value is still
 * loaded as the page's own top-level document (its base, meta refresh, autofocus and body act as
 * they would in a website's page), and the tab goes to about:blank after each value, so whatever
 * fires on the way out (unload, a dialog) is recorded for the value that caused it, before the next
 * one is loaded. A value that leaves the page unusable (a render that throws) gets a new context.
 */
async function openTab() {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const slot = { value: "", dialogs: [], consoleLines: [] };
  tab.on("dialog", (dialog) => {
    slot.dialogs.push(dialog.type());
    void dialog.dismiss().catch(() => {});
  });
  tab.on("console", (message) => slot.consoleLines.push(message.text()));
  // Nothing leaves the machine: the page comes from this route, every other request fails here.
  await tab.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === "/") return route.fulfill({ status: 200, contentType: "text/html", body: page(slot.value) });
    return route.fulfill({ status: 404, contentType: "text/plain", body: "missing" });
  });
  return { context, tab, slot };
}

/**
 * Renders `value` inline in a page in Chromium (in `tab`, a tab of openTab) and reports what ran:
 * calls of `xss` (the flag the payloads set), dialogs (alert, confirm, print), console lines, and
 * links or sources whose scheme, as the browser resolved it, is not http, https, mailto or tel.
 */
async function renderIn({ tab, slot }, value) {
  slot.value = value;
  slot.dialogs = [];
  slot.consoleLines = [];
  try {
    // A fresh document each time: a hash or same-URL load could keep the previous one.
    await tab.goto(`${ORIGIN}/`, { waitUntil: "load", timeout: 10_000 });
  } catch {
    // A payload may navigate the page away (meta refresh, base); what ran until then is recorded.
  }
  await tab.waitForTimeout(300); // onerror of failed images, ontoggle, autofocus fire after load
  const seen = await tab
    .evaluate(() => {
      const urls = [];
      for (const el of document.querySelectorAll("#root [href], #root [src], #root [action], #root [formaction], #root [data]")) {
        for (const name of ["href", "src", "action", "formaction", "data"]) {
          const raw = el.getAttribute(name);
          if (raw !== null) urls.push(new URL(raw, document.baseURI).protocol);
        }
      }
      return { ran: window.__ran ?? ["page replaced"], urls, base: document.baseURI };
    })
    .catch(() => ({ ran: ["page replaced"], urls: [], base: "" }));
  // Leaving the value's document: unload handlers and dialogs on the way out count for this value.
  await tab.goto("about:blank", { timeout: 10_000 }).catch(() => {});
  const dialogs = [...slot.dialogs];
  const badUrls = seen.urls.filter((protocol) => !SAFE_PROTOCOLS.has(protocol));
  const ranScript = seen.ran.length > 0 || dialogs.length > 0 || slot.consoleLines.some((line) => line.startsWith("XSS-RAN"));
  return { ranScript, ran: seen.ran, dialogs, badUrls, base: seen.base };
}

/** Renders every value, RENDER_AT_ONCE tabs side by side, each value in its tab's own page load; results in input order. */
async function renderAll(values) {
  const results = new Array(values.length);
  let next = 0;
  const worker = async () => {
    let tab = await openTab();
    try {
      for (let i = next++; i < values.length; i = next++) {
        try {
          results[i] = await renderIn(tab, values[i]);
        } catch {
          // The tab itself broke (a crash, a closed page): a new one renders the value again.
          await tab.context.close().catch(() => {});
          tab = await openTab();
          results[i] = await renderIn(tab, values[i]);
        }
      }
    } finally {
      await tab.context.close().catch(() => {});
    }
  };
  await Promise.all(Array.from({ length: Math.min(RENDER_AT_ONCE, values.length) }, worker));
  return results;
}

/** One value in a tab of its own. */
const render = async (value) => (await renderAll([value]))[0];

before(async () => {
  server = await startDevServer({ port: PORT });
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: ["--no-sandbox", "--no-zygote"], headless: true });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** Publishes `ids` through the management API's bulk publish (25 a request); asserts each id's own result. */
async function publishAll(ids, names) {
  for (let start = 0; start < ids.length; start += 25) {
    const part = ids.slice(start, start + 25);
    const published = await manage("POST", "/entries/bulk-publish", { ids: part });
    assert.equal(published.status, 200, published.text);
    for (const [i, result] of JSON.parse(published.text).results.entries()) {
      assert.equal(result.id, part[i]);
      assert.equal(result.status, 200, `${names[start + i]}: ${JSON.stringify(result)}`);
    }
  }
}

describe("rich text in a real browser (issue #9 item 6)", () => {
  it("runs none of the corpus once written, published and served, while the same payloads rendered as sent do run", async () => {
    assert.ok(corpus.length >= 28, `the corpus holds ${corpus.length} payloads`);

    // The harness can fail: rendered as sent, payloads run script and keep script URLs.
    const plain = await render("<p>plain text</p>");
    assert.equal(plain.ranScript, false, "a plain paragraph must not count as script");
    const raw = (await renderAll(corpus.map((payload) => payload.html))).flatMap((result, i) => (result.ranScript || result.badUrls.length > 0 ? [corpus[i].name] : []));
    for (const known of ["script tag", "img onerror", "svg onload", "mXSS through noscript", "svg style", "javascript: link", "autofocus onfocus", "details ontoggle"]) {
      assert.ok(raw.includes(known), `the harness did not detect "${known}" rendered as sent`);
    }
    assert.ok(raw.length >= 20, `only ${raw.length} payloads were detected as sent`);

    const models = JSON.parse((await manage("GET", "/models")).text);
    const article = models.data.find((m) => m.slug === "article");
    assert.ok(article, "the demo has an article model");
    const stored = [];
    for (const [index, payload] of corpus.entries()) {
      const slug = `xss-e2e-${index}`;
      const created = await manage("POST", "/entries", { model_id: article.id, slug, fields: { title: payload.name, body: payload.html } });
      if (payload.refused) {
        // The rules refuse it outright: nothing is stored, nothing served.
        assert.equal(created.status, 422, `${payload.name}: ${created.text}`);
        continue;
      }
      assert.equal(created.status, 201, `${payload.name}: ${created.text}`);
      stored.push({ name: payload.name, slug, id: JSON.parse(created.text).instance_id });
    }
    await publishAll(stored.map((s) => s.id), stored.map((s) => s.name));
    const servedPages = [];
    for (const { name, slug } of stored) {
      const item = await request(PORT, { host: "demo.localhost", path: `/v1/article/${slug}`, timeoutMs: ANSWER_MS });
      assert.equal(item.status, 200, `${name}: ${item.text}`);
      servedPages.push({ name, served: JSON.parse(item.text).data.fields.body ?? "" });
    }
    const failures = [];
    (await renderAll(servedPages.map(({ served }) => served))).forEach((result, i) => {
      const { name, served } = servedPages[i];
      if (result.ranScript || result.badUrls.length > 0) {
        failures.push(`${name}: ran ${JSON.stringify(result.ran)}, dialogs ${JSON.stringify(result.dialogs)}, urls ${JSON.stringify(result.badUrls)} in ${served}`);
      }
    });
    assert.deepEqual(failures, []);
    console.log(`# ${raw.length} of ${corpus.length} payloads ran script or kept a script URL as sent; none once served`);
  });

  it("renders tables, a gallery of the demo's images, an embed and a plugin block inline without running script (#13 item 9)", async () => {
    const models = JSON.parse((await manage("GET", "/models")).text);
    const article = models.data.find((m) => m.slug === "article");
    const media = JSON.parse((await manage("GET", "/media")).text).data.map((m) => m.id);
    assert.ok(media.length >= 2, "the demo has at least two images");
    const samples = [
      {
        name: "table",
        kept: /^<table><caption>T<img src="x"><\/caption><tbody><tr><th scope="col">h<\/th><td colspan="2">c<\/td><\/tr><\/tbody><\/table>$/,
        html: `<table onmouseover=xss('table')><caption>T<img src=x onerror=xss('caption')></caption><tr><th scope=col onclick=xss('th')>h</th><td colspan=2 style="background:url(javascript:xss('td'))">c<script>xss('td-script')</script></td></tr></table>`,
      },
      {
        name: "gallery",
        kept: /^<figure data-gallery=""><img data-media="med_[^"]+"><img data-media="med_[^"]+"><figcaption>G<\/figcaption><\/figure>$/,
        html: `<figure data-gallery onmouseenter=xss('gallery')><img data-media="${media[0]}" onerror=xss('g1')><img data-media="${media[1]}" src="javascript:xss('g2')"><figcaption>G<svg onload=xss('g-svg')></svg></figcaption></figure>`,
      },
      {
        name: "embed",
        kept: /^<figure data-embed="https:\/\/www\.youtube\.com\/embed\/dQw4w9WgXcQ"><figcaption>V<\/figcaption><\/figure>$/,
        html: `<figure data-embed="https://www.youtube.com/embed/dQw4w9WgXcQ" onclick=xss('embed')><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" onload=xss('embed-iframe')></iframe><figcaption>V</figcaption></figure>`,
      },
      {
        name: "block",
        kept: /^<div data-block-group=""><div data-block="demo-helper\/callout" data-version="1" data-values="[^"]+"><\/div><\/div>$/,
        html: `<div data-block-group autofocus tabindex=0 onfocus=xss('group')><div data-block="demo-helper/callout" data-version="1" data-values='{"text":"<img src=x onerror=xss(1)>","tone":"info"}' onmouseover=xss('block')></div></div>`,
      },
    ];
    const asSent = await renderAll(samples.map((sample) => sample.html));
    const ids = [];
    for (const [i, sample] of samples.entries()) {
      assert.ok(asSent[i].ranScript || asSent[i].badUrls.length > 0 || sample.name === "block", `${sample.name}: the harness did not detect the payload as sent`);
      const created = await manage("POST", "/entries", { model_id: article.id, slug: `rich-e2e-${sample.name}`, fields: { title: sample.name, body: sample.html } });
      assert.equal(created.status, 201, `${sample.name}: ${created.text}`);
      assert.ok(JSON.parse(created.text).warnings?.[0]?.code === "rich_markup_dropped", `${sample.name}: the dropped markup is reported`);
      ids.push(JSON.parse(created.text).instance_id);
    }
    await publishAll(ids, samples.map((sample) => sample.name));
    const served = [];
    for (const sample of samples) {
      const item = await request(PORT, { host: "demo.localhost", path: `/v1/article/rich-e2e-${sample.name}`, timeoutMs: ANSWER_MS });
      assert.equal(item.status, 200, `${sample.name}: ${item.text}`);
      served.push(JSON.parse(item.text).data.fields.body ?? "");
      assert.match(served.at(-1), sample.kept, `${sample.name}: the canonical markup is served`);
    }
    const failures = [];
    (await renderAll(served)).forEach((result, i) => {
      if (result.ranScript || result.badUrls.length > 0) failures.push(`${samples[i].name}: ran ${JSON.stringify(result.ran)} in ${served[i]}`);
    });
    assert.deepEqual(failures, []);
  });
});
