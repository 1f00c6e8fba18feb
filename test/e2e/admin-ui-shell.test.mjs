/**
 * Admin UI in a real Chromium (issue #15 items 2 and 10): sign-in (wrong password in words, the
 * demo login), the site switcher, the no-access screen, sign-out; axe and 360 px on each screen.
 * Run: npm run test:e2e (or node --test test/e2e/admin-ui-shell.test.mjs)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8790;
let admin;

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

describe("admin UI: sign-in, sites, no access", () => {
  it("signs in with the printed demo login, switches sites, refuses a foreign site in words, signs out", async () => {
    const { context, page } = await newPerson(admin);
    await page.goto(`${admin.origin}/`);
    // Signed out: any address leads to sign-in and comes back after it.
    await page.getByRole("heading", { name: "Sign in to Driftwood" }).waitFor();
    await checkScreen(page, "sign-in");

    await page.getByLabel("Email").fill(admin.info.admin.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "The email or password is not right." }).waitFor();

    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    const sites = admin.info.sites;
    assert.ok(sites.length >= 2, "the demo seeds two sites");
    await page.getByRole("heading", { name: "Your sites" }).waitFor();
    await checkScreen(page, "sites");

    const demo = sites.find((s) => s.slug === "demo");
    const other = sites.find((s) => s.slug !== "demo");
    await page.locator(`main a[href="/sites/${demo.id}/content"]`).click();
    await page.waitForURL(`**/sites/${demo.id}/content`);
    const switcher = page.getByRole("combobox", { name: "Site" });
    assert.equal(await switcher.inputValue(), demo.id);
    await switcher.selectOption(other.id);
    await page.waitForURL(`**/sites/${other.id}/content`);

    await page.goto(`${admin.origin}/sites/site_notmine/content`);
    await page.getByRole("heading", { name: "No access" }).waitFor();
    await checkScreen(page, "no-access");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to Driftwood" }).waitFor();
    const after = await page.evaluate(() => fetch("/api/session").then((r) => r.status));
    assert.equal(after, 401);
    await context.close();
  });
});
