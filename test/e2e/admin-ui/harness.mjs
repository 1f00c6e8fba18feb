/**
 * The admin UI's browser tests, as a person uses it: `npm start`'s service (seeded demo, real
 * wrangler dev) and a real Chromium (`@sparticuz/chromium` ships the binary inside its npm
 * package, driven by playwright-core). Helpers: sign in, check a screen with axe-core (no serious
 * or critical violation), check it at 360 px (nothing wider than the screen), save a screenshot
 * (test/artifacts/admin-ui/; with UPDATE_DOCS_SCREENSHOTS=1 also the visible window for
 * docs/admin-ui/, through `npm run docs:screenshots`).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium as playwright } from "playwright-core";
import { root } from "../../../scripts/lib/load-ts.mjs";
import { request, startDevServer } from "../../../scripts/lib/dev-server.mjs";
import { browserOptions, SHARED_ADMIN_VARIABLE } from "../../../scripts/lib/shared-admin.mjs";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const ARTIFACTS = path.join(root, "test", "artifacts", "admin-ui");
// `npm run docs:screenshots` (scripts/docs-screenshots.mjs) names a directory outside the
// repository: nothing under the running `wrangler dev`'s project changes during a run, and the
// shots reach docs/admin-ui/ only once their file has passed.
const DOC_SCREENS = process.env.DOCS_SCREENSHOTS_DIR ? path.resolve(process.env.DOCS_SCREENSHOTS_DIR) : path.join(root, "docs", "admin-ui");

/**
 * The lane's shared server and browser (scripts/lib/shared-admin.mjs) when the end-to-end runner
 * named them and every server variable this file asks for is one the shared server runs with (same
 * value); else null (the file starts its own).
 */
async function sharedAdmin(vars) {
  const described = process.env[SHARED_ADMIN_VARIABLE];
  if (!described) return null;
  const { port, info, vars: serverVars = {}, wsEndpoint } = JSON.parse(readFileSync(described, "utf8"));
  if (Object.entries(vars).some(([name, value]) => serverVars[name] !== value)) return null;
  const browser = await playwright.connect(wsEndpoint);
  // The server belongs to the lane's admin host: this file only disconnects its browser (its contexts close with it).
  return { port, browser, server: { info, port, plugin: null, stop: () => {} } };
}

/**
 * Starts the seeded service and a browser; `close()` stops both. In the end-to-end run
 * (scripts/test-e2e.mjs) it connects to its lane's shared server and browser instead: `port` is
 * then the shared server's — use `admin.port` and `admin.origin`, never the file's own constant.
 */
export async function startAdmin({ port: ownPort, vars = {} }) {
  const shared = await sharedAdmin(vars);
  const port = shared?.port ?? ownPort;
  const server = shared?.server ?? (await startDevServer({ port, vars }));
  const browser = shared?.browser ?? (await playwright.launch(await browserOptions()));
  const origin = `http://admin.localhost:${port}`;
  return {
    server,
    browser,
    origin,
    port,
    info: server.info,
    /** A management API call with the seed's token on the demo site (set-up and checks). */
    manage: (method, pathname, body) =>
      request(port, {
        method,
        host: "demo.localhost",
        path: `/api/manage/v1${pathname}`,
        body,
        headers: { authorization: `Bearer ${server.info.management_token}`, ...(method === "GET" ? {} : { "idempotency-key": `ui-test-${Date.now()}-${Math.random()}` }) },
      }).then((res) => ({ status: res.status, body: res.text ? JSON.parse(res.text) : null })),
    /** A public API read on the demo site. */
    publicRead: (pathname) => request(port, { host: "demo.localhost", path: pathname }).then((res) => ({ status: res.status, body: res.text ? JSON.parse(res.text) : null })),
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}

/**
 * A new browser context (one person) and page. Console errors and failed requests of our origin
 * are collected: a screen that throws shows up in `page.problems`.
 */
export async function newPerson(admin, { width = 1280, height = 900 } = {}) {
  const context = await admin.browser.newContext({ viewport: { width, height } });
  // 60 s, not Playwright's 30: a screen's first load on the local runtime took over 30 s when the
  // batch ran beside the workerd suite on CI (docs/testing.md, "Retried once, alone"). A wait that
  // is a requirement (an observer sees saves within 10 s) has its own bound in its test.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (error) => page.problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // Chromium logs every 4xx answer as "Failed to load resource": refusals the screens show in
    // words (a 401 before sign-in, a 409 shown to the editor) are not faults of the page.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) page.problems.push(`console: ${message.text()}`);
  });
  return { context, page };
}

/** Signs in through the sign-in screen and waits for the first signed-in screen. */
export async function signInAs(page, origin, email, password) {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/**
 * Runs axe-core on the page as it is (injected through the debugging protocol, so the page's own
 * script policy stays on) and fails on any serious or critical violation. Returns the report.
 */
export async function checkAxe(page, name) {
  // Once per document: parsing the 500 KB source cost more Chromium CPU (≈ 0.31 s) than a run of
  // every rule on a typical screen (≈ 0.2 s), and checkScreen runs axe twice on the same document
  // (docs/testing.md). A screen reached by the admin's own navigation keeps the document, so axe
  // stays; a new document (goto, reload) has none and gets it again. Each run reads the DOM afresh.
  if (!(await page.evaluate(() => typeof globalThis.axe?.run === "function"))) await page.evaluate(AXE_SOURCE);
  const report = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ["violations"] }));
  const bad = report.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`),
    [],
    `axe found serious or critical violations on ${name}`,
  );
  return report;
}

/** Fails when anything on the page is wider than the viewport (the 360 px check). */
export async function checkFits(page, name) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width + 1, `${name}: the page is ${scroll}px wide in a ${width}px window`);
}

/**
 * Saves a full-page screenshot as a test artefact (and into docs/admin-ui/ when asked). `npm test`
 * sets DRIFTWOOD_E2E_SCREENSHOTS=0: the pictures check nothing, and about 160 full-page PNGs were
 * CPU the budget needs (docs/testing.md); a file run on its own, or the docs' update, still saves them.
 */
export async function screenshot(page, name) {
  if (process.env.DRIFTWOOD_E2E_SCREENSHOTS === "0" && process.env.UPDATE_DOCS_SCREENSHOTS !== "1") return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  // docs/admin-ui.md shows each screen once, wide; the 360 px shots stay test artefacts.
  if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" && !name.endsWith("-360")) {
    mkdirSync(DOC_SCREENS, { recursive: true });
    // The visible window only: what a person sees first, and a light file for the repository.
    await page.screenshot({ path: path.join(DOC_SCREENS, `${name}.png`) });
  }
}

/** Every check of a screen at once: axe, a screenshot, then the same at 360 px wide. */
export async function checkScreen(page, name) {
  await checkAxe(page, name);
  await screenshot(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  await checkFits(page, `${name} at 360 px`);
  await checkAxe(page, `${name} at 360 px`);
  await screenshot(page, `${name}-360`);
  if (size) await page.setViewportSize(size);
  assert.deepEqual(page.problems, [], `${name}: the page reported errors`);
}
