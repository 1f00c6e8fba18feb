/**
 * The admin's site screens in a real Chromium (issues #27, #28 item 6, #29; docs/admin-ui-site.md),
 * one server and one browser, the screens driven in sequence as a person uses them, by accessible
 * names: a real WordPress export (the WordPress importer's small-export.xml) imported through the
 * Import screen — upload in parts, the review, the steps, the receipt — then undone; a whole-site
 * export built and downloaded (SHA-256 checked by the screen); a release of two changes made with
 * the entry picker and published; a redirect added and a reserved one refused in words; a menu
 * made and reordered from the keyboard; CORS origins saved; Site Chrome, SEO defaults and robots
 * rules saved (a logo from the library, refusals in words, a stale write explained). axe and 360 px
 * on every screen.
 * Run: unshare -n bash -c 'ip link set lo up && npm run test:e2e -- test/e2e/admin-ui-site-screens.test.mjs'
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { root } from "../../scripts/lib/load-ts.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8827;
const WXR = path.join(root, "test", "fixtures", "wordpress", "small-export.xml");
let admin;
let page;
let site;
let postModel;

before(async () => {
  admin = await startAdmin({ port: PORT });
  site = admin.info.sites.find((s) => s.slug === "demo").id;
  // A post model for the WordPress posts (the review proposes it by its slug) and the release's entries.
  const models = (await admin.manage("GET", "/models")).body.data;
  const category = models.find((m) => m.slug === "category");
  const created = await admin.manage("POST", "/models", {
    definition: {
      model: { name: "Post", slug: "post" },
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "body", label: "Body", type: "rich_text" },
        { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] },
        { key: "internal_note", label: "Internal note", type: "text", private: true },
      ],
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  postModel = created.body.model_id;
  ({ page } = await newPerson(admin));
  // The first page of a fresh server on the shared 2-core machine can take longer than 30 s to load.
  page.setDefaultNavigationTimeout(90_000);
  await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
});

after(async () => {
  await admin?.close();
});

const at = (address) => `${admin.origin}/sites/${encodeURIComponent(site)}${address}`;
/** Waits for `locator`, failing at once with the screen's words when a refusal shows instead. */
async function shownOrRefused(locator, timeout = 60_000) {
  const alert = page.getByRole("alert");
  const first = await Promise.race([locator.waitFor({ timeout }).then(() => "shown"), alert.first().waitFor({ timeout }).then(() => "refused")]);
  if (first === "refused") assert.fail(`refused: ${await alert.first().textContent()}`);
}
const status = () => page.getByRole("status").filter({ hasNotText: /Loading/ });

