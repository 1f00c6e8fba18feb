/**
 * Admin UI field inputs in a real Chromium (issue #15 items 1 and 4): the rich-text editor's
 * canonical HTML against what the service stores (the demo's "Reading the Tide Tables" body with
 * its table, gallery and embed, plus a plugin block: unchanged through the editor, no
 * `rich_markup_dropped`), then a person writing rich text with a table, bold and a link, picking
 * and reordering relations from the keyboard, choosing a library image, and saving; every result
 * checked through the management API; axe and 360 px on the inputs and both pickers.
 *
 * Until the entry editor screen renders the inputs, the test serves a small harness page
 * (admin/src/dev/fields-harness.tsx, bundled here with esbuild) on the admin origin under the
 * admin page's own CSP: same session, same API, same components as the editor will use.
 * Run: node --test test/e2e/admin-ui-fields.test.mjs
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { build } from "esbuild";
import { root } from "../../scripts/lib/load-ts.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8782;
/** The admin page's policy (workers/admin/static-assets.ts): the harness runs under the same rules. */
const PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: http: https:; connect-src 'self'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const BLOCK = `<div data-block="demo-helper/callout" data-version="1" data-values="{&quot;text&quot;:&quot;Mind the tide&quot;,&quot;tone&quot;:&quot;warning&quot;}"></div>`;

let admin;
let harness;
let roundTripSource;

async function bundle(entry, format) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format,
    outdir: path.join(root, "test", "artifacts", "fields-harness"),
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(".js"))?.text ?? "";
  const css = result.outputFiles.find((f) => f.path.endsWith(".css"))?.text ?? "";
  return { js, css };
}

before(async () => {
  [admin, harness, { js: roundTripSource }] = await Promise.all([startAdmin({ port: PORT }), bundle("admin/src/dev/fields-harness.tsx", "esm"), bundle("admin/src/dev/round-trip.ts", "iife")]);
});
after(async () => {
  await admin?.close();
});

/** Serves the harness page and its files on the admin origin, with the admin page's CSP. */
async function serveHarness(context) {
  await context.route(`${admin.origin}/__fields/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/__fields/harness.js") return route.fulfill({ status: 200, contentType: "text/javascript", body: harness.js });
    if (url.pathname === "/__fields/harness.css") return route.fulfill({ status: 200, contentType: "text/css", body: harness.css });
    return route.fulfill({
      status: 200,
      contentType: "text/html",
      headers: { "content-security-policy": PAGE_POLICY },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Fields · Driftwood</title><link rel="stylesheet" href="/__fields/harness.css"><script type="module" src="/__fields/harness.js"></script></head><body><div id="app"></div></body></html>`,
    });
  });
}

