/**
 * Admin UI lifecycle in a real Chromium (issue #15 items 5 and 6; docs/admin-ui-lifecycle.md):
 * two people (the demo admin and the seeded demo editor, two holders — a lease's holder is the
 * person) on one draft article: A holds the lease, B observes and sees A named, B takes over, A's
 * next save is lock lost and A's unsaved text is kept and restored; the observer sees saves within
 * 10 seconds and gets the lease when the holder leaves; a double-clicked Save writes one version;
 * a publish refused in words, then published and served; unpublish; versions diff and restore.
 * Results are checked through the management and public APIs. axe + 360 px on each screen.
 * Run: node --test test/e2e/admin-ui-lifecycle.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8783;
let admin;
let demo;
let article; // a draft article of the demo site

const versions = async (id) => (await admin.manage("GET", `/entries/${id}/versions`)).body.data;
/** The demo admin's recovery draft of an entry language on the server (docs/recovery-drafts.md), or null. */
const recoveryDraft = async (id) => {
  const answer = await admin.manage("GET", `/entries/${id}/recovery-draft`);
  return answer.status === 200 ? answer.body : null;
};
/** Polls (the editor drops a draft after its own answer is shown) until the admin has none. */
async function recoveryGone(id) {
  for (let i = 0; i < 50 && (await recoveryDraft(id)) !== null; i++) await new Promise((r) => setImmediate(r));
  return (await recoveryDraft(id)) === null;
}
const current = async (id) => (await admin.manage("GET", `/entries/${id}`)).body;