describe("admin UI: site screens", () => {
  it("imports a WordPress export through the Import screen to its receipt, then undoes it", async () => {
    await page.goto(at("/import"));
    await page.getByRole("heading", { name: "Import a WordPress export" }).waitFor();
    await checkScreen(page, "site-import");
    await page.getByLabel("WordPress export file (WXR)").setInputFiles(WXR);
    await page.getByRole("button", { name: "Upload and read the file" }).click();
    await shownOrRefused(page.getByRole("button", { name: "Read the file", exact: true }));
    assert.match(await page.evaluate(() => window.location.search), /^\?job=/, "the job is in the address");
    await page.getByRole("button", { name: "Read the file", exact: true }).click();
    const review = page.getByRole("region", { name: "Review before anything is written" });
    await review.waitFor({ timeout: 60_000 });
    assert.equal(await review.getByLabel("Posts go into").inputValue(), postModel, "the review proposes the post model");
    await checkScreen(page, "site-import-review");
    await review.getByRole("button", { name: "Approve and import" }).click();
    await shownOrRefused(status().filter({ hasText: /The import is done: (\d+) of \1 items/ }), 180_000);
    await page.getByRole("cell", { name: "status_kept_as_draft" }).first().waitFor();
    await page.getByRole("button", { name: "Show the receipt" }).click();
    const receipt = page.getByRole("region", { name: "Receipt" });
    await receipt.getByRole("link", { name: "Save the receipt" }).waitFor();
    assert.match(await receipt.getByRole("table").textContent(), /post.*published: \d+/s);
    await checkScreen(page, "site-import-receipt");
    const served = await admin.publicRead("/v1/post/top-level-foo");
    assert.equal(served.status, 200, "an imported post is served");

    await page.getByRole("button", { name: "Undo the import" }).click();
    await page.getByRole("dialog", { name: "Undo this import?" }).getByRole("button", { name: "Undo the import" }).click();
    await shownOrRefused(status().filter({ hasText: "The import is undone." }), 180_000);
    assert.equal((await admin.publicRead("/v1/post/top-level-foo")).status, 404, "the undo removed the imported post");
  });

  it("builds a whole-site export and downloads it", async () => {
    await page.goto(at("/export"));
    await page.getByRole("button", { name: "Build a new export" }).click();
    await status().filter({ hasText: /The export is ready: [\d,]+ bytes/ }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Download" }).click();
    const save = page.getByRole("link", { name: /Save the export file \([\d,]+ bytes\)/ });
    await save.waitFor();
    assert.match(await save.getAttribute("href"), /^blob:/);
    await checkScreen(page, "site-export");
  });

  it("publishes a release of two changes", async () => {
    for (const [title, slug] of [
      ["Harbour release one", "harbour-release-one"],
      ["Harbour release two", "harbour-release-two"],
    ]) {
      const made = await admin.manage("POST", "/entries", { model_id: postModel, slug, fields: { title } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
    }
    await page.goto(at("/releases"));
    await page.getByRole("button", { name: "New release" }).click();
    const form = page.getByRole("form", { name: "New release" });
    await form.getByLabel("Name").fill("Harbour launch");
    await form.getByRole("button", { name: "Add entries" }).click();
    const picker = page.getByRole("dialog", { name: "Add entries to the release" });
    await picker.getByLabel("Model").selectOption({ label: "Post" });
    await picker.getByLabel("Search by title").fill("Harbour release");
    await picker.getByRole("checkbox", { name: /Harbour release one/ }).check({ timeout: 60_000 });
    await picker.getByRole("checkbox", { name: /Harbour release two/ }).check();
    await picker.getByRole("button", { name: "Add 2 selected" }).click();
    assert.equal(await form.getByLabel("What happens to Harbour release one").inputValue(), "publish");
    await form.getByRole("button", { name: "Create the release" }).click();
    const detail = page.getByRole("region", { name: "Harbour launch" });
    await shownOrRefused(detail.getByRole("button", { name: "Publish now" }));
    await checkScreen(page, "site-releases");
    await detail.getByRole("button", { name: "Preview" }).click();
    await detail.getByText("Every change can be published.").waitFor();
    await detail.getByRole("button", { name: "Publish now" }).click();
    await page.getByRole("dialog", { name: "Publish Harbour launch now?" }).getByRole("button", { name: "Publish every change" }).click();
    await status().filter({ hasText: "The release Harbour launch is published: 2 changes made together." }).waitFor();
    for (const slug of ["harbour-release-one", "harbour-release-two"]) assert.equal((await admin.publicRead(`/v1/post/${slug}`)).status, 200, `${slug} is published`);

    // The calendar lists a schedule (made through the API) by day and cancels it.
    const two = (await admin.manage("GET", `/entries?model_id=${postModel}&limit=100`)).body.data.find((e) => e.slug === "harbour-release-two");
    const fireAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    assert.equal((await admin.manage("POST", "/schedules", { entry_id: two.instance_id, action: "unpublish", at: fireAt })).status, 201);
    await page.getByRole("link", { name: "Calendar" }).click();
    const cancel = page.getByRole("button", { name: /^Cancel the unpublish at / });
    await cancel.waitFor();
    await checkScreen(page, "site-calendar");
    await cancel.click();
    await status().filter({ hasText: /The unpublish at .* is cancelled\./ }).waitFor();
  });

  it("adds a redirect and shows a refused one in words", async () => {
    await page.goto(at("/settings/redirects"));
    const form = page.getByRole("form", { name: "New redirect" });
    await form.getByLabel("From (a site path)").fill("/old-harbour");
    await form.getByLabel("To (a site path or an https URL)").fill("/harbour");
    await form.getByRole("button", { name: "Check the rule" }).click();
    await status().filter({ hasText: "This rule can be added." }).waitFor();
    await form.getByRole("button", { name: "Add the redirect" }).click();
    await status().filter({ hasText: "The redirect from /old-harbour is added." }).waitFor();
    await page.getByRole("cell", { name: "/old-harbour", exact: true }).waitFor();
    await form.getByLabel("From (a site path)").fill("/api/old");
    await form.getByLabel("To (a site path or an https URL)").fill("/harbour");
    await form.getByRole("button", { name: "Add the redirect" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "This address belongs to the platform (API, media, sitemap…) and cannot be redirected." });
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /Rule: \/api\/old/);
    await checkScreen(page, "site-redirects");
    const rules = (await admin.manage("GET", "/redirects")).body.data;
    assert.deepEqual(
      rules.map((r) => r.source),
      ["/old-harbour"],
    );
  });

  it("makes a menu and reorders it from the keyboard", async () => {
    await page.goto(at("/settings/menus"));
    await page.getByLabel("New menu's name").fill("main");
    await page.getByRole("button", { name: "Start the menu" }).click();
    const editor = page.getByRole("form", { name: "Menu main" });
    await editor.getByRole("button", { name: "Add an item" }).click();
    await editor.getByLabel("Label of item 1").fill("Docs");
    await editor.getByLabel("Address of Docs").fill("https://docs.example.com");
    await editor.getByRole("button", { name: "Add an item" }).click();
    await editor.getByLabel("Label of item 2").fill("About");
    await editor.getByLabel("Address of About").fill("/about");
    await editor.getByRole("button", { name: "Add a sub-item under About" }).click();
    await editor.getByLabel("Label of sub-item 1").fill("Team");
    await editor.getByLabel("Team points at").selectOption("entry");
    await editor.getByRole("button", { name: "Choose an entry for Team" }).click();
    const picker = page.getByRole("dialog", { name: "Choose the entry this item points at" });
    await picker.getByLabel("Model").selectOption({ label: "Post" });
    await picker.getByLabel("Search by title").fill("Harbour release one");
    await picker
      .getByRole("button", { name: /Harbour release one/ })
      .click({ timeout: 60_000 })
      .catch(async (error) => assert.fail(`${error.message}\n${await picker.innerText()}`));
    await editor.getByText("Harbour release one").waitFor();
    await editor.getByRole("button", { name: "Move up: About" }).focus();
    await page.keyboard.press("Enter");
    await status().filter({ hasText: "Moved About to position 1 of 2." }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Move down: About", "focus stays on the moved item");
    await editor.getByRole("button", { name: "Save the menu" }).click();
    await status().filter({ hasText: "The menu main is saved." }).waitFor();
    await checkScreen(page, "site-menus");
    const menu = (await admin.manage("GET", "/menus/main")).body;
    assert.deepEqual(
      menu.items.en.map((i) => i.label),
      ["About", "Docs"],
    );
    assert.equal(menu.items.en[0].children[0].target.kind, "entry");
    const served = await admin.publicRead("/v1/_menus/main");
    assert.deepEqual(
      served.body.data.items[0].children.map((c) => c.label),
      ["Team"],
      "the published entry is served under About",
    );
  });

  it("saves a query, refusing a private field in words", async () => {
    await page.goto(at("/settings/queries"));
    const form = page.getByRole("form", { name: "New saved query" });
    await form.getByLabel("Name (its public address)").fill("harbour-posts");
    await form.getByLabel("Model").selectOption({ label: "Post" });
    await form.getByRole("checkbox", { name: /Internal note/ }).check();
    await form.getByRole("button", { name: "Create the query" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "A public saved query cannot name a private field." });
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /internal_note/);
    await checkScreen(page, "site-queries");
    await form.getByRole("checkbox", { name: /Internal note/ }).uncheck();
    await form.getByRole("checkbox", { name: "Title" }).check();
    await form.getByRole("button", { name: "Create the query" }).click();
    await status().filter({ hasText: "The saved query harbour-posts is saved." }).waitFor();
    const served = await admin.publicRead("/v1/_queries/harbour-posts");
    assert.equal(served.status, 200);
    assert.ok(served.body.data.some((i) => i.fields?.title === "Harbour release one" || i.title === "Harbour release one"), JSON.stringify(served.body).slice(0, 300));
  });

  it("saves CORS origins", async () => {
    await page.goto(at("/settings/cors"));
    await page.getByRole("button", { name: "Add an origin" }).click();
    await page.getByLabel("Origin 1", { exact: true }).fill("https://app.example.com");
    await page.getByRole("checkbox", { name: "May send a site API token" }).check();
    await page.getByRole("button", { name: "Add an origin" }).click();
    await page.getByLabel("Origin 2", { exact: true }).fill("ftp://nope.example.com");
    await page.getByRole("button", { name: "Save browser access" }).click();
    await page.getByRole("alert").filter({ hasText: "Some origins are not valid." }).waitFor();
    await page.getByRole("button", { name: /Remove origin 2/ }).click();
    await page.getByRole("button", { name: "Save browser access" }).click();
    await status().filter({ hasText: "Saved: 1 origin may call the public API from a browser." }).waitFor();
    await checkScreen(page, "site-cors");
    const saved = (await admin.manage("GET", "/settings/cors")).body.cors.origins;
    assert.deepEqual(saved, [{ origin: "https://app.example.com", tokens: true }]);
  });

  it("saves Site Chrome with a logo, SEO defaults with a live preview and robots rules; refusals and a stale write in words", async () => {
    // A public model with a website address: the site has a sitemap, which robots.txt names.
    const story = await admin.manage("POST", "/models", { definition: { model: { name: "Story", slug: "story", settings: { site_path: "/stories/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } });
    assert.equal(story.status, 201, JSON.stringify(story.body));
    await page.goto(at("/settings/chrome"));
    const chrome = page.locator("form", { has: page.getByRole("heading", { name: "Site Chrome", exact: true }) });
    await shownOrRefused(chrome.getByLabel("Site name"));
    await chrome.getByLabel("Site name").fill("Harbour Notes");
    await chrome.getByRole("button", { name: "Add to header links" }).click();
    await chrome.getByLabel("Header links: label 1").fill("About");
    await chrome.getByLabel("Header links: address 1").fill("javascript:alert(1)");
    // The logo: an image chosen in the library picker.
    await chrome.getByRole("button", { name: "Choose from library for Logo" }).click();
    const library = page.getByRole("dialog", { name: "Choose from library" });
    const tile = library.getByRole("button", { pressed: false }).filter({ has: page.locator("img") }).first();
    await tile.waitFor();
    const fileName = (await tile.innerText()).split("\n").find((line) => /\.\w+$/.test(line.trim()))?.trim();
    await tile.click();
    await library.getByRole("button", { name: "Use selected" }).click();
    await chrome.getByRole("group", { name: "Logo" }).getByText(fileName ?? "").waitFor();
    await chrome.getByLabel("Language of the Site Chrome texts").selectOption("fr");
    await chrome.getByLabel("Site name").fill("Notes du port");
    // The service refuses the javascript: address; the screen names the language, link and field.
    await chrome.getByRole("button", { name: "Save Site Chrome" }).click();
    await page.getByRole("alert").first().waitFor();
    assert.match(await page.getByRole("alert").first().innerText(), /Not saved: some values are not valid\.[\s\S]*(English \(en\)|en), header link 1, address: an https URL or a path on the site/);
    await chrome.getByLabel("Language of the Site Chrome texts").selectOption("en");
    await chrome.getByLabel("Header links: address 1").fill("/about");
    await chrome.getByRole("button", { name: "Save Site Chrome" }).click();
    // Languages are named as the browser names them ("English (en)"), or by code where it has no names.
    await status().filter({ hasText: /Site Chrome saved for (English \(en\)|en), (French \(fr\)|fr)\./ }).waitFor();

    // SEO: the template is checked as it is typed and previewed with a page title.
    const seo = page.locator("form", { has: page.getByRole("heading", { name: "SEO defaults" }) });
    await seo.getByLabel("Title template").fill("Harbour Notes");
    await seo.getByText("The template holds %s nowhere").waitFor();
    await seo.getByLabel("Title template").fill("%s · Harbour Notes");
    await seo.getByLabel("Preview with the page title").fill("Tide tables");
    assert.equal(await seo.getByTestId("seo-preview-title").textContent(), "Tide tables · Harbour Notes");
    await seo.getByLabel("Description").fill("Stories from the coast");
    await seo.getByRole("button", { name: "Save SEO defaults" }).click();
    await status().filter({ hasText: /SEO defaults saved for (English \(en\)|en)\./ }).waitFor();

    // Robots: the preview follows the rules and ends with the sitemap line.
    const robots = page.locator("form", { has: page.getByRole("heading", { name: "Robots rules" }) });
    await robots.getByLabel("Rule 1: disallowed paths").fill("/drafts/");
    await robots.getByRole("button", { name: "Add a rule" }).click();
    await robots.getByLabel("Rule 2: crawler (user agent)").fill("GPTBot");
    await robots.getByLabel("Rule 2: disallowed paths").fill("/");
    const preview = robots.getByTestId("robots-preview");
    assert.match(await preview.textContent(), /^User-agent: \*\nAllow: \/\nDisallow: \/drafts\/\n\nUser-agent: GPTBot\nDisallow: \/\n\nSitemap: http:\/\/demo\.localhost:\d+\/sitemap\.xml\n$/);
    // Someone else changes the settings meanwhile: the save is refused and explained, theirs can be loaded.
    assert.equal((await admin.manage("PUT", "/settings/seo", { languages: { en: { title_template: "%s | Elsewhere" } } })).status, 200);
    await robots.getByRole("button", { name: "Save robots rules" }).click();
    await page.getByRole("alert").filter({ hasText: "Not saved: someone changed the site's settings after you opened this screen." }).waitFor();
    await page.getByRole("button", { name: "Load the current settings" }).click();
    const seoTemplate = () => page.evaluate(() => document.querySelector("form[aria-labelledby=seo-heading] input[type=text]")?.value ?? "(no SEO form)");
    await page
      .waitForFunction(() => document.querySelector("form[aria-labelledby=seo-heading] input[type=text]")?.value === "%s | Elsewhere")
      .catch(async (error) => assert.fail(`${error.message}\nThe SEO form's title template shows instead: ${await seoTemplate().catch(() => "(page gone)")}`));
    await robots.getByLabel("Rule 1: disallowed paths").fill("/drafts/");
    await robots.getByRole("button", { name: "Save robots rules" }).click();
    await status().filter({ hasText: "Robots rules saved: 1 rule; /robots.txt serves them now." }).waitFor();
    await checkScreen(page, "site-chrome");

    const stored = (await admin.manage("GET", "/settings/chrome")).body.chrome;
    assert.deepEqual(stored.languages, { en: { site_name: "Harbour Notes", tagline: null, header_links: [{ label: "About", url: "/about" }], footer_links: [] }, fr: { site_name: "Notes du port", tagline: null, header_links: [], footer_links: [] } });
    assert.match(stored.logo_media_id, /^med_/);
    const served = await admin.manage("GET", "/settings/robots");
    assert.deepEqual([served.body.robots.rules, served.body.sitemap_path], [[{ user_agent: "*", allow: ["/"], disallow: ["/drafts/"] }], "/sitemap.xml"]);
  });
});
