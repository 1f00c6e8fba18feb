/**
 * An editor's day without friction in a real Chromium (issue #30 items 7–12; docs/admin-ui-content.md,
 * "The editor's day"): unsaved text survives a reload (kept on the server while typing, offered
 * back), leaving with unsaved changes asks, Ctrl+S saves, an image from the library and a link to
 * another entry go into rich text, two rows are published in bulk with each result in words, the
 * home dashboard shows an entry assigned to the editor, and a take-over shows one banner (no stale
 * "Draft saved at…", no Save offered to the observer). One server, one browser, the screens in
 * sequence; results checked through the management API; axe + 360 px on each screen.
 * Run: node --test test/e2e/admin-ui-editor-day.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8809;
let admin;
let demo;
let model; // the demo's article model
const made = {}; // fresh articles: day (edited), one and two (bulk published)
const stamp = Date.now();

const current = async (id) => (await admin.manage("GET", `/entries/${id}`)).body;
const recoveryDraft = async (id) => {
  const answer = await admin.manage("GET", `/entries/${id}/recovery-draft`);
  return answer.status === 200 ? answer.body : null;
};
/** A person whose page waits longer than Playwright's 30 s default: the machine running the suite is shared and busy. */
async function person() {
  const p = await newPerson(admin);
  p.page.setDefaultTimeout(90_000);
  p.page.setDefaultNavigationTimeout(90_000);
  return p;
}

