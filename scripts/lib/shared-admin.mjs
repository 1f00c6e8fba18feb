/**
 * One `wrangler dev` and one Chromium for several admin browser files (docs/testing.md, "One
 * server and one browser for the admin files"). Each admin file used to start its own server on a
 * copy of the seeded state (≈ 5.7 s of CPU on the prepared worker) and its own Chromium: ≈ 11 s of
 * CPU before its first test (measured: server, browser and the harness's imports). The end-to-end
 * runner (scripts/test-e2e.mjs) starts one of each per lane for the admin files, which do not change
 * what another admin file reads, in a network namespace of their own (scripts/lib/e2e-admin-host.mjs),
 * and names them to the files
 * through SHARED_ADMIN_VARIABLE (a JSON file): `startAdmin` (test/e2e/admin-ui/harness.mjs) then
 * connects to them instead of starting its own, and a file run alone still starts its own.
 * Every file still gets fresh browser contexts (one per person), so nothing of a page is shared.
 */
import { writeFileSync } from "node:fs";
import chromium from "@sparticuz/chromium";
import { chromium as playwright } from "playwright-core";
import { startDevServer } from "./dev-server.mjs";

/** The environment variable naming the shared server's description (a JSON file: port, info, vars, wsEndpoint). */
export const SHARED_ADMIN_VARIABLE = "DRIFTWOOD_E2E_SHARED_ADMIN";
/** The shared server's port inside its namespace: no admin file uses it for a server of its own. */
export const SHARED_ADMIN_PORT = 8870;

/**
 * Server variables the shared server runs with. A file asking for exactly these (or a part of them)
 * uses the shared server; a file asking for any other value starts a server of its own. OPS_TOKEN turns the
 * operators' routes on (/api/ops, docs/operations-api.md) — only callers holding it reach them, so
 * the files that never call them see no difference; the suspended-site file uses it.
 */
export const SHARED_ADMIN_VARS = Object.freeze({ OPS_TOKEN: "e2e-shared-operators-token" });

/** The browser every admin file launches (the harness's options), as a server files connect to. */
export const browserOptions = async () => ({ executablePath: await chromium.executablePath(), args: ["--no-sandbox", "--no-zygote"], headless: true });

/**
 * Opens the sign-in screen once in the new browser, before the first file: the first admin page of
 * a new server and browser is the slow one (the admin's assets served and compiled the first time),
 * and on a loaded machine it outlasted the first file's 30–90 s wait — a batch's first file
 * failed its first `page.goto` in session 13 and twice in session 14, whichever file came first.
 * Waits for the screen's heading (no fixed sleep); a warm-up that fails is said and the files run
 * anyway (each reports its own waits).
 *
 * Then signs in once as the seeded administrator and waits for the content home (its "Sign out"
 * button, as the harness's `signInAs` does): in session 15's two-lane run at load 21–25 the
 * sign-in screen had loaded and the first files of both batches still failed their first signed-in
 * screen on 30 s waits (`site-screens` in its `before`, `lifecycle`) — the admin's screens after
 * the sign-in and the worker's first session and site reads were cold too. A successful sign-in
 * counts against nothing (only failures are throttled, docs/security.md) and writes only a session
 * of its own.
 */
async function warmUp(wsEndpoint, admin) {
  const started = Date.now();
  const browser = await playwright.connect(wsEndpoint);
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://admin.localhost:${SHARED_ADMIN_PORT}/sign-in`, { timeout: 180_000 });
    await page.getByRole("heading", { name: "Sign in to Driftwood" }).waitFor({ timeout: 180_000 });
    process.stdout.write(`shared admin: the sign-in screen loaded once in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 180_000 });
    process.stdout.write(`shared admin: signed in once, content home after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    process.stdout.write(`shared admin: the warm-up's sign-in did not finish (${error.message.split("\n")[0]}); the files run anyway\n`);
  } finally {
    await browser.close().catch(() => {});
  }
}

/** Starts the seeded server and a Chromium server, writes their description into `file`; `stop()` ends both. */
export async function startSharedAdmin(file) {
  const server = await startDevServer({ port: SHARED_ADMIN_PORT, vars: SHARED_ADMIN_VARS });
  let browserServer;
  try {
    browserServer = await playwright.launchServer(await browserOptions());
  } catch (error) {
    server.stop();
    throw error;
  }
  await warmUp(browserServer.wsEndpoint(), server.info.admin);
  writeFileSync(file, JSON.stringify({ port: SHARED_ADMIN_PORT, info: server.info, vars: SHARED_ADMIN_VARS, wsEndpoint: browserServer.wsEndpoint() }));
  return {
    async stop() {
      await browserServer.close().catch(() => {});
      server.stop();
    },
  };
}