async function entryTitled(title) {
  const models = (await admin.manage("GET", "/models")).body.data;
  const article = models.find((m) => m.slug === "article");
  for (let cursor = null, first = true; first || cursor; first = false) {
    const page = (await admin.manage("GET", `/entries?model_id=${article.id}&lang=en&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).body;
    const found = page.data.find((e) => e.label === title);
    if (found) return found;
    cursor = page.page.next_cursor;
  }
  throw new Error(`no article ${title}`);
}

async function save(entry, fields) {
  return admin.manage("PUT", `/entries/${entry.instance_id}`, { expected_version_id: entry.current_version_id, fields });
}

describe("admin UI: rich text, relation and media inputs", () => {
  it("the editor writes the demo's Tide Tables body (table, gallery, embed, plugin block) back byte for byte, and an edit is stored unchanged", async () => {
    const entry = await entryTitled("Reading the Tide Tables");
    const seeded = entry.fields.body;
    assert.match(seeded, /<table><caption>/);
    assert.match(seeded, /<figure data-gallery="">/);
    assert.match(seeded, /<figure data-embed="https:\/\/www\.youtube\.com\/embed\//);
    // The plugin block of the demo plugin joins the showcase: the service must keep it too.
    const withBlock = await save(entry, { body: seeded + BLOCK });
    assert.equal(withBlock.status, 200, JSON.stringify(withBlock.body));
    assert.equal(withBlock.body.warnings, undefined);
    const stored = withBlock.body.fields.body;
    assert.ok(stored.endsWith(BLOCK));

    const { context, page } = await newPerson(admin);
    await page.goto("about:blank");
    await page.evaluate(roundTripSource);
    const roundTrip = await page.evaluate((html) => globalThis.richText.roundTrip(html), stored);
    assert.equal(roundTrip, stored, "loading the stored body into the editor and writing it out changes nothing");
    const edited = await page.evaluate((html) => globalThis.richText.appendParagraph(html, "High water < 5 m & rising"), stored);
    assert.equal(edited, `${stored}<p>High water &lt; 5 m &amp; rising</p>`);
    // Hostile and unusual markup the service keeps comes back as the service stored it.
    const hostile = `<p><b>b</b><i>i</i><sub>2</sub><q cite="https://q.test/?a=1&amp;b=2">q</q> <a href="mailto:x@example.test">m</a><a href="/n" target="_blank" rel="noopener noreferrer">n</a><img src="/x.png" alt="a &quot;b&quot; &lt;c&gt;"></p><ul><li>one<ul><li>two</li></ul></li><li><p>three</p><p>four</p></li></ul><pre>\n\nraw &lt;pre&gt;</pre><table><tbody><tr><td rowspan="2">r</td><td><p>x</p></td></tr><tr><td></td></tr></tbody></table><div data-block-group="">${BLOCK}</div><dl><dt>t</dt><dd>d</dd></dl>`;
    const hostileStored = await save(withBlock.body, { body: hostile });
    assert.equal(hostileStored.status, 200, JSON.stringify(hostileStored.body));
    assert.equal(hostileStored.body.warnings, undefined);
    assert.equal(await page.evaluate((html) => globalThis.richText.roundTrip(html), hostileStored.body.fields.body), hostileStored.body.fields.body);

    // What the editor sends is stored as sent: no rich_markup_dropped, the same bytes back.
    const saved = await save(hostileStored.body, { body: edited });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.warnings, undefined, "no rich_markup_dropped");
    assert.equal(saved.body.fields.body, edited);
    await context.close();
  });

  it("a person writes a table, bold and a link, picks and reorders relations by keyboard, chooses a library image, and saves", async () => {
    const entry = await entryTitled("Why Salt Changes the Grain");
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const { context, page } = await newPerson(admin);
    await serveHarness(context);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/__fields/?site=${demo.id}&entry=${entry.instance_id}`);
    await page.getByRole("heading", { name: "Why Salt Changes the Grain" }).waitFor();

    // Rich text: a new paragraph with bold and a link, then a table typed cell by cell.
    const body = page.getByRole("textbox", { name: "Body" });
    await body.waitFor();
    await body.click();
    // The relation and media inputs above finish loading after the page does and can move the
    // Body under a click (a run typed into another field): make sure the keys go to the Body.
    if ((await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))) !== "Body") await body.focus();
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Body");
    // The editor takes a caret moved by keys from the browser's selectionchange, a moment after
    // the key: keys pressed before it has (Enter, typing) act where the click put the caret (a run
    // typed into the middle of the body). So wait until the editor's own selection (TipTap keeps
    // the editor on its element) is where the keys put it.
    const editorSelection = () =>
      page.evaluate(() => {
        const editor = document.activeElement?.editor;
        if (!editor) return null;
        const { from, to, empty } = editor.state.selection;
        return { empty, text: editor.state.doc.textBetween(from, to, "\n"), after: editor.state.doc.textBetween(to, editor.state.doc.content.size, "\n", "\n").trim() };
      });
    await page.keyboard.press("Control+End");
    for (let waited = 0; ; waited += 50) {
      const at = await editorSelection();
      if (at?.empty && at.after === "") break;
      assert.ok(waited < 5000, `the caret never reached the end of the Body: ${JSON.stringify(at)}`);
      await page.waitForTimeout(50);
    }
    await page.keyboard.press("Enter");
    await page.keyboard.type("Tide notes ");
    const bold = page.getByRole("button", { name: "Bold", exact: true });
    assert.equal(await bold.getAttribute("aria-pressed"), "false");
    await page.keyboard.press("Control+b");
    await page.keyboard.type("strong");
    assert.equal(await bold.getAttribute("aria-pressed"), "true");
    await page.keyboard.press("Control+b");
    await page.keyboard.type(" see chart");
    // Select "chart" by keyboard, then wait for the editor to take the selection (as above).
    for (let i = 0; i < 5; i += 1) await page.keyboard.press("Shift+ArrowLeft");
    for (let waited = 0; ; waited += 50) {
      const at = await editorSelection();
      if (at?.text === "chart") break;
      assert.ok(waited < 5000, `the editor never selected "chart": ${JSON.stringify(at)}`);
      await page.waitForTimeout(50);
    }
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Add link" });
    // A script address is refused in words; the dialog stays open.
    await dialog.getByLabel("Address").fill("javascript:alert(document.domain)");
    await dialog.getByRole("button", { name: "Apply link" }).click();
    await dialog.getByRole("alert").filter({ hasText: "This address cannot be a link." }).waitFor();
    assert.equal(await dialog.getByLabel("Address").getAttribute("aria-invalid"), "true");
    await dialog.getByLabel("Address").fill("https://tides.example/chart?week=1&day=2");
    await dialog.getByRole("checkbox", { name: "Open in a new tab" }).check();
    await dialog.getByRole("button", { name: "Apply link" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.keyboard.press("End");
    await page.getByRole("button", { name: "Insert table" }).click();
    await page.getByRole("toolbar", { name: "Table: Body" }).waitFor();
    for (const [i, text] of ["Day", "High", "Low", "Mon", "06:12", "12:25", "Tue", "06:58", "13:10"].entries()) {
      if (i > 0) await page.keyboard.press("Tab");
      await page.keyboard.type(text);
    }
    await page.getByRole("button", { name: "Row below" }).click();
    await page.getByRole("toolbar", { name: "Table: Body" }).getByLabel("Caption").fill("Spring tides");
    await page.getByRole("toolbar", { name: "Table: Body" }).getByLabel("Caption").press("Enter");
    await checkScreen(page, "fields-rich-text");

    // Relations: add a category through the searching picker, move it to the top by keyboard, remove one.
    const categories = page.getByRole("group", { name: "Categories" });
    await categories.getByText("Woodcraft").waitFor();
    await categories.getByRole("button", { name: "Add Categories" }).click();
    const picker = page.getByRole("dialog", { name: "Add to Categories" });
    await picker.getByLabel("Search by title").fill("coast");
    await picker.getByRole("checkbox", { name: /Coast & Sea/ }).check();
    await checkScreen(page, "fields-entry-picker");
    await picker.getByRole("button", { name: "Add 1 selected" }).click();
    await picker.waitFor({ state: "hidden" });
    await categories.getByRole("button", { name: "Move Coast & Sea up" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Moved Coast & Sea to position 1 of 3." }).waitFor();
    // Focus stays on the moved row (on its other button once it reached the top).
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Move Coast & Sea down");
    await categories.getByRole("button", { name: "Remove Ecology" }).click();
    assert.deepEqual(await categories.getByRole("listitem").locator(".relation-title").allInnerTexts(), ["Coast & Sea", "Woodcraft"]);

    // Dragging a row reorders too (the pointer way of the same list).
    const related = page.getByRole("group", { name: "Related articles" });
    const relatedTitles = () => related.getByRole("listitem").locator(".relation-title").allInnerTexts();
    const before = await relatedTitles();
    assert.equal(before.length, 2);
    await related.getByRole("listitem").nth(1).dragTo(related.getByRole("listitem").nth(0));
    await page.waitForFunction((first) => document.querySelector('[aria-label="Related articles"] .relation-title')?.textContent === first, before[1]);
    assert.deepEqual(await relatedTitles(), [before[1], before[0]]);

    // A to-one relation: one choice replaces the other.
    const author = page.getByRole("group", { name: "Author" });
    await author.getByRole("button", { name: "Change Author" }).click();
    const authorPicker = page.getByRole("dialog", { name: "Choose Author" });
    await authorPicker.getByLabel("Search by title").fill("léa");
    await authorPicker.getByRole("button", { name: /Léa Moreau/ }).press("Enter");
    await author.getByText("Léa Moreau").waitFor();

    // Media: choose a library image from the keyboard; its thumbnail loads through the admin host.
    const cover = page.getByRole("group", { name: "Cover" });
    await cover.getByRole("button", { name: "Choose from library for Cover" }).click();
    const library = page.getByRole("dialog", { name: "Choose from library" });
    const firstImage = library.getByRole("button", { pressed: false }).filter({ has: page.locator("img") }).first();
    await firstImage.waitFor();
    const chosenName = (await firstImage.innerText()).split("\n").find((line) => /\.\w+$/.test(line.trim()))?.trim();
    assert.ok(chosenName, "the tile shows its file name");
    const tile = library.getByRole("button", { name: chosenName });
    await tile.focus();
    await page.keyboard.press("Space");
    assert.equal(await tile.getAttribute("aria-pressed"), "true");
    // The arrow keys walk the grid (Home, End, left and right; the demo library holds two images).
    const focusedTile = () => page.evaluate(() => [...document.querySelectorAll("dialog[open] .media-grid button")].indexOf(document.activeElement));
    await page.keyboard.press("Home");
    assert.equal(await focusedTile(), 0);
    await page.keyboard.press("ArrowRight");
    assert.equal(await focusedTile(), 1);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await focusedTile(), 0);
    await page.keyboard.press("End");
    assert.ok((await focusedTile()) >= 1);
    assert.equal(await tile.getAttribute("aria-pressed"), "true", "moving does not choose");
    await checkScreen(page, "fields-media-picker");
    await library.getByRole("button", { name: "Use selected" }).click();
    await library.waitFor({ state: "hidden" });
    const thumb = cover.locator("img");
    await thumb.waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll(".media-input img")].every((img) => img.complete && img.naturalWidth > 0));
    await checkScreen(page, "fields-inputs");

    // Save through the page, then read what the service stored.
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: /^Saved\.$/ }).waitFor();
    const read = (await admin.manage("GET", `/entries/${entry.instance_id}`)).body;
    const html = read.fields.body;
    assert.match(html, /<p>Tide notes <strong>strong<\/strong> see <a href="https:\/\/tides\.example\/chart\?week=1&amp;day=2" target="_blank" rel="noopener noreferrer">chart<\/a><\/p>/);
    assert.doesNotMatch(html, /javascript/i);
    assert.match(html, /<table><caption>Spring tides<\/caption><thead><tr><th>Day<\/th><th>High<\/th><th>Low<\/th><\/tr><\/thead><tbody><tr><td>Mon<\/td><td>06:12<\/td><td>12:25<\/td><\/tr><tr><td>Tue<\/td><td>06:58<\/td><td>13:10<\/td><\/tr><tr><td><\/td><td><\/td><td><\/td><\/tr><\/tbody><\/table>/);
    await page.goto("about:blank");
    await page.evaluate(roundTripSource);
    assert.equal(await page.evaluate((h) => globalThis.richText.roundTrip(h), html), html, "the stored body is exactly the editor's form");

    const labels = async (ids) => Promise.all(ids.map(async (id) => (await admin.manage("GET", `/entries/${id}`)).body.label));
    assert.deepEqual(await labels(read.fields.categories), ["Coast & Sea", "Woodcraft"]);
    assert.deepEqual(await labels([read.fields.author]), ["Léa Moreau"]);
    assert.deepEqual(await labels(read.fields.related), [before[1], before[0]]);
    const media = (await admin.manage("GET", `/media/${read.fields.cover}`)).body.media;
    assert.equal(media.file_name, chosenName);
    await context.close();
  });

  it("flags a linked entry moved to Trash after it was linked, and removes it from the list on save", async () => {
    const models = (await admin.manage("GET", "/models")).body.data;
    const category = models.find((m) => m.slug === "category");
    const created = await admin.manage("POST", "/entries", { model_id: category.id, lang: "en", fields: { title: "Driftwood Myths" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const entry = await entryTitled("Carving a Spoon from a Beach Log");
    const linked = await save(entry, { categories: [...entry.fields.categories, created.body.instance_id] });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    const trashed = await admin.manage("POST", `/entries/${created.body.instance_id}/trash`, {});
    assert.equal(trashed.status, 200, JSON.stringify(trashed.body));

    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const { context, page } = await newPerson(admin);
    await serveHarness(context);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/__fields/?site=${demo.id}&entry=${entry.instance_id}`);
    const categories = page.getByRole("group", { name: "Categories" });
    await categories.getByText("in Trash, not shown to readers").waitFor();
    // The picker never offers entries in Trash.
    await categories.getByRole("button", { name: "Add Categories" }).click();
    const picker = page.getByRole("dialog", { name: "Add to Categories" });
    await picker.getByLabel("Search by title").fill("myths");
    await picker.getByText("No entries match.").waitFor();
    await picker.getByRole("button", { name: "Cancel" }).click();
    await categories.getByRole("button", { name: "Remove Driftwood Myths" }).click();
    await page.getByRole("status").filter({ hasText: "Removed Driftwood Myths." }).waitFor();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: /^Saved\.$/ }).waitFor();
    const read = (await admin.manage("GET", `/entries/${entry.instance_id}`)).body;
    assert.deepEqual(read.fields.categories, entry.fields.categories);
    await context.close();
  });

  it("shows the service's refusal of a too-wide table next to the rich-text field, ties it to the editor, and writes nothing", async () => {
    const entry = await entryTitled("Sea Glass, Explained");
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const { context, page } = await newPerson(admin);
    await serveHarness(context);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/__fields/?site=${demo.id}&entry=${entry.instance_id}`);
    const body = page.getByRole("textbox", { name: "Body" });
    await body.click();
    await page.keyboard.press("Control+End");
    await page.getByRole("button", { name: "Insert table" }).click();
    const tableTools = page.getByRole("toolbar", { name: "Table: Body" });
    // 3 columns + 10 = 13: one more than a table may hold (docs/content-rules-rich-text.md).
    for (let i = 0; i < 10; i += 1) await tableTools.getByRole("button", { name: "Column right" }).click();
    assert.equal(await body.locator("tr").first().locator("th").count(), 13);
    assert.equal(await body.getAttribute("aria-invalid"), null);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "Some fields need attention before this can be saved" }).waitFor();
    await page.waitForFunction(() => document.querySelector('[role="textbox"][aria-label="Body"]')?.getAttribute("aria-invalid") === "true");
    const describedBy = (await body.getAttribute("aria-describedby")) ?? "";
    const described = await page.evaluate((ids) => ids.split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" "), describedBy);
    assert.match(described, /\S/, "the field's message is read with the editor");
    const after = (await admin.manage("GET", `/entries/${entry.instance_id}`)).body;
    assert.equal(after.current_version_id, entry.current_version_id, "nothing was written");
    assert.doesNotMatch(after.fields.body ?? "", /<table>/);
    await checkScreen(page, "fields-rich-text-refused");
    await context.close();
  });
});
