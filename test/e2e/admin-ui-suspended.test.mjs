/**
 * The admin of a suspended site in a real Chromium (docs/operations-api.md, "Suspending a site";
 * issue 23): the operators suspend a site through /api/ops; its people still read everything, a
 * banner says it is suspended (axe clean, 360 px), writes are refused 403 site_suspended; after
 * resuming the banner is gone. The footer shows the product's version (package.json).
 * Run: npm run test:e2e -- test/e2e/admin-ui-suspended.test.mjs
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8824;
const OPS_TOKEN = "e2e-suspend-token";
const VERSION = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
let admin;

const opsCall = (pathname) =>
  request(PORT, { method: "POST", host: `admin.localhost:${PORT}`, path: `/api/ops${pathname}`, body: {}, headers: { authorization: `Bearer ${OPS_TOKEN}`, "idempotency-key": `ui-${Date.now()}-${Math.random()}` } });

before(async () => {
  admin = await startAdmin({ port: PORT, vars: { OPS_TOKEN } });
});
after(async () => {
  await admin?.close();
});

describe("admin UI: a suspended site", () => {
  it("stays readable with a banner, refuses writes, and is editable again after resuming; the footer shows the version", async () => {
    const other = admin.info.sites.find((s) => s.slug !== "demo");
    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${other.id}/content`);
    await page.getByRole("contentinfo").filter({ hasText: `Driftwood ${VERSION}` }).waitFor();
    assert.equal(await page.getByRole("status").filter({ hasText: "is suspended" }).count(), 0);

    const suspended = await opsCall(`/sites/${other.id}/suspend`);
    assert.equal(suspended.status, 200, suspended.text);
    await page.reload();
    const banner = page.getByRole("status").filter({ hasText: "is suspended" });
    await banner.waitFor();
    assert.match(await banner.innerText(), /You can read everything; changes are refused until the operators resume the site\./);
    // Still readable: the content screen and its models load.
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await checkScreen(page, "suspended-site");

    // A write from the admin is refused with site_suspended.
    const refused = await page.evaluate(async (siteId) => {
      const { csrf_token } = await (await fetch("/api/session")).json();
      const res = await fetch("/api/management-credentials", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf_token, "x-site-id": siteId },
        body: JSON.stringify({ name: "while suspended", scopes: ["content:read"] }),
      });
      return { status: res.status, code: (await res.json()).error?.code };
    }, other.id);
    assert.deepEqual(refused, { status: 403, code: "site_suspended" });

    // The demo site is not suspended: no banner there.
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    await page.goto(`${admin.origin}/sites/${demo.id}/content`);
    await page.getByRole("contentinfo").waitFor();
    assert.equal(await page.getByRole("status").filter({ hasText: "is suspended" }).count(), 0);

    assert.equal((await opsCall(`/sites/${other.id}/resume`)).status, 200);
    await page.goto(`${admin.origin}/sites/${other.id}/content`);
    await page.getByRole("contentinfo").waitFor();
    assert.equal(await page.getByRole("status").filter({ hasText: "is suspended" }).count(), 0);
    await context.close();
  });
});
