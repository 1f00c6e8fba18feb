/**
 * The integrated entry editor end to end, as a person uses it (issue #15 item 11): sign in, create
 * an article through the UI, edit its fields, save a draft (a field refusal from the service shown
 * under its field; a save sends only the fields changed), add a French translation through the
 * language tab, publish both languages through the lifecycle bar (each tab says its own state), and
 * read both through the public API. Checked through the management and public APIs too.
 * Run: node --test test/e2e/admin-ui-editor-flow.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8788;
let admin;
let demo;

before(async () => {
  admin = await startAdmin({ port: PORT });
  demo = admin.info.sites.find((s) => s.slug === "demo");
});
after(async () => {
  await admin?.close();
});

const entry = async (id) => (await admin.manage("GET", `/entries/${id}`)).body;

/** The text of the elements an input names in aria-describedby (its hint and its error). */
const description = (locator) => locator.evaluate((el) => (el.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" "));

describe("admin UI: the entry editor end to end", () => {
  it("creates an article, edits and saves it (a refusal under its field), adds French, publishes both and serves both", async () => {
    const stamp = Date.now();
    const slug = `harbour-lights-${stamp}`;
    const { context, page } = await newPerson(admin);
    page.on("dialog", (dialog) => void dialog.dismiss());
    const saves = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && /\/api\/v1\/entries\/[^/]+$/.test(new URL(request.url()).pathname)) saves.push(JSON.parse(request.postData() ?? "{}"));
    });
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);

    // Create through the UI: Content → Article → New entry.
    await page.goto(`${admin.origin}/sites/${demo.id}/content`);
    await page.getByRole("link", { name: "Article", exact: true }).click();
    await page.getByRole("heading", { name: "Article", level: 1 }).waitFor();
    await page.getByRole("button", { name: "New entry" }).click();
    const create = page.getByRole("dialog", { name: "New article entry" });
    await create.getByLabel("Title").fill(`Harbour lights ${stamp}`);
    await create.getByLabel(/^Slug/).fill(slug);
    await create.getByRole("button", { name: "Create and edit" }).click();
    await page.waitForURL(/\/entries\/[^/?]+\?lang=en/);
    const enId = new URL(page.url()).pathname.split("/").pop();
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    const title = page.getByLabel(/^Title\b/);
    assert.equal(await title.isEditable(), true, "the lease holder types");
    assert.equal(await title.inputValue(), `Harbour lights ${stamp}`);

    // Edit fields; the service refuses a video address that is not https, and says so under the field.
    await page.getByLabel(/^Summary/).fill("Lamps along the quay at dusk.");
    await page.getByLabel("Format", { exact: true }).selectOption("video");
    const video = page.getByLabel(/^Video URL/);
    await video.fill("ftp://video.example/harbour");
    const created = await entry(enId);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "Some fields need attention" }).first().waitFor();
    assert.equal(await video.getAttribute("aria-invalid"), "true", "the refused field is marked invalid");
    assert.match(await description(video), /\S/, "the service's message is tied to the field");
    assert.equal((await entry(enId)).current_version_id, created.current_version_id, "the refused save wrote nothing");
    // The save sent only what changed in the form, over the version the page read.
    assert.deepEqual(Object.keys(saves.at(-1).fields).sort(), ["format", "summary", "video_url"]);
    assert.equal(saves.at(-1).expected_version_id, created.current_version_id);

    await video.fill("https://video.example/harbour");
    // Rich text with a table, written in the editor's rich-text field (TipTap → canonical HTML).
    await page.getByRole("textbox", { name: "Body" }).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("Tide times at the harbour mouth:");
    await page.getByRole("button", { name: "Insert table" }).click();
    await page.getByRole("toolbar", { name: "Table: Body" }).waitFor();
    for (const [i, text] of ["Day", "High", "Low", "Mon", "06:12", "12:25", "Tue", "06:58", "13:10"].entries()) {
      if (i > 0) await page.keyboard.press("Tab");
      await page.keyboard.type(text);
    }
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    assert.equal(await video.getAttribute("aria-invalid"), null, "the refusal is cleared by the save");
    const saved = await entry(enId);
    assert.equal(saved.fields.summary, "Lamps along the quay at dusk.");
    assert.equal(saved.fields.video_url, "https://video.example/harbour");
    assert.equal(saved.fields.title, `Harbour lights ${stamp}`, "an unchanged field is kept, not sent");

    // Publish English through the bar; its tab says so.
    await page.getByRole("button", { name: "Publish en" }).click();
    await page.getByRole("status").filter({ hasText: "Published (en)" }).waitFor();
    await page.getByRole("tab", { name: /en.*Published/, selected: true }).waitFor();
    assert.notEqual((await entry(enId)).published_version_id, null);

    // Add French through the language tabs.
    await page.getByRole("button", { name: "Add language" }).click();
    const add = page.getByRole("dialog", { name: "Add a language" });
    await add.getByLabel("Language").selectOption("fr");
    await add.getByRole("button", { name: "Add language" }).click();
    await page.waitForURL(/lang=fr/);
    await page.getByRole("tab", { name: /fr/, selected: true }).waitFor();
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    const frId = new URL(page.url()).pathname.split("/").pop();
    assert.notEqual(frId, enId);
    await page.getByRole("tab", { name: /en.*Published/ }).waitFor();
    await page.getByLabel(/^Title\b/).fill(`Lumières du port ${stamp}`);
    await page.getByLabel(/^Summary/).fill("Les lampes du quai au crépuscule.");
    if ((await page.getByLabel("Format", { exact: true }).inputValue()) === "video" && (await page.getByLabel(/^Video URL/).inputValue()) === "") await page.getByLabel(/^Video URL/).fill("https://video.example/port");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    await page.getByRole("button", { name: "Publish fr" }).click();
    await page.getByRole("status").filter({ hasText: "Published (fr)" }).waitFor();
    await page.getByRole("tab", { name: /fr.*Published/, selected: true }).waitFor();
    await checkScreen(page, "entry-editor-translated");

    // Both languages served by the public API.
    const fr = await entry(frId);
    assert.equal(fr.lang, "fr");
    assert.notEqual(fr.published_version_id, null);
    const servedFr = await admin.publicRead(`/v1/article/${encodeURIComponent(fr.slug)}?locale=fr`);
    assert.equal(servedFr.status, 200, JSON.stringify(servedFr.body));
    assert.ok(JSON.stringify(servedFr.body).includes(`Lumières du port ${stamp}`), "the French title is served");
    const servedEn = await admin.publicRead(`/v1/article/${encodeURIComponent(slug)}`);
    assert.equal(servedEn.status, 200, JSON.stringify(servedEn.body));
    assert.ok(JSON.stringify(servedEn.body).includes(`Harbour lights ${stamp}`), "the English title is served");
    assert.ok(JSON.stringify(servedEn.body).includes("https://video.example/harbour"));
    // The table typed in the editor is what the public API serves, cell by cell.
    const servedBody = String(servedEn.body.data.fields.body ?? "");
    assert.match(servedBody, /<table>.*<th>Day<\/th><th>High<\/th><th>Low<\/th>.*<td>Mon<\/td><td>06:12<\/td><td>12:25<\/td>.*<td>Tue<\/td><td>06:58<\/td><td>13:10<\/td>.*<\/table>/s);
    assert.match(servedBody, /Tide times at the harbour mouth:/);

    // Back on the English tab by keyboard: it opens the English language, still published.
    await page.getByRole("tab", { name: /fr/, selected: true }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/lang=en/);
    await page.getByRole("tab", { name: /en.*Published/, selected: true }).waitFor();
    assert.equal(await page.getByLabel(/^Title\b/).inputValue(), `Harbour lights ${stamp}`);
    await context.close();
  });

  it("never lets an observer's refresh move the version a restored text is saved over: that save is a conflict, not an overwrite", async () => {
    const article = (await admin.manage("GET", "/models")).body.data.find((m) => m.slug === "article");
    const made = await admin.manage("POST", "/entries", { model_id: article.id, lang: "en", fields: { title: `Tide clock ${Date.now()}`, summary: "First words." } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const url = `${admin.origin}/sites/${demo.id}/entries/${made.body.instance_id}`;
    const a = await newPerson(admin);
    const b = await newPerson(admin);
    await signInAs(a.page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await signInAs(b.page, admin.origin, admin.info.editor.email, admin.info.editor.password);
    await a.page.goto(url);
    await a.page.getByText("You are editing (others see you as the editor).").waitFor();
    await b.page.goto(url);
    await b.page.getByText("Being edited by Demo Admin").waitFor();
    assert.equal(await b.page.getByLabel(/^Summary/).isEditable(), false, "an observer cannot type");

    // A types; B takes over; A's save is lock lost and A restores the kept text (read-only now).
    const mine = `A's words ${Date.now()}`;
    await a.page.getByLabel(/^Summary/).fill(mine);
    await b.page.getByRole("button", { name: "Take over" }).click();
    await b.page.getByRole("dialog", { name: "Take over from Demo Admin?" }).getByRole("button", { name: "Take over" }).click();
    await b.page.getByText("You are editing (others see you as the editor).").waitFor();
    await a.page.getByRole("button", { name: "Save draft" }).click();
    await a.page.getByText("Demo Editor took over this entry. Your text is kept.").waitFor();
    await a.page.reload();
    await a.page.getByRole("button", { name: "Restore my text" }).click();
    assert.equal(await a.page.getByLabel(/^Summary/).inputValue(), mine);

    // B saves; A's next lease check sees it, says so, and keeps A's text in the form.
    const theirs = `B's words ${Date.now()}`;
    await b.page.getByLabel(/^Summary/).fill(theirs);
    await b.page.getByRole("button", { name: "Save draft" }).click();
    await b.page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    await a.page.getByText("A newer version was saved while you watched.").waitFor({ timeout: 15_000 });
    assert.equal(await a.page.getByLabel(/^Summary/).inputValue(), mine);

    // A takes over and saves: refused as a conflict (B's save stays), the text still kept.
    await a.page.getByRole("button", { name: "Take over" }).click();
    await a.page.getByRole("dialog", { name: "Take over from Demo Editor?" }).getByRole("button", { name: "Take over" }).click();
    await a.page.getByText("You are editing (others see you as the editor).").waitFor();
    await a.page.getByRole("button", { name: "Save draft" }).click();
    await a.page.getByRole("alert").filter({ hasText: "Someone saved this entry after you opened it." }).waitFor();
    assert.equal((await entry(made.body.instance_id)).fields.summary, theirs, "B's save is not overwritten");
    await a.context.close();
    await b.context.close();
  });
});
