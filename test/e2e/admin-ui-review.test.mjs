/**
 * Admin UI review screen in a real Chromium (issue #15 item 7): an agent's entry proposal (made
 * with the seed's management token) listed with its source, its field diff against the version it
 * was made on, Apply (double-clicked: one new version only) → the entry's draft holds the value; a
 * proposal made stale by a save → Apply refused with the explanation in words; Reject; model
 * proposals: Apply (a field added) and a stale one refused in words, then Dismissed; axe and 360 px
 * on every state. Everything checked again through the management API.
 * Run: node --test test/e2e/admin-ui-review.test.mjs
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { request } from "../../scripts/lib/dev-server.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8784;
const SOURCE = "Demo seed: management (every scope)";
let admin;

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

async function ok(promise, status = 200) {
  const res = await promise;
  assert.equal(res.status, status, JSON.stringify(res.body));
  return res.body;
}

/**
 * The demo's article model (a model with a text `title` field) and `count` English entries of it
 * that this file writes itself (stamped titles): the seeded articles are read by other files of a
 * shared batch, and their newest entries may be another file's, under its lease (docs/testing.md).
 */
async function articleSetup(count = 0) {
  const models = (await ok(admin.manage("GET", "/models"))).data;
  const model = models.find((m) => m.slug === "article") ?? models.find((m) => m.definition.fields.some((f) => f.key === "title" && f.type === "text"));
  assert.ok(model, "the demo has a model with a text title field");
  const stamp = Date.now().toString(36);
  const entries = [];
  for (let i = 1; i <= count; i++) {
    const made = await ok(admin.manage("POST", "/entries", { model_id: model.id, lang: "en", slug: `review-${stamp}-${i}`, fields: { title: `Review sample ${i} ${stamp}`, summary: `What sample ${i} is about.` } }), 201);
    assert.equal(made.trashed_at, null);
    assert.ok(made.label && made.current_version_id, JSON.stringify(made));
    entries.push(made);
  }
  return { model, entries };
}

async function propose(entry, fields, note) {
  return ok(admin.manage("POST", `/entries/${entry.instance_id}/proposals`, { base_version_id: entry.current_version_id, fields, ...(note ? { note } : {}) }), 201);
}

