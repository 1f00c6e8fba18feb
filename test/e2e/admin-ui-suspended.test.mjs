/**
 * The admin of a suspended site in a real Chromium (docs/operations-api.md, "Suspending a site";
 * issue 23): the operators suspend a site through /api/ops; its people still read everything, a
 * banner says it is suspended (axe clean, 360 px), writes are refused 403 site_suspended; after
 * resuming the banner is gone. The footer shows the product's version (package.json).
 * And the superadmin's Sites screens (issue 23 item 5, docs/admin-ui-operators.md): the seeded
 * operator creates a site, adds and removes a host, invites its administrator (the link shown
 * once), suspends it, copies the demo site's models, and deletes the copy after typing its
 * slug; axe clean and 360 px on the list, a site and each dialog; a site's admin is refused.
 * Run: npm run test:e2e -- test/e2e/admin-ui-suspended.test.mjs
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";
import { SHARED_ADMIN_VARS } from "../../scripts/lib/shared-admin.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8824;
// The operators' token the shared admin server of a lane runs with (scripts/lib/shared-admin.mjs):
// with the same value this file uses that server; run alone it starts its own server with it.
const { OPS_TOKEN } = SHARED_ADMIN_VARS;
const VERSION = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
let admin;

const opsCall = (pathname) =>
  request(admin.port, { method: "POST", host: `admin.localhost:${admin.port}`, path: `/api/ops${pathname}`, body: {}, headers: { authorization: `Bearer ${OPS_TOKEN}`, "idempotency-key": `ui-${Date.now()}-${Math.random()}` } });

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

  it("gives a superadmin the Sites screens: create, hosts, invite, suspend, copy and delete", async () => {
    const slug = `ui-site-${Date.now().toString(36)}`;
    const { context, page } = await newPerson(admin);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: admin.origin });
    await signInAs(page, admin.origin, admin.info.superadmin.email, admin.info.superadmin.password);
    // A superadmin starts on every site of the deployment.
    await page.getByRole("heading", { name: "Sites", level: 1 }).waitFor();
    const demoRow = page.getByRole("row").filter({ hasText: "(demo)" });
    await demoRow.getByRole("cell", { name: /published/ }).waitFor();
    await checkScreen(page, "operators-sites");

    // Create a site.
    await page.getByRole("button", { name: "Create a site" }).click();
    const create = page.getByRole("dialog", { name: "Create a site" });
    await create.getByLabel("Name").fill("Made by the operator");
    await create.getByLabel("Slug").fill("Not A Slug");
    await create.getByLabel("Hosts").fill(`${slug}.localhost`);
    await create.getByLabel("Languages").fill("en, de");
    await create.getByRole("button", { name: "Create site" }).click();
    await create.getByRole("alert").first().waitFor();
    await checkScreen(page, "operators-create-refused");
    await create.getByLabel("Slug").fill(slug);
    await create.getByRole("button", { name: "Create site" }).click();
    await page.getByRole("heading", { name: "Made by the operator", level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/operators/sites/${slug}`);

    // Hosts: add one, remove the first; the last one cannot go.
    await page.getByLabel("New host").fill(`www.${slug}.localhost`);
    await page.getByRole("button", { name: "Add host" }).click();
    await page.getByRole("status").filter({ hasText: `www.${slug}.localhost now serves` }).waitFor();
    await page.getByRole("button", { name: `Remove host ${slug}.localhost` }).click();
    await page.getByRole("status").filter({ hasText: `${slug}.localhost no longer serves` }).waitFor();
    assert.equal(await page.getByRole("button", { name: `Remove host www.${slug}.localhost` }).isDisabled(), true);

    // Invite the administrator: the link is shown once and opens the accept screen.
    await page.getByLabel("Administrator's email").fill(`owner-${slug}@example.test`);
    await page.getByRole("button", { name: "Invite administrator" }).click();
    const link = await page.getByLabel("Invitation link").inputValue();
    assert.match(link, /\/invite/);
    await checkScreen(page, "operators-site");

    // Suspend, with a question first.
    await page.getByRole("button", { name: "Suspend site…" }).click();
    const ask = page.getByRole("dialog", { name: /^Suspend/ });
    await ask.getByRole("button", { name: "Suspend site" }).click();
    await page.getByRole("status").filter({ hasText: "is suspended" }).first().waitFor();
    assert.equal(await page.getByRole("button", { name: "Resume site" }).isVisible(), true);

    // Copy the demo site with its content, then delete the copy.
    await page.goto(`${admin.origin}/operators/sites/demo`);
    // Loaded by its address (the admin host serves the app at /operators/…), figures counted on every read.
    await page.getByRole("heading", { name: "Driftwood Demo", level: 1 }).waitFor({ timeout: 90_000 });
    assert.deepEqual(page.problems, []);
    await page.getByRole("button", { name: "Copy site…" }).click();
    const copy = page.getByRole("dialog", { name: /^Copy / });
    await copy.getByLabel("New site's name").fill("Demo copy");
    await copy.getByLabel("New site's slug").fill(`${slug}-copy`);
    await copy.getByLabel("New site's hosts").fill(`${slug}-copy.localhost`);
    await checkScreen(page, "operators-copy");
    // Models, roles and settings only (content copies are covered in test/integration/ops-site-copy.test.ts).
    await copy.getByLabel(/Copy the content/).uncheck();
    await copy.getByLabel(/Copy the media library/).uncheck();
    await copy.getByRole("button", { name: "Copy site" }).click();
    await page.getByRole("heading", { name: "Demo copy", level: 1 }).waitFor({ timeout: 120_000 });
    await page.getByRole("definition").filter({ hasText: "no entries" }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Delete site…" }).isDisabled(), true);
    await page.getByRole("button", { name: "Suspend site…" }).click();
    await page.getByRole("dialog", { name: /^Suspend/ }).getByRole("button", { name: "Suspend site" }).click();
    await page.getByRole("button", { name: "Resume site" }).waitFor();
    await page.getByRole("button", { name: "Delete site…" }).click();
    const remove = page.getByRole("dialog", { name: "Delete Demo copy" });
    assert.equal(await remove.getByRole("button", { name: "Delete site" }).isDisabled(), true);
    await remove.getByLabel(/Type the site's slug/).fill(`${slug}-copy`);
    await checkScreen(page, "operators-delete");
    await remove.getByRole("button", { name: "Delete site" }).click();
    await page.getByRole("status").filter({ hasText: `Site ${slug}-copy is deleted.` }).waitFor({ timeout: 120_000 });
    assert.equal(await page.getByRole("row").filter({ hasText: `(${slug}-copy)` }).count(), 0);
    await context.close();

    // A site's administrator is not an operator.
    const other = await newPerson(admin);
    await signInAs(other.page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await other.page.goto(`${admin.origin}/operators/sites`);
    await other.page.getByText("These pages are for the people who run this deployment").waitFor();
    assert.equal(await other.page.getByRole("link", { name: "All sites" }).count(), 0);
    await other.context.close();
  });
});
