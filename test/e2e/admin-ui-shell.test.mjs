/**
 * Admin UI in a real Chromium (issue #15 items 2 and 10): sign-in (wrong password in words, the
 * demo login), the site switcher, the no-access screen, sign-out; axe and 360 px on each screen.
 * Also Settings › Source and publishing (issue #25 item 8): the backend download, a read token
 * issued (its secret shown once) and revoked, a readiness problem linking to the model causing it —
 * on the seeded second site ("other"), whose models no other admin file changes: readiness is read
 * over every model of a site, and the demo site's models change in the files that share this
 * file's server (docs/testing.md, "One server and one browser for the admin files").
 * Run: npm run test:e2e (or node --test test/e2e/admin-ui-shell.test.mjs)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkAxe, checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

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

  it("Settings › Source and publishing: downloads the backend, issues and revokes a read token, links a readiness problem to its model", async () => {
    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    // The second site: its readiness is over its own models, which no other file of a shared batch
    // touches (the demo site's are changed by the content, models, review and site-screens files).
    const site = admin.info.sites.find((s) => s.slug !== "demo");
    await page.goto(`${admin.origin}/sites/${site.id}/content`);
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Settings" }).click();
    // Settings opens on General (admin/src/settings/); Source and publishing is one of its sections.
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Source and publishing" }).click();
    await page.waitForURL(`**/sites/${site.id}/settings/source`);
    await page.getByRole("heading", { name: "Source and publishing" }).waitFor();
    await page.getByText("Ready: the backend can be generated from this site.").waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download the backend (.tar.gz)" }).click()]);
    assert.equal(download.suggestedFilename(), `${site.slug}-backend.tar.gz`);
    // Read through the download's stream: a browser the file connected to (a shared batch's
    // Chromium server) keeps the file on its side, where `download.path()` is not available.
    const chunks = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], "a gzip archive");

    await page.getByLabel("Token name").fill("Storefront");
    await page.getByRole("button", { name: "Issue read token" }).click();
    const secret = page.getByLabel("Secret of Storefront");
    await secret.waitFor();
    assert.match(await secret.inputValue(), /^dwb_/);
    const row = page.getByRole("row").filter({ hasText: "Storefront" });
    await row.getByRole("cell", { name: "Active", exact: true }).waitFor();
    await checkScreen(page, "source-publishing");
    await row.getByRole("button", { name: "Revoke Storefront" }).click();
    await row.getByRole("cell", { name: /^Revoked / }).waitFor();

    // A model whose API name the generated backend reserves ("auth"): a model-level problem. Its slug
    // is this run's own (the name must stay "Auth": the reserved API name comes from it).
    const authSlug = `auth-accounts-${Date.now().toString(36)}`;
    const created = await page.evaluate(async ({ site, slug }) => {
      const who = await fetch("/api/session").then((r) => r.json());
      const res = await fetch("/api/v1/models", {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json", "x-site-id": site, "x-csrf-token": who.csrf_token, "idempotency-key": `e2e-${crypto.randomUUID()}` },
        body: JSON.stringify({ definition: { model: { name: "Auth", slug }, fields: [{ key: "title", label: "Title", type: "text" }] } }),
      });
      return { status: res.status, body: await res.json() };
    }, { site: site.id, slug: authSlug });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await page.reload();
    const problem = page.getByRole("row").filter({ hasText: "model_name_collision" });
    await problem.waitFor();
    assert.equal(await page.getByRole("button", { name: "Download the backend (.tar.gz)" }).isDisabled(), true);
    await checkAxe(page, "source-publishing with a problem");
    await problem.getByRole("link", { name: "Model Auth" }).click();
    await page.waitForURL(`**/sites/${site.id}/content/${created.body.model_id}`);
    assert.deepEqual(page.problems, []);
    await context.close();
  });
});