/** Polls an answer (the page writes in the background) until `ok`, for at most `ms`. */
async function until(read, ok, ms = 10_000) {
  const end = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

before(async () => {
  admin = await startAdmin({ port: PORT });
  demo = admin.info.sites.find((s) => s.slug === "demo");
  model = (await admin.manage("GET", "/models")).body.data.find((m) => m.slug === "article");
  for (const [name, title] of [
    ["day", `Editor day ${stamp}`],
    ["one", `Bulk ${stamp} one`],
    ["two", `Bulk ${stamp} two`],
  ]) {
    const answer = await admin.manage("POST", "/entries", { model_id: model.id, lang: "en", slug: `${name}-${stamp}`, fields: { title } });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    made[name] = answer.body;
  }
  // The day's article is assigned to the demo editor (the dashboard shows it to them).
  const eligible = (await admin.manage("GET", `/entries/${made.day.instance_id}/assignees`)).body.eligible;
  const editor = eligible.find((p) => p.email === admin.info.editor.email);
  assert.ok(editor, "the demo editor can be assigned");
  assert.equal((await admin.manage("PUT", `/entries/${made.day.instance_id}/assignment`, { assignee_ids: [editor.id] })).status, 200);
});
after(async () => {
  await admin?.close();
});

describe("admin UI: an editor's day", () => {
  let a; // the demo admin
  const entryUrl = (entry) => `${admin.origin}/sites/${demo.id}/entries/${entry.instance_id}`;

  it("keeps unsaved text through a reload and offers it back; leaving asks; Ctrl+S saves", async () => {
    a = await person();
    const { page } = a;
    const dialogs = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      // Stay on in-app navigation (the test checks the question), leave on reload.
      void (dialog.type() === "confirm" ? dialog.dismiss() : dialog.accept());
    });
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(entryUrl(made.day));
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    const words = `Half a paragraph typed ${stamp}`;
    await page.getByLabel("Summary").fill(words);
    // Kept on the server while typing, before any save.
    await page.getByText(/Unsaved text kept at/).waitFor();
    assert.equal((await recoveryDraft(made.day.instance_id))?.values.summary, words);
    assert.equal((await recoveryDraft(made.day.instance_id))?.reason, "unsaved");

    // Leaving by the menu asks first; staying keeps the text.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Content" }).click();
    assert.deepEqual(dialogs, ["confirm"]);
    assert.match(page.url(), /\/entries\//);
    assert.equal(await page.getByLabel("Summary").inputValue(), words);

    // A reload (the browser's own question, accepted) comes back to the saved entry and offers the text back.
    await page.reload();
    await page.getByText("You left unsaved changes here. Your text is kept.").waitFor();
    assert.notEqual(await page.getByLabel("Summary").inputValue(), words);
    await checkScreen(page, "editor-day-recovery");
    await page.getByRole("button", { name: "Restore my text" }).click();
    assert.equal(await page.getByLabel("Summary").inputValue(), words);

    // Ctrl+S saves; the kept text is dropped once it is in the entry.
    await page.keyboard.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    assert.equal((await current(made.day.instance_id)).fields.summary, words);
    assert.equal(await until(() => recoveryDraft(made.day.instance_id), (d) => d === null), null);
    // The side panel: status, versions, assignee, where it is used.
    const side = page.getByRole("complementary", { name: "About this entry" });
    await side.getByText("Demo Editor").waitFor();
    await side.getByRole("link", { name: "Version history" }).waitFor();
  });

  it("inserts an image from the library and a link to another entry into rich text", async () => {
    const { page } = a;
    const body = page.getByRole("textbox", { name: "Body" });
    await body.click();
    await page.keyboard.type("See ");
    await page.getByRole("button", { name: "Insert image from library" }).click();
    const library = page.getByRole("dialog", { name: "Choose from library" });
    await library.locator("button.media-tile").first().click();
    await library.getByRole("button", { name: "Use selected" }).click();
    await page.getByRole("button", { name: "Entry link" }).click();
    const linking = page.getByRole("dialog", { name: "Link to an entry" });
    await linking.getByLabel("Search by title").fill(`Bulk ${stamp} one`);
    await linking.getByRole("button", { name: new RegExp(`Bulk ${stamp} one`) }).click();
    await checkScreen(page, "editor-day-rich-text");
    await page.keyboard.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    const html = (await current(made.day.instance_id)).fields.body;
    assert.match(html, /<img [^>]*data-media="med_/, "a library image");
    assert.ok(html.includes(`href="/article/one-${stamp}"`), `a link to the other entry: ${html}`);
  });

  it("publishes two rows in bulk and says each result in words", async () => {
    const { page } = a;
    await page.goto(`${admin.origin}/sites/${demo.id}/content/${model.id}?q=${encodeURIComponent(`Bulk ${stamp}`)}`);
    await page.getByRole("status").filter({ hasText: "2 entries shown" }).waitFor();
    // Rows are named "TITLE (LANGUAGE)": the language's name where the browser knows it, else its code.
    await page.getByRole("checkbox", { name: new RegExp(`^Select Bulk ${stamp} one \\((English|en)\\)$`) }).check();
    await page.getByRole("checkbox", { name: new RegExp(`^Select Bulk ${stamp} two \\((English|en)\\)$`) }).check();
    await page.getByRole("button", { name: "Publish selected…", exact: true }).click();
    const ask = page.getByRole("dialog", { name: "Publish 2 items?" });
    await ask.getByRole("button", { name: "Publish 2" }).click();
    const results = page.getByRole("region", { name: "Bulk results" });
    await results.getByText(new RegExp(`Bulk ${stamp} one \\((English|en)\\): Published \\(every language\\)`)).waitFor();
    await results.getByText(new RegExp(`Bulk ${stamp} two \\((English|en)\\): Published \\(every language\\)`)).waitFor();
    for (const name of ["one", "two"]) assert.ok((await current(made[name].instance_id)).published_version_id, `${name} is published`);
    await checkScreen(page, "editor-day-bulk");
  });

  it("shows the editor their assigned entry on the home dashboard, and a take-over in one banner", async () => {
    const b = await person();
    await signInAs(b.page, admin.origin, admin.info.editor.email, admin.info.editor.password);
    await b.page.goto(`${admin.origin}/sites/${demo.id}/home`);
    const assigned = b.page.getByRole("region", { name: "Assigned to me" });
    await assigned.getByRole("link", { name: `Editor day ${stamp}` }).waitFor();
    await checkScreen(b.page, "editor-day-dashboard");

    // A edits the day's article; B opens it, takes over; A's save is refused: one banner says it all.
    const { page } = a;
    await page.goto(entryUrl(made.day));
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    await page.getByLabel("Summary").fill(`A's words after the save ${stamp}`);
    await assigned.getByRole("link", { name: `Editor day ${stamp}` }).click();
    await b.page.getByText("Being edited by Demo Admin").waitFor();
    assert.equal(await b.page.getByRole("button", { name: "Save draft" }).count(), 0, "an observer is not offered Save");
    await b.page.getByRole("button", { name: "Take over" }).click();
    await b.page.getByRole("dialog", { name: "Take over from Demo Admin?" }).getByRole("button", { name: "Take over" }).click();
    await b.page.getByText("You are editing (others see you as the editor).").waitFor();

    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Demo Editor took over this entry. Your text is kept.").waitFor();
    assert.equal(await page.locator(".lease-banner, .recovery-panel").count(), 1, "one banner, not two");
    assert.equal(await page.getByText("Draft saved at").count(), 0, "no stale save message beside the refusal");
    assert.equal(await page.getByRole("button", { name: "Save draft" }).count(), 0);
    await checkScreen(page, "editor-day-take-over");
    await b.context.close();
  });
});