describe("admin UI: review", () => {
  it("lists an agent's proposal with its source, shows its diff, applies it once, explains a stale one, rejects one", async () => {
    const site = admin.info.sites.find((s) => s.slug === "demo");
    const { entries } = await articleSetup(3);
    const [a, b, c] = entries;
    const stamp = Date.now().toString(36);
    const proposedTitle = `A sharper title ${stamp}`;
    const p1 = await propose(a, { title: proposedTitle }, "Shorter and clearer.");
    assert.equal(p1.source.label, SOURCE);
    const p2 = await propose(b, { title: `Agent title for B ${stamp}` });
    const p3 = await propose(c, { title: `Agent title for C ${stamp}` });
    // B is saved by an editor after the proposal: p2 is now stale.
    const editorsTitle = `Editor's title ${stamp}`;
    await ok(admin.manage("PUT", `/entries/${b.instance_id}`, { expected_version_id: b.current_version_id, fields: { title: editorsTitle } }));

    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${site.id}/review`);
    await page.getByRole("heading", { name: "Review", level: 1 }).waitFor();
    const rowA = page.getByRole("row").filter({ hasText: a.label });
    await rowA.first().waitFor();
    assert.match(await rowA.first().innerText(), new RegExp(`Management credential\\s+${SOURCE.replace(/[()]/g, "\\$&")}`));
    assert.match(await rowA.first().innerText(), /Title/);
    await checkScreen(page, "review-list");

    // The diff: the title before (the version it was made on) and after (proposed).
    await page.getByRole("link", { name: `Review the proposal for ${a.label}` }).click();
    await page.getByRole("heading", { name: `Proposal for “${a.label}”` }).waitFor();
    const diffRow = page.getByRole("table", { name: "Proposed values against the version the proposal was made on" }).getByRole("row").filter({ hasText: "Title" });
    assert.match(await diffRow.innerText(), new RegExp(`${escape(a.label)}[\\s\\S]*${escape(proposedTitle)}`));
    await page.getByText("Shorter and clearer.").waitFor();
    await page.getByText("The entry has not changed since").waitFor();
    await checkScreen(page, "review-proposal");

    // Apply, double-clicked: one save only.
    const versionsBefore = (await ok(admin.manage("GET", `/entries/${a.instance_id}/versions`))).data.length;
    await page.getByRole("button", { name: "Apply proposal" }).dblclick();
    await page.getByText("Proposal applied: the entry's draft now holds the proposed values.").waitFor();
    assert.equal(await page.getByRole("alert").count(), 0, "the second click of the double click shows no refusal");
    assert.equal(await page.getByText("This proposal was already applied.").count(), 0, "the second click sent no second apply");
    const afterApply = await ok(admin.manage("GET", `/entries/${a.instance_id}`));
    assert.equal(afterApply.fields.title, proposedTitle);
    assert.equal((await ok(admin.manage("GET", `/entries/${a.instance_id}/versions`))).data.length, versionsBefore + 1, "a double click saves once");
    assert.equal((await ok(admin.manage("GET", `/proposals/${p1.id}`))).state, "applied");
    await page.getByText("Applied by").waitFor();
    assert.equal(await page.getByRole("button", { name: "Apply proposal" }).count(), 0, "a decided proposal offers no actions");

    // The stale one: what changed since is shown before applying, and the refusal is explained.
    await page.goto(`${admin.origin}/sites/${site.id}/review?proposal=${p2.id}`);
    // The entry's title is now the editor's.
    await page.getByRole("heading", { name: `Proposal for “${editorsTitle}”` }).waitFor();
    await page.getByText("The entry was saved after this proposal was made.").waitFor();
    const since = page.getByRole("table", { name: "The proposed fields: their values when the proposal was made and now" });
    assert.match(await since.innerText(), new RegExp(`${escape(b.label)}[\\s\\S]*${escape(editorsTitle)}`));
    await page.getByRole("button", { name: "Apply proposal" }).click();
    const stale = page.getByRole("alert").filter({ hasText: "This proposal can no longer be applied: the entry was saved after it was made." });
    await stale.waitFor();
    assert.match(await stale.innerText(), /ask Demo seed: management \(every scope\) for a new proposal/);
    assert.ok(await stale.getByRole("link", { name: "Open the entry" }).isVisible());
    await checkScreen(page, "review-proposal-stale");
    assert.equal((await ok(admin.manage("GET", `/entries/${b.instance_id}`))).fields.title, editorsTitle, "nothing written");
    assert.equal((await ok(admin.manage("GET", `/proposals/${p2.id}`))).state, "open");

    // Reject through the confirmation dialog (Cancel first: nothing happens).
    await page.goto(`${admin.origin}/sites/${site.id}/review?proposal=${p3.id}`);
    await page.getByRole("heading", { name: `Proposal for “${c.label}”` }).waitFor();
    await page.getByRole("button", { name: "Reject proposal" }).click();
    const dialog = page.getByRole("dialog", { name: "Reject this proposal?" });
    await dialog.waitFor();
    await checkScreen(page, "review-reject-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await ok(admin.manage("GET", `/proposals/${p3.id}`))).state, "open");
    await page.getByRole("button", { name: "Reject proposal" }).click();
    await dialog.getByRole("button", { name: "Reject" }).click();
    await page.getByText("Proposal rejected. The entry was left as it is.").waitFor();
    assert.equal((await ok(admin.manage("GET", `/proposals/${p3.id}`))).state, "rejected");
    assert.equal((await ok(admin.manage("GET", `/entries/${c.instance_id}`))).current_version_id, c.current_version_id, "the entry is left as is");

    // The filter: applied proposals list p1, open ones no longer do.
    await page.goto(`${admin.origin}/sites/${site.id}/review`);
    await page.getByRole("link", { name: `Review the proposal for ${editorsTitle}` }).waitFor();
    assert.equal(await page.getByRole("link", { name: `Review the proposal for ${a.label}` }).count(), 0);
    await page.getByLabel("Show").selectOption("applied");
    await page.getByRole("link", { name: `Review the proposal for ${proposedTitle}` }).waitFor();
    await context.close();
  });

  it("shows a model proposal's fields added, applies it, explains a stale one and dismisses it", async () => {
    const site = admin.info.sites.find((s) => s.slug === "demo");
    const { model } = await articleSetup();
    const current = await ok(admin.manage("GET", `/models/${model.id}`));
    const base = { mode: "update", model_id: model.id, base_updated_at: current.updated_at };
    const titleField = current.definition.fields.find((f) => f.key === "title");
    const add = await ok(
      admin.manage("POST", "/models/proposals", { ...base, definition: { model: current.definition.model, fields: [...current.definition.fields, { key: "reading_time", label: "Reading time", type: "integer" }] }, note: "Readers asked how long an article takes." }),
      201,
    );
    const relabel = await ok(
      admin.manage("POST", "/models/proposals", { ...base, definition: { model: current.definition.model, fields: current.definition.fields.map((f) => (f.key === "title" ? { ...f, label: "Headline" } : f)) } }),
      201,
    );

    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${site.id}/review`);
    await page.getByRole("tab", { name: "Model proposals" }).click();
    await page.getByRole("heading", { name: "Model proposals" }).waitFor();
    const rows = page.getByRole("row").filter({ hasText: `Change to “${current.name}”` });
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);
    assert.match(await rows.first().innerText(), /Management credential/);
    await checkScreen(page, "review-model-list");

    await page.goto(`${admin.origin}/sites/${site.id}/review?tab=models&model_proposal=${add.id}`);
    await page.getByRole("heading", { name: `Change to the model “${current.name}”` }).waitFor();
    const added = page.getByRole("listitem").filter({ hasText: "Reading time" });
    assert.match(await added.innerText(), /Reading time\s*\(Whole number, key reading_time\)/);
    await page.getByRole("heading", { name: "Fields added (1)" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: /Fields removed/ }).count(), 0);
    await checkScreen(page, "review-model-proposal");
    await page.getByRole("button", { name: "Apply model proposal" }).click();
    await page.getByText("Model proposal applied: the model now has the proposed definition.").waitFor();
    const applied = await ok(admin.manage("GET", `/models/${model.id}`));
    assert.ok(applied.definition.fields.some((f) => f.key === "reading_time" && f.type === "integer"));
    assert.equal((await ok(admin.manage("GET", `/models/proposals/${add.id}`))).state, "applied");

    // The other proposal was made on the model before that change: out of date.
    await page.goto(`${admin.origin}/sites/${site.id}/review?tab=models&model_proposal=${relabel.id}`);
    await page.getByText("The model changed after this proposal was made.").waitFor();
    const titleItem = page.getByRole("listitem").filter({ hasText: `(Text, key title)` });
    assert.match(await titleItem.innerText(), new RegExp(`Headline[\\s\\S]*Label: ${escape(titleField.label)} → Headline`));
    // Compared with the model as it is now, the field added since is one this proposal leaves out.
    await page.getByRole("heading", { name: "Fields removed (1)" }).waitFor();
    await page.getByRole("button", { name: "Apply model proposal" }).click();
    const stale = page.getByRole("alert").filter({ hasText: "This proposal can no longer be applied: the model changed after it was made." });
    await stale.waitFor();
    assert.match(await stale.innerText(), /Dismiss this proposal and ask Demo seed: management \(every scope\) for a new one/);
    await checkScreen(page, "review-model-proposal-stale");
    assert.equal((await ok(admin.manage("GET", `/models/${model.id}`))).definition.fields.find((f) => f.key === "title").label, titleField.label, "nothing written");

    await page.getByRole("button", { name: "Dismiss model proposal" }).click();
    await page.getByRole("dialog", { name: "Dismiss this model proposal?" }).getByRole("button", { name: "Dismiss" }).click();
    await page.getByText("Model proposal dismissed. The model was left as it is.").waitFor();
    assert.equal((await ok(admin.manage("GET", `/models/proposals/${relabel.id}`))).state, "dismissed");

    // A proposal that would break content: listed before applying, and the apply's refusal in words.
    const now = await ok(admin.manage("GET", `/models/${model.id}`));
    const drop = await ok(
      admin.manage("POST", "/models/proposals", { mode: "update", model_id: model.id, base_updated_at: now.updated_at, definition: { model: now.definition.model, fields: now.definition.fields.filter((f) => f.key !== "summary") } }),
      201,
    );
    assert.ok(drop.changes.some((c) => c.kind === "field_removed_with_values"), JSON.stringify(drop.changes));
    await page.goto(`${admin.origin}/sites/${site.id}/review?tab=models&model_proposal=${drop.id}`);
    await page.getByRole("heading", { name: "Changes that affect existing content" }).waitFor();
    await page.getByRole("heading", { name: "Fields removed (1)" }).waitFor();
    await page.getByRole("button", { name: "Apply model proposal" }).click();
    const blocked = page.getByRole("alert").filter({ hasText: "This change would break existing content, so it was not applied." });
    await blocked.waitFor();
    assert.match(await blocked.innerText(), /A removed field still holds values in entries — field Summary summary \(\d+ entries\)/);
    await checkScreen(page, "review-model-proposal-blocked");
    assert.ok((await ok(admin.manage("GET", `/models/${model.id}`))).definition.fields.some((f) => f.key === "summary"), "nothing written");
    assert.equal((await ok(admin.manage("GET", `/models/proposals/${drop.id}`))).state, "open", "the proposal stays open");
    await context.close();
  });

  it("tells a reviewer someone else decided first, and pages through many proposals", async () => {
    const site = admin.info.sites.find((s) => s.slug === "demo");
    const { entries } = await articleSetup(2);
    const target = entries[0];
    const stamp = Date.now().toString(36);
    const first = await propose(target, { summary: `Proposed summary ${stamp}` });

    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${site.id}/review?proposal=${first.id}`);
    await page.getByRole("button", { name: "Apply proposal" }).waitFor();
    // Another tab (another reviewer's click) rejects it first.
    const other = await context.newPage();
    await other.goto(`${admin.origin}/sites/${site.id}/review?proposal=${first.id}`);
    await other.getByRole("button", { name: "Reject proposal" }).click();
    await other.getByRole("dialog", { name: "Reject this proposal?" }).getByRole("button", { name: "Reject" }).click();
    await other.getByText("Proposal rejected. The entry was left as it is.").waitFor();
    await page.getByRole("button", { name: "Apply proposal" }).click();
    await page.getByText("This proposal was already rejected.").waitFor();
    await page.getByText("Rejected by").waitFor();
    assert.equal((await ok(admin.manage("GET", `/proposals/${first.id}`))).state, "rejected");

    // Hostile values and notes are shown as text, never run.
    const hostile = await propose(target, { summary: '<img src=x onerror="window.__pwned=1">Plain words' }, '<script>window.__pwned=2</script><b>bold?</b>');
    await page.goto(`${admin.origin}/sites/${site.id}/review?proposal=${hostile.id}`);
    await page.getByText("<script>window.__pwned=2</script><b>bold?</b>").waitFor();
    const hostileRow = page.getByRole("table", { name: "Proposed values against the version the proposal was made on" }).getByRole("row").filter({ hasText: "Plain words" });
    assert.match(await hostileRow.innerText(), /Plain words/);
    assert.doesNotMatch(await hostileRow.innerText(), /onerror/);
    assert.equal(await page.evaluate(() => globalThis.__pwned), undefined);
    assert.deepEqual(page.problems, []);

    // An entry put in the Trash after the proposal: said before applying, and the refusal in words.
    const binned = entries[1];
    const onBinned = await propose(binned, { summary: `Binned ${stamp}` });
    await ok(admin.manage("POST", `/entries/${binned.instance_id}/trash`, {}));
    await page.goto(`${admin.origin}/sites/${site.id}/review?proposal=${onBinned.id}`);
    await page.getByText("This entry is in the Trash.").waitFor();
    await page.getByRole("button", { name: "Apply proposal" }).click();
    await page.getByRole("alert").filter({ hasText: "This entry is in the Trash. Restore it before changing it." }).waitFor();
    assert.equal((await ok(admin.manage("GET", `/proposals/${onBinned.id}`))).state, "open");
    await ok(admin.manage("POST", `/entries/${binned.instance_id}/restore`, {}));

    // More than a page (20) of open proposals: "Show more" loads the next page by cursor.
    const fresh = await ok(admin.manage("GET", `/entries/${target.instance_id}`));
    for (let i = 0; i < 21; i++) await propose(fresh, { summary: `Batch ${stamp} ${i}` });
    const open = [];
    for (let cursor = null; ; ) {
      const page1 = await ok(admin.manage("GET", `/proposals?state=open&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
      open.push(...page1.data);
      if (!page1.page.has_more) break;
      cursor = page1.page.next_cursor;
    }
    await page.goto(`${admin.origin}/sites/${site.id}/review`);
    const reviewLinks = page.getByRole("link", { name: /^Review the proposal for / });
    await page.getByRole("button", { name: "Show more proposals" }).waitFor();
    assert.equal(await reviewLinks.count(), 20);
    await page.getByRole("button", { name: "Show more proposals" }).click();
    await page.waitForFunction((n) => document.querySelectorAll("a[aria-label^='Review the proposal for ']").length === n, Math.min(open.length, 40));
    assert.equal(await reviewLinks.count(), Math.min(open.length, 40));
    await context.close();
  });

  it("moderates readers' comments: a posted comment waits, is approved (served publicly) and deleted", async () => {
    const site = admin.info.sites.find((s) => s.slug === "demo");
    const { model } = await articleSetup();
    const published = (await admin.publicRead(`/v1/${model.slug}?limit=1`)).body.data[0];
    assert.ok(published, "the demo has a published item of that model");
    await ok(admin.manage("PUT", "/settings/comments", { enabled: true, model_ids: [model.id], moderation: "pending", difficulty: 8, max_length: 2000, per_hour: 10 }));
    // A reader's post: a challenge solved like the browser would (docs/comments.md, "Spam resistance").
    // The site host reads settings through its config cache (a few seconds): poll until comments are on there.
    // Until the challenge has this test's difficulty: another file of a shared batch may have turned
    // comments on before with other settings (admin-ui-lists), still in the cache for a few seconds.
    let issued;
    for (const started = Date.now(); !issued && Date.now() - started < 20_000; ) {
      const res = await admin.publicRead("/v1/_comments/challenge");
      if (res.status === 200 && res.body.data.difficulty === 8) issued = res.body.data;
    }
    assert.ok(issued, "the site host hands out comment challenges of the saved difficulty once comments are enabled");
    let nonce = 0;
    while (!leadingZeroBits(createHash("sha256").update(`${issued.challenge}:${nonce}`).digest(), issued.difficulty)) nonce++;
    const stamp = Date.now().toString(36);
    const author = `Reader ${stamp}`;
    const posted = await request(admin.port, { method: "POST", host: "demo.localhost", path: `/v1/${model.slug}/${published.slug}/comments`, body: { author_name: author, body: "Lovely piece.\nMore please.", challenge: issued.challenge, nonce: String(nonce) } });
    assert.equal(posted.status, 201, posted.text);

    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(`${admin.origin}/sites/${site.id}/comments`);
    await page.getByRole("heading", { name: "Comments", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: author });
    await row.waitFor();
    assert.match(await row.innerText(), /Lovely piece\.\s+More please\./);
    await checkScreen(page, "comments-pending");

    await page.getByRole("button", { name: `Approve the comment by ${author}` }).click();
    await page.getByRole("status").filter({ hasText: `The comment by ${author} was approved` }).waitFor();
    await row.waitFor({ state: "detached" });
    const served = (await admin.publicRead(`/v1/${model.slug}/${published.slug}/comments`)).body.data;
    assert.ok(served.some((c) => c.author_name === author), "the approved comment is served on the site host");

    await page.getByLabel("Show").selectOption("approved");
    await page.getByRole("row").filter({ hasText: author }).waitFor();
    await checkScreen(page, "comments-approved");
    await page.getByRole("button", { name: `Delete the comment by ${author}` }).click();
    await page.getByRole("status").filter({ hasText: `The comment by ${author} was deleted` }).waitFor();
    const left = (await ok(admin.manage("GET", "/comments?status=approved"))).data;
    assert.ok(!left.some((c) => c.author_name === author), "the comment is gone");
    await context.close();
  });
});

/** Whether a SHA-256 digest starts with `bits` zero bits. */
function leadingZeroBits(digest, bits) {
  let seen = 0;
  for (const byte of digest) {
    if (byte === 0) {
      seen += 8;
      if (seen >= bits) return true;
      continue;
    }
    return seen + Math.clz32(byte) - 24 >= bits;
  }
  return true;
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