before(async () => {
  admin = await startAdmin({ port: PORT });
  demo = admin.info.sites.find((s) => s.slug === "demo");
  assert.ok(admin.info.editor, "the seed prints a second person (editor)");
  const models = (await admin.manage("GET", "/models")).body.data;
  const model = models.find((m) => m.slug === "article");
  const drafts = (await admin.manage("GET", `/entries?model_id=${model.id}&lang=en&state=draft&limit=20`)).body.data;
  const seeded = drafts.find((e) => e.slug && typeof e.fields.title === "string");
  assert.ok(seeded, "the demo has a draft article");
  // A copy of its own (the seeded draft's fields under a stamped slug): the file shares its server
  // with other admin files (scripts/test-e2e.mjs), and a seeded draft another file opened is
  // leased by that file's session for two minutes — this file would observe instead of edit.
  const stamp = Date.now().toString(36);
  const made = await admin.manage("POST", "/entries", { model_id: model.id, lang: "en", slug: `lifecycle-${stamp}`, fields: { ...seeded.fields, title: `Lifecycle ${stamp}` } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  article = made.body;
});
after(async () => {
  await admin?.close();
});

describe("admin UI: leases and lifecycle", () => {
  let a; // the demo admin
  let b; // the demo editor
  const entryUrl = () => `${admin.origin}/sites/${demo.id}/entries/${article.instance_id}`;

  it("shows the holder to an observer, lets them take over, and keeps the old editor's text as a recovery draft", async () => {
    a = await newPerson(admin);
    b = await newPerson(admin);
    await signInAs(a.page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await signInAs(b.page, admin.origin, admin.info.editor.email, admin.info.editor.password);

    await a.page.goto(entryUrl());
    await a.page.getByText("You are editing (others see you as the editor).").waitFor();
    const summaryA = a.page.getByLabel("Summary");
    assert.equal(await summaryA.isEditable(), true);
    await checkScreen(a.page, "entry-lifecycle");

    // B opens the same entry language: A holds it, so B observes, with A named.
    await b.page.goto(entryUrl());
    await b.page.getByText("Being edited by Demo Admin").waitFor();
    assert.equal(await b.page.getByLabel("Summary").isEditable(), false, "the observer's form is read-only");
    assert.equal(await b.page.getByRole("button", { name: "Save draft" }).count(), 0, "an observer is not offered Save (issue #30 item 12)");
    await checkScreen(b.page, "entry-observer");

    // A writes without saving; B takes over (confirmed in a dialog).
    const unsaved = `A's unsaved words ${Date.now()}`;
    await summaryA.fill(unsaved);
    await b.page.getByRole("button", { name: "Take over" }).click();
    const dialog = b.page.getByRole("dialog", { name: "Take over from Demo Admin?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Take over" }).click();
    await b.page.getByText("You are editing (others see you as the editor).").waitFor();
    assert.equal(await b.page.getByLabel("Summary").isEditable(), true);

    // A's next save: lock lost, nothing written, the text kept and restorable.
    const before = (await versions(article.instance_id)).length;
    await a.page.getByRole("button", { name: "Save draft" }).click();
    await a.page.getByText("Demo Editor took over this entry. Your text is kept.").waitFor();
    await a.page.getByText("Being edited by Demo Editor").waitFor();
    assert.equal((await versions(article.instance_id)).length, before, "a lost lease writes nothing");
    assert.notEqual((await current(article.instance_id)).fields.summary, unsaved);
    await checkScreen(a.page, "entry-lock-lost");
    // The recovery draft is on the server, the person's own: A's text is there; B has none.
    assert.equal((await recoveryDraft(article.instance_id))?.values.summary, unsaved);
    const bStatus = await b.page.evaluate(async ([id, site]) => (await fetch(`/api/v1/entries/${id}/recovery-draft`, { headers: { "x-site-id": site } })).status, [article.instance_id, demo.id]);
    assert.equal(bStatus, 404);

    // Kept until saved or discarded: after a reload the form shows the saved version, and the
    // panel offers the kept text back.
    await a.page.reload();
    await a.page.getByText("Demo Editor took over this entry. Your text is kept.").waitFor();
    assert.notEqual(await summaryA.inputValue(), unsaved);
    await a.page.getByRole("button", { name: "Restore my text" }).click();
    assert.equal(await summaryA.inputValue(), unsaved, "Restore puts the kept text back into the form");
    assert.equal(await summaryA.isEditable(), false, "still read-only: Demo Editor holds the lease");
    await a.page.getByRole("status").filter({ hasText: "Take over editing to save it." }).waitFor();

    // Discard forgets it.
    await a.page.reload();
    await a.page.getByRole("button", { name: "Discard" }).click();
    await a.page.getByRole("status").filter({ hasText: "Recovery draft discarded." }).waitFor();
    assert.ok(await recoveryGone(article.instance_id), "Discard drops the draft on the server");
    await a.page.getByText("Being edited by Demo Editor").waitFor();
  });

  it("shows an observer the holder's saves within 10 seconds and gives them the lease when the holder leaves", async () => {
    const title = `Saved by the editor ${Date.now()}`;
    // The real form's title is "Title (required)"; the SEO component's "SEO title" also contains the word.
    await b.page.getByLabel(/^Title\b/).fill(title);
    await b.page.getByRole("button", { name: "Save draft" }).click();
    await b.page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    assert.equal((await current(article.instance_id)).fields.title, title);
    // A (observing) re-reads every 10 s.
    const titleA = a.page.getByLabel(/^Title\b/);
    for (const until = Date.now() + 15_000; (await titleA.inputValue()) !== title; await a.page.waitForTimeout(250)) assert.ok(Date.now() < until, "the observer sees the save within 10 seconds");

    // B closes the tab (the lease is released on pagehide); A's next re-read takes it.
    await b.page.close({ runBeforeUnload: true });
    await a.page.getByText("You are editing now.").waitFor({ timeout: 15_000 });
    assert.equal(await a.page.getByLabel("Summary").isEditable(), true);
    await b.context.close();
  });

  it("writes one version for a double-clicked Save", async () => {
    const summary = a.page.getByLabel("Summary");
    const text = `Double-clicked ${Date.now()}`;
    await summary.fill(text);
    const before = (await versions(article.instance_id)).length;
    const saves = [];
    const onRequest = (request) => {
      if (request.method() === "PUT" && request.url().endsWith(`/api/v1/entries/${article.instance_id}`)) saves.push(request.headers()["idempotency-key"]);
    };
    a.page.on("request", onRequest);
    await a.page.getByRole("button", { name: "Save draft" }).dblclick();
    await a.page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    await a.page.waitForTimeout(500);
    a.page.off("request", onRequest);
    assert.equal((await versions(article.instance_id)).length, before + 1, "one click's worth of versions");
    // One request with one key (not a second save refused as a version conflict).
    assert.equal(saves.length, 1, "a double click sends one save");
    assert.match(saves[0] ?? "", /^ui-[0-9a-f-]{36}$/);
    assert.equal(await a.page.locator(".refusal-panel").count(), 0, "no refusal shown");
    assert.equal((await current(article.instance_id)).fields.summary, text);
  });

  it("retries a save whose answer was lost with the same key, so it is written once", async () => {
    const page = a.page;
    await page.getByLabel("Summary").fill(`Answer lost ${Date.now()}`);
    const before = (await versions(article.instance_id)).length;
    const keys = [];
    const onRequest = (request) => {
      if (request.method() === "PUT" && request.url().endsWith(`/api/v1/entries/${article.instance_id}`)) keys.push(request.headers()["idempotency-key"]);
    };
    page.on("request", onRequest);
    // The next save reaches the service and is written, but its answer never comes back.
    await page.evaluate(() => {
      const real = window.fetch;
      let armed = true;
      window.fetch = async (input, init) => {
        const response = await real(input, init);
        // Only the save: not the lease's renewal, nor the recovery draft kept while typing (both PUT too).
        if (armed && init?.method === "PUT" && !String(input).endsWith("/editing") && !String(input).includes("/recovery-draft")) {
          armed = false;
          throw new TypeError("Failed to fetch");
        }
        return response;
      };
    });
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "The service could not be reached." }).waitFor();
    assert.equal((await versions(article.instance_id)).length, before + 1, "the first attempt was written");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("status").filter({ hasText: "this save had already been made" }).waitFor();
    page.off("request", onRequest);
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1], "the retry sends the same Idempotency-Key");
    assert.equal((await versions(article.instance_id)).length, before + 1, "the retry wrote nothing more");
  });

  it("renews the lease only while the tab is visible, and at once when it becomes visible again", async () => {
    const page = a.page;
    const renewals = [];
    const onRequest = (request) => {
      if (request.method() === "PUT" && request.url().endsWith(`/api/v1/entries/${article.instance_id}/editing`)) renewals.push(Date.now());
    };
    const setVisibility = (state) =>
      page.evaluate((s) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
        document.dispatchEvent(new Event("visibilitychange"));
      }, state);
    // The page's clock is faked (Playwright's clock) so the 30 s renewal period passes without
    // waiting for it: installed, then the editor reloaded so its renewal timer runs on that clock.
    // The clock keeps flowing at real speed afterwards; only the jump below skips ahead.
    await page.clock.install();
    await page.reload();
    await page.getByText("You are editing (others see you as the editor).").waitFor();
    page.on("request", onRequest);
    await setVisibility("hidden");
    // Longer than the renewal period (30 s): a hidden tab sends nothing and lets its lease lapse.
    await page.clock.fastForward(32_000);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    assert.equal(renewals.length, 0, "no renewal while hidden");
    const renewed = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/api/v1/entries/${article.instance_id}/editing`), { timeout: 10_000 });
    await setVisibility("visible");
    await renewed;
    assert.equal(renewals.length, 1, "renewed at once when visible again");
    page.off("request", onRequest);
    await page.getByText("You are editing (others see you as the editor).").waitFor();
  });

  it("shows a publish refusal in words, then publishes what the public API serves, then unpublishes", async () => {
    const page = a.page;
    const title = page.getByLabel(/^Title\b/);
    const kept = await title.inputValue();
    await title.fill("");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    await page.getByRole("button", { name: "Publish en" }).click();
    await page.getByRole("alert").filter({ hasText: "Some fields need attention before this can be saved or published." }).waitFor();
    await page.locator(".refusal-panel").getByText("Title").first().waitFor();
    assert.equal((await current(article.instance_id)).published_version_id, null, "the refused publish published nothing");
    await checkScreen(page, "entry-publish-refused");

    await title.fill(kept);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    await page.getByRole("button", { name: "Publish en" }).click();
    await page.getByRole("status").filter({ hasText: "Published (en)" }).waitFor();
    const served = await admin.publicRead(`/v1/article/${encodeURIComponent(article.slug)}`);
    assert.equal(served.status, 200);
    assert.equal(JSON.stringify(served.body).includes(kept), true, "the public API serves the published title");

    await page.getByRole("button", { name: "Unpublish en" }).click();
    const dialog = page.getByRole("dialog", { name: "Unpublish en?" });
    await dialog.getByText("No published content links to it.").waitFor();
    await dialog.getByRole("button", { name: "Unpublish en" }).click();
    await page.getByRole("status").filter({ hasText: "Unpublished (en)" }).waitFor();
    assert.equal((await admin.publicRead(`/v1/article/${encodeURIComponent(article.slug)}`)).status, 404);
  });

  it("moves through the workflow, assigns, previews in a new tab, and goes to Trash and back", async () => {
    const page = a.page;
    await page.getByRole("button", { name: "Move to In review" }).click();
    await page.getByRole("status").filter({ hasText: "Moved to In review." }).waitFor();
    assert.equal((await current(article.instance_id)).workflow.state, "in_review");

    await page.getByRole("button", { name: "Assign…" }).click();
    const assign = page.getByRole("dialog", { name: "Assign" });
    await assign.getByRole("checkbox", { name: /Demo Editor/ }).check();
    await assign.getByRole("button", { name: "Save assignment" }).click();
    await page.getByRole("status").filter({ hasText: "Assignment saved." }).waitFor();
    const assignees = (await admin.manage("GET", `/entries/${article.instance_id}/assignees`)).body;
    assert.deepEqual(assignees.assigned.map((p) => p.name), ["Demo Editor"]);

    const [tab] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Preview" }).click()]);
    await tab.waitForURL(/preview=/);
    const url = new URL(tab.url());
    assert.equal(url.hostname, "demo.localhost");
    assert.match(url.pathname, new RegExp(`^/v1/article/${article.slug}$`));
    assert.match((await tab.content()).toString(), /instance_id|title/);
    await tab.close();

    await page.getByRole("button", { name: "Move to Trash…" }).click();
    await page.getByRole("dialog", { name: "Move to Trash?" }).getByRole("button", { name: "Move to Trash" }).click();
    await page.getByRole("status").filter({ hasText: "Moved to Trash." }).waitFor();
    assert.notEqual((await current(article.instance_id)).trashed_at, null);
    await page.getByRole("button", { name: "Restore from Trash" }).click();
    await page.getByRole("dialog", { name: "Restore from Trash?" }).getByRole("button", { name: "Restore" }).click();
    await page.getByRole("status").filter({ hasText: "Restored from Trash." }).waitFor();
    assert.equal((await current(article.instance_id)).trashed_at, null);
  });

  it("compares a version with the current draft and restores it; a rich-text change shows its formatting", async () => {
    const page = a.page;
    await page.getByRole("link", { name: "Versions" }).click();
    await page.getByRole("heading", { name: /^Versions of / }).waitFor();
    const list = await versions(article.instance_id);
    const entry = await current(article.instance_id);
    // The oldest version: its title and summary differ from the current draft.
    const target = list[list.length - 1];
    await page.getByRole("button", { name: new RegExp(`^Version ${target.number}\\b`) }).click();
    await page.getByRole("heading", { name: `Version ${target.number} compared with the current draft` }).waitFor();
    await page.getByRole("table", { name: `Fields that differ between version ${target.number} and the current draft` }).waitFor();
    await checkScreen(page, "versions");

    await page.getByRole("button", { name: `Restore version ${target.number}` }).click();
    await page.getByRole("dialog", { name: `Restore version ${target.number}?` }).getByRole("button", { name: "Restore" }).click();
    await page.getByRole("status").filter({ hasText: `Version ${target.number} is the draft again` }).waitFor();
    const after = await current(article.instance_id);
    const old = (await admin.manage("GET", `/entries/${article.instance_id}/versions`)).body.data;
    assert.equal(old.length, list.length + 1, "a restore is a new version");
    assert.equal(old[0].restored_from, target.id);
    assert.notEqual(after.current_version_id, entry.current_version_id);

    // Issue #30 item 9: a rich-text change shows its formatting, heading level and table cell, in words.
    const model = (await admin.manage("GET", "/models")).body.data.find((m) => m.slug === "article");
    const table = (cell) => `<table><thead><tr><th>Day</th><th>High</th></tr></thead><tbody><tr><td>Mon</td><td>${cell}</td></tr></tbody></table>`;
    const first = await admin.manage("POST", "/entries", { model_id: model.id, fields: { title: `Diff ${Date.now()}`, body: `<h2>Tides</h2><p>Low and high water, see chart.</p>${table("06:12")}` } });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const second = await admin.manage("PUT", `/entries/${first.body.instance_id}`, {
      expected_version_id: first.body.current_version_id,
      fields: { body: `<h3>Tides</h3><p>Low and <strong>high</strong> water, see <a href="https://tides.example/" target="_blank">chart</a>.</p>${table("06:15")}` },
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    await page.goto(`${admin.origin}/sites/${demo.id}/entries/${first.body.instance_id}/versions`);
    await page.getByRole("heading", { name: "Version 1 compared with the current draft" }).waitFor();
    const bodyRow = page.getByRole("row", { name: /^Body/ });
    for (const words of [
      "Changed: Heading 3 (was heading 2)",
      "Heading 2 became heading 3.",
      "“high” now bold.",
      "“chart” now a link to https://tides.example/ (opens in a new tab).",
      "Changed: Table 1, row 2, column 2",
      "Deleted “06:12”.",
      "Inserted “06:15”.",
    ]) {
      await bodyRow.getByText(words, { exact: true }).waitFor();
    }
    // Marked in words for screen readers, not by colour alone.
    assert.match(await bodyRow.locator("mark").first().textContent(), /^\[formatting changed: high\]$/);
    assert.match(await bodyRow.locator("ins").first().textContent(), /^\[inserted: 06:15\]$/);
    await checkScreen(page, "versions-rich-text");
    await a.context.close();
  });

  it("keeps the text on a version conflict, reloads, restores it, and lists the content linking to an entry before unpublishing", async () => {
    // A published author that published articles link to.
    const models = (await admin.manage("GET", "/models")).body.data;
    const authorModel = models.find((m) => m.slug === "author");
    const authors = (await admin.manage("GET", `/entries?model_id=${authorModel.id}&state=published&limit=20`)).body.data;
    let author;
    let linking = [];
    for (const candidate of authors) {
      linking = (await admin.manage("GET", `/entries/${candidate.instance_id}/dependents`)).body.data.filter((d) => d.published);
      if (linking.length > 0) {
        author = candidate;
        break;
      }
    }
    assert.ok(author, "the demo has a published author linked from published articles");

    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${demo.id}/entries/${author.instance_id}`);
    await page.getByText("You are editing (others see you as the editor).").waitFor();

    // Saved elsewhere (the same person through the management API) after the page read the entry.
    const elsewhere = `Changed elsewhere ${Date.now()}`;
    const saved = await admin.manage("PUT", `/entries/${author.instance_id}`, { expected_version_id: author.current_version_id, fields: { bio: elsewhere } });
    assert.equal(saved.status, 200);

    const mine = `My bio ${Date.now()}`;
    const bio = page.getByLabel("Bio");
    await bio.fill(mine);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "Someone saved this entry after you opened it." }).waitFor();
    await page.getByText("Someone saved this entry before you. Your text is kept.").waitFor();
    assert.equal((await current(author.instance_id)).fields.bio, elsewhere, "the conflicting save wrote nothing");
    await page.getByRole("button", { name: "Reload" }).click();
    await page.getByRole("status").filter({ hasText: "Reloaded" }).waitFor();
    assert.equal(await bio.inputValue(), elsewhere);
    await page.getByRole("button", { name: "Restore my text" }).click();
    assert.equal(await bio.inputValue(), mine);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved at" }).waitFor();
    assert.equal((await current(author.instance_id)).fields.bio, mine);
    assert.ok(await recoveryGone(author.instance_id), "saved after restoring: the recovery draft is dropped");

    // Unpublish asks first and names the published content linking here.
    await page.getByRole("button", { name: /^Unpublish / }).click();
    const dialog = page.getByRole("dialog", { name: /^Unpublish / });
    await dialog.getByText("Published content links to this entry").waitFor();
    for (const d of linking.slice(0, 3)) await dialog.getByText(d.label ?? d.instance_id, { exact: false }).first().waitFor();
    await checkScreen(page, "entry-unpublish-dependents");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.notEqual((await current(author.instance_id)).published_version_id, null, "cancelled: still published");
    await context.close();
  });
});
