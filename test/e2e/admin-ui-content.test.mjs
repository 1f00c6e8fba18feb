/**
 * Admin UI content screens in a real Chromium (issue #15 items 3 and 4): content home (models in
 * folders, kinds), the entries list (language and state filters, search by title, Load more, Trash
 * with Restore), New entry, and the entry editor's generated form for every field type, with a
 * conditional field, components, the slug availability check and markup shown as text; axe and
 * 360 px on each screen. Results are checked through the management API too.
 * Run: node --test test/e2e/admin-ui-content.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8781;
const HOSTILE = `<img src=x onerror=alert(1)> Harbour lights`;
let admin;
let demo;

before(async () => {
  admin = await startAdmin({ port: PORT });
  demo = admin.info.sites.find((s) => s.slug === "demo");
});
after(async () => {
  await admin?.close();
});

/** The demo's models by slug (management API). */
async function models() {
  const res = await admin.manage("GET", "/models");
  assert.equal(res.status, 200);
  return Object.fromEntries(res.body.data.map((m) => [m.slug, m]));
}

/** A model holding every field type the form draws itself, filed in folder "Lab". */
async function kitchenModel() {
  const created = await admin.manage("POST", "/models", {
    definition: {
      model: { name: "Kitchen sink", slug: "kitchen-sink", description: "Every field type, for the editor test." },
      fields: [
        { key: "name", label: "Name", type: "text", title: true, required: true },
        { key: "count", label: "Count", type: "integer", validation: { min: 0, max: 10 } },
        { key: "price", label: "Price", type: "decimal", validation: { step: 0.01 } },
        { key: "featured", label: "Featured", type: "boolean" },
        { key: "teaser", label: "Teaser", type: "text", condition: { field: "featured", op: "equals", value: true } },
        { key: "starts_at", label: "Starts at", type: "datetime" },
        { key: "colours", label: "Colours", type: "select", multiple: true, options: [{ value: "red", label: "Red" }, { value: "blue", label: "Blue" }] },
        { key: "handle", label: "Handle", type: "slug" },
        { key: "where", label: "Where", type: "location" },
        { key: "steps", label: "Steps", type: "component", multiple: true, fields: [{ key: "text", label: "Step text", type: "text", required: true }] },
      ],
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const filed = await admin.manage("PUT", `/models/${created.body.model_id}/folder`, { folder: "Lab" });
  assert.equal(filed.status, 200, JSON.stringify(filed.body));
  return created.body.model_id;
}

describe("admin UI: content home, entries list, entry editor", () => {
  it("lists models by folder, filters and searches entries, restores from Trash, creates an entry and edits it in a generated form", async () => {
    const kitchenId = await kitchenModel();
    const bySlug = await models();
    const article = bySlug.article;
    const { context, page } = await newPerson(admin);
    let alerted = false;
    const confirms = [];
    page.on("dialog", (dialog) => {
      if (dialog.type() === "alert") alerted = true;
      if (dialog.type() === "confirm") {
        confirms.push(dialog.message());
        void dialog.accept();
      } else void dialog.dismiss();
    });
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);

    // Content home: folders, kinds, descriptions.
    await page.goto(`${admin.origin}/sites/${demo.id}/content`);
    await page.getByRole("heading", { name: "Content", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Lab", level: 2 }).waitFor();
    await page.getByRole("heading", { name: "Other models", level: 2 }).waitFor();
    const homepageCard = page.locator("li.model-card").filter({ has: page.getByRole("link", { name: "Homepage" }) });
    assert.equal(await homepageCard.getByText("Single entry").count(), 1);
    const articleCard = page.locator("li.model-card").filter({ has: page.getByRole("link", { name: "Article", exact: true }) });
    await articleCard.getByText("Collection").waitFor();
    await articleCard.getByText(/Stories, guides and field notes/).waitFor();
    await checkScreen(page, "content-home");

    // A single model opens its one entry.
    await page.getByRole("link", { name: "Homepage" }).click();
    await page.waitForURL(/\/entries\/[^/?]+/);
    await page.getByLabel(/^Headline/).waitFor();

    // The entries list of articles.
    await page.goto(`${admin.origin}/sites/${demo.id}/content`);
    await page.getByRole("link", { name: "Article", exact: true }).click();
    await page.getByRole("heading", { name: "Article", level: 1 }).waitFor();
    await page.getByRole("status").filter({ hasText: /entries shown/ }).waitFor();
    const firstRows = await page.locator("table.entries tbody tr").count();
    assert.equal(firstRows, 20, "the first page holds 20 entries");
    await page.getByRole("button", { name: "Load more" }).click();
    await page.waitForFunction(() => document.querySelectorAll("table.entries tbody tr").length > 20);
    await checkScreen(page, "entry-list");

    // Filters: language and workflow state, kept in the address; every row says so.
    await page.getByLabel("Language", { exact: true }).selectOption("fr");
    await page.waitForURL(/lang=fr/);
    // The list is replaced once the filtered answer arrives: wait for it rather than read the old rows.
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll("table.entries td[data-label='Language']")];
      return cells.length > 0 && cells.every((td) => td.textContent === "fr");
    });
    await page.getByLabel("Language", { exact: true }).selectOption("");
    await page.getByLabel("Workflow state").selectOption("published");
    await page.waitForURL(/state=published/);
    await page.waitForFunction(() => [...document.querySelectorAll("table.entries td[data-label='State']")].every((td) => td.textContent?.includes("Published")));
    await page.getByLabel("Workflow state").selectOption("");

    // Search by title: a known article's title, then something nobody wrote.
    const known = await admin.manage("GET", `/entries?model_id=${article.id}&lang=en&state=published&limit=1`);
    const title = known.body.data[0].label;
    await page.getByLabel("Search by title").fill(title.slice(0, 12).toUpperCase());
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=/);
    await page.getByRole("link", { name: title }).first().waitFor();
    await page.getByLabel("Search by title").fill("nothing-is-called-this");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No entry matches these filters.").waitFor();

    // Trash: the seed's trashed article, restored by a click.
    await page.getByRole("link", { name: "Trash", exact: true }).click();
    await page.getByRole("heading", { name: "Article: Trash" }).waitFor();
    const trashed = await admin.manage("GET", `/entries?model_id=${article.id}&state=trash`);
    const victim = trashed.body.data[0];
    assert.ok(victim, "the demo has a trashed article");
    await page.getByRole("button", { name: `Restore ${victim.label} (${victim.lang})` }).waitFor();
    await checkScreen(page, "entry-trash");
    await page.getByRole("button", { name: `Restore ${victim.label} (${victim.lang})` }).dblclick();
    await page.getByRole("status").filter({ hasText: "Restored" }).waitFor();
    assert.equal((await admin.manage("GET", `/entries/${victim.instance_id}`)).body.trashed_at, null);
    await page.getByText("Trash is empty.").waitFor();

    // New entry with markup in its title: created, then shown as text, never run.
    await page.getByRole("link", { name: "Entries", exact: true }).click();
    await page.getByRole("button", { name: "New entry" }).click();
    const dialog = page.getByRole("dialog", { name: "New article entry" });
    await dialog.getByLabel("Title").fill(HOSTILE);
    // The service's refusals, in words: a malformed slug, then a slug another article holds.
    await dialog.getByLabel(/^Slug/).fill("Not A Slug!");
    await dialog.getByRole("button", { name: "Create and edit" }).click();
    await dialog.getByRole("alert").filter({ hasText: "A slug is 1 to 200 lower-case letters" }).waitFor();
    await dialog.getByLabel(/^Slug/).fill(known.body.data[0].slug);
    await dialog.getByRole("button", { name: "Create and edit" }).click();
    await dialog.getByRole("alert").filter({ hasText: "This slug is already used by another entry." }).waitFor();
    await dialog.getByLabel(/^Slug/).fill("");
    // A field refusal (field_validation_failed) shows under its field, tied to the input.
    await dialog.getByLabel("Title").fill("x".repeat(201));
    await dialog.getByRole("button", { name: "Create and edit" }).click();
    await dialog.getByRole("alert").filter({ hasText: "at most 200 characters" }).waitFor();
    assert.equal(await dialog.getByLabel("Title").getAttribute("aria-invalid"), "true");
    await dialog.getByLabel("Title").fill(HOSTILE);
    await checkScreen(page, "new-entry");
    await dialog.getByRole("button", { name: "Create and edit" }).click();
    await page.waitForURL(/\/entries\/[^/?]+\?lang=en/);
    await page.getByRole("heading", { name: HOSTILE, level: 1 }).waitFor();
    assert.equal(await page.locator("main img").count(), 0, "the title's markup is text, not an element");
    const entryId = new URL(page.url()).pathname.split("/").pop();
    const created = await admin.manage("GET", `/entries/${entryId}`);
    assert.equal(created.body.fields.title, HOSTILE);

    // Every article field has its labelled input (or group); the condition shows Video URL for videos only.
    for (const label of ["Title", "Summary", "Published date", "Format"]) await page.getByLabel(new RegExp(`^${label}`)).first().waitFor();
    for (const label of ["Body", "Author", "Categories", "Cover", "Related articles", "Location"]) await page.getByText(label, { exact: true }).first().waitFor();
    await page.getByRole("group", { name: /^SEO/ }).getByLabel(/^SEO title/).waitFor();
    assert.equal(await page.getByLabel(/^Video URL/).count(), 0);
    await page.getByLabel("Format", { exact: true }).selectOption("video");
    await page.getByLabel(/^Video URL/).waitFor();
    await page.getByLabel("Format", { exact: true }).selectOption("story");
    await page.getByLabel(/^Video URL/).waitFor({ state: "detached" });

    // A repeatable component: add two items, move the second up, remove one (keyboard-reachable buttons).
    await page.getByRole("button", { name: "Add FAQ item" }).click();
    await page.getByRole("button", { name: "Add FAQ item" }).click();
    await page.getByRole("listitem", { name: "FAQ item 2" }).getByLabel(/^Question/).fill("Second?");
    await page.getByRole("button", { name: "Move FAQ item 2 up" }).click();
    assert.equal(await page.getByRole("listitem", { name: "FAQ item 1" }).getByLabel(/^Question/).inputValue(), "Second?");
    await page.getByRole("button", { name: "Remove FAQ item 2" }).click();
    assert.equal(await page.getByRole("listitem", { name: "FAQ item 2" }).count(), 0);

    // The address: another article's slug is taken, a new one is free.
    const slugInput = page.getByLabel(/^Slug \(address\)/);
    await slugInput.fill(known.body.data[0].slug);
    await page.getByText("Another entry of this model and language already uses this address.").waitFor();
    await slugInput.fill("a-brand-new-address-for-the-test");
    await page.getByText("This address is free.").waitFor();
    await page.getByRole("tab", { name: /en/ }).waitFor();
    await checkScreen(page, "entry-editor");

    // Add a language: French, opened in its own tab.
    await page.getByRole("button", { name: "Add language" }).click();
    assert.deepEqual(confirms, ["Add a language and open it? Your unsaved changes here will be lost."], "unsaved changes are not dropped without asking");
    await page.getByRole("dialog", { name: "Add a language" }).getByRole("button", { name: "Add language" }).click();
    await page.waitForURL(/lang=fr/);
    await page.getByRole("tab", { name: /fr/, selected: true }).waitFor();
    const group = await admin.manage("GET", `/entries?translation_group_id=${created.body.translation_group_id}`);
    assert.deepEqual(group.body.data.map((e) => e.lang).sort(), ["en", "fr"]);
    // The tabs by keyboard: arrow keys move to the other language.
    await page.getByRole("tab", { name: /fr/, selected: true }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/lang=en/);
    await page.getByRole("tab", { name: /en/, selected: true }).waitFor();

    // The kitchen sink: every other field type, and a condition on a boolean.
    const sink = await admin.manage("POST", "/entries", { model_id: kitchenId, fields: { name: "Sink one", count: 3, price: 9.99, featured: false, starts_at: "2026-05-01T09:30:00Z", colours: ["blue"], handle: "sink-one", where: { lat: 51.5, lon: -0.12 }, steps: [{ text: "First" }, { text: "Second" }] } });
    assert.equal(sink.status, 201, JSON.stringify(sink.body));
    await page.goto(`${admin.origin}/sites/${demo.id}/entries/${sink.body.instance_id}`);
    await page.getByRole("heading", { name: "Sink one", level: 1 }).waitFor();
    assert.equal(await page.getByLabel(/^Count/).inputValue(), "3");
    assert.equal(await page.getByLabel(/^Price/).inputValue(), "9.99");
    assert.match(await page.getByLabel(/^Starts at/).inputValue(), /^2026-05-01T09:30(:00)?$/);
    assert.equal(await page.getByRole("group", { name: /^Colours/ }).getByLabel("Blue").isChecked(), true);
    assert.equal(await page.getByLabel(/^Handle/).inputValue(), "sink-one");
    assert.equal(await page.getByLabel("Where latitude").inputValue(), "51.5");
    assert.equal(await page.getByRole("listitem", { name: "Steps item 2" }).getByLabel(/^Step text/).inputValue(), "Second");
    assert.equal(await page.getByLabel(/^Teaser/).count(), 0);
    await page.getByLabel(/^Featured/).check();
    await page.getByLabel(/^Teaser/).waitFor();
    await checkScreen(page, "entry-editor-all-types");

    assert.equal(alerted, false, "no markup ran");
    await context.close();
  });

  it("marks what the role may not write as read-only: fields outside its write limit, languages outside its update limit", async () => {
    const article = (await models()).article;
    const titleId = article.definition.fields.find((f) => f.key === "title").id;
    const role = await admin.manage("POST", "/roles", {
      slug: "copy-editor",
      name: "Copy editor",
      permissions: { models: { [article.id]: ["read", "create", "update"] }, system: [], limits: { fields: { [article.id]: { write: [titleId] } }, languages: { update: ["en"] } } },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const en = await admin.manage("POST", "/entries", { model_id: article.id, lang: "en", fields: { title: "Copy desk", summary: "Only the title may change." } });
    const fr = await admin.manage("POST", `/entries/${en.body.instance_id}/languages`, { lang: "fr", fields: { title: "Pupitre" } });
    assert.equal(fr.status, 201, JSON.stringify(fr.body));

    // The admin invites a copy editor (the People routes), who accepts in another browser.
    const { context: adminContext, page: adminPage } = await newPerson(admin);
    await signInAs(adminPage, admin.origin, admin.info.admin.email, admin.info.admin.password);
    const invited = await adminPage.evaluate(
      async ({ site, roleId }) => {
        const who = await fetch("/api/session").then((r) => r.json());
        const res = await fetch("/api/invitations", { method: "POST", headers: { "content-type": "application/json", "x-site-id": site, "x-csrf-token": who.csrf_token, "idempotency-key": crypto.randomUUID() }, body: JSON.stringify({ email: "copy@demo.localhost", role_id: roleId }) });
        return { status: res.status, body: await res.json() };
      },
      { site: demo.id, roleId: role.body.id },
    );
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    await adminContext.close();
    const { context, page } = await newPerson(admin);
    await page.goto(`${admin.origin}/sign-in`);
    const accepted = await page.evaluate(async (token) => {
      const res = await fetch("/api/invitations/accept", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, name: "Copy Editor", password: "a long enough password" }) });
      return res.status;
    }, invited.body.link.split("#")[1]);
    assert.equal(accepted, 200);

    await page.goto(`${admin.origin}/sites/${demo.id}/entries/${en.body.instance_id}?lang=en`);
    await page.getByRole("heading", { name: "Copy desk", level: 1 }).waitFor();
    // Only the lease holder types: the form opens read-only until the copy editor holds the lease.
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    const title = page.getByLabel(/^Title/);
    assert.equal(await title.getAttribute("readonly"), null, "the title is within the write limit");
    await page.getByText("(read-only)").first().waitFor();
    const summary = page.getByLabel(/^Summary \(read-only\)/);
    assert.equal(await summary.getAttribute("readonly"), "", "the summary is outside the write limit");
    assert.equal(await summary.inputValue(), "Only the title may change.");
    assert.equal(await page.getByRole("button", { name: "Add FAQ item" }).count(), 0, "a read-only component offers no item buttons");
    await checkScreen(page, "entry-editor-read-only");

    await page.getByRole("tab", { name: /fr/ }).click();
    await page.waitForURL(/lang=fr/);
    await page.getByRole("status").filter({ hasText: "Your role may not edit the fr language." }).waitFor();
    assert.equal(await page.getByLabel(/^Title/).getAttribute("readonly"), "");
    await context.close();
  });
  // Last in the file: it adds the demo's page model (docs/pages.md), which the tests above do not expect.
  it("lists pages by path and creates nested pages with savePage, each opening in the editor", async () => {
    const shown = (path) => admin.manage("GET", "/pages").then((res) => res.body?.data?.map((p) => p.path));
    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${demo.id}/pages`);
    await page.getByRole("heading", { name: "Pages", level: 1 }).waitFor();
    await page.getByText("This site has no page model yet.").waitFor();

    const created = await admin.manage("POST", "/models", {
      definition: {
        model: { name: "Page", slug: "page" },
        fields: [
          { key: "title", label: "Title", type: "text", title: true, required: true },
          { key: "parent", label: "Parent page", type: "relation", relation: "many_to_one", hierarchy: true },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await page.reload();
    await page.getByRole("heading", { name: "Site pages" }).waitFor();
    await page.getByText("No page yet.").waitFor();
    await checkScreen(page, "pages-empty");

    await page.getByLabel("Title").fill("About us");
    await page.getByLabel("Slug (address segment, optional)").fill("about");
    await page.getByRole("button", { name: "Create and edit" }).click();
    await page.waitForURL(/\/entries\/ent_/);
    assert.deepEqual(await shown(), ["/about"]);

    await page.goto(`${admin.origin}/sites/${demo.id}/pages`);
    await page.getByRole("row").filter({ hasText: "/about" }).waitFor();
    await page.getByLabel("Title").fill("Our team");
    await page.getByLabel("Slug (address segment, optional)").fill("team");
    await page.getByLabel("Parent page").selectOption({ label: "/about" });
    await page.getByRole("button", { name: "Create and edit" }).click();
    await page.waitForURL(/\/entries\/ent_/);
    assert.deepEqual(await shown(), ["/about", "/about/team"]);

    await page.goto(`${admin.origin}/sites/${demo.id}/pages`);
    await page.getByRole("row").filter({ hasText: "/about/team" }).waitFor();
    await page.getByRole("link", { name: "Our team" }).waitFor();
    await checkScreen(page, "pages-tree");
    await context.close();
  });
});
