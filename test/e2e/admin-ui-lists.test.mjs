/**
 * The entry list and the settings leftovers in a real Chromium (issue #30 items 3 and 10,
 * docs/admin-ui-lists.md), one server and one browser, the screens in sequence: the entry list
 * sorted by the service through its column headers (aria-sort), with an "Updated by" column naming
 * the credential that wrote the entries; Settings › Comments (a refusal in words, then saved);
 * Settings › Member-only paths (a rule refused in words, then saved). axe and 360 px on each
 * screen (checkScreen).
 * Run: unshare -n bash -c 'ip link set lo up && npm run test:e2e -- test/e2e/admin-ui-lists.test.mjs'
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { root } from "../../scripts/lib/load-ts.mjs";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const ARTIFACTS = path.join(root, "test", "artifacts", "admin-ui");
const PORT = 8852;
const MARK = "sortcheck";
const TITLES = [`Zebra ${MARK}`, `apple ${MARK}`, `Mango ${MARK}`];
let admin;

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

const sections = (page) => page.getByRole("navigation", { name: "Settings sections" });
const status = (page, text) => page.getByRole("status").filter({ hasText: text }).first().waitFor();
const alert = (page, text) => page.getByRole("alert").filter({ hasText: text }).first().waitFor();

/** Polls until the list's titles are `expected`, in that order. */
async function titlesAre(page, expected) {
  await page.waitForFunction((want) => {
    const got = [...document.querySelectorAll("table.entries tbody td[data-label='Title'] a")].map((a) => a.textContent);
    return got.length === want.length && got.every((t, i) => t === want[i]);
  }, expected);
}

describe("admin UI: entry list sort and settings sections", () => {
  it("sorts on the service by column, names who updated, and saves comment settings and member-only paths", { timeout: 420_000 }, async () => {
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const models = await admin.manage("GET", "/models");
    const article = models.body.data.find((m) => m.slug === "article");
    assert.ok(article, "the demo has an Article model");
    // Three entries written by the seed's management credential (so "Updated by" names it).
    for (const [index, text] of TITLES.entries()) {
      const made = await admin.manage("POST", "/entries", { model_id: article.id, slug: `${MARK}-${index}`, lang: "en", fields: { title: text } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
    }
    const { context, page } = await newPerson(admin);
    // Polls, not sleeps: generous limits for a shared 2-core machine (as admin-ui-editor-day does).
    page.setDefaultTimeout(90_000);
    page.setDefaultNavigationTimeout(90_000);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    try {
      await lists(page, demo, article);
      await commentSettings(page, demo, article);
      await accessRules(page);
    } catch (error) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, "lists-failure.png") }).catch(() => {});
      if (page.problems.length > 0) error.message += `\npage problems: ${page.problems.join("; ")}`;
      throw error;
    }
    await context.close();
  });
});

/** The entry list: newest first, then by title both ways (the service's order), Updated by. */
async function lists(page, demo, article) {
  // The list filtered to this test's entries (the filter lives in the address).
  await page.goto(`${admin.origin}/sites/${demo.id}/content/${article.id}?q=${MARK}`);
  await titlesAre(page, [...TITLES].reverse());
  const header = (name) => page.getByRole("columnheader", { name: new RegExp(`^${name}`) });
  assert.equal(await header("Title").getAttribute("aria-sort"), "none");

  await page.getByRole("link", { name: "Title: sort ascending" }).click();
  await titlesAre(page, [`apple ${MARK}`, `Mango ${MARK}`, `Zebra ${MARK}`]);
  assert.equal(await header("Title").getAttribute("aria-sort"), "ascending");
  assert.match(page.url(), /sort=title/);
  await page.getByRole("link", { name: "Title: sort descending" }).click();
  await titlesAre(page, [`Zebra ${MARK}`, `Mango ${MARK}`, `apple ${MARK}`]);
  assert.equal(await header("Title").getAttribute("aria-sort"), "descending");

  // Who wrote the current drafts: the seed's credential, by its name.
  const updatedBy = await page.locator("table.entries tbody td[data-label='Updated by']").allTextContents();
  assert.deepEqual(updatedBy, Array(3).fill("Demo seed: management (every scope) (credential)"));
  // "Updated by" sorts like the other columns (by the writer's name; ties by id, all three the same writer here).
  await page.getByRole("link", { name: "Updated by: sort ascending" }).click();
  await page.waitForURL(/sort=updated_by/);
  // The service's answer is in: the list says so in its live region (polled, no sleep).
  await page.waitForFunction(() => document.querySelector(".list-status")?.textContent === "3 entries shown.");
  assert.equal(await header("Updated by").getAttribute("aria-sort"), "ascending");
  assert.equal(await header("Title").getAttribute("aria-sort"), "none");
  assert.ok(await header("Owner").count(), "an Owner column");
  await checkScreen(page, "content-list-sorted");
}

/** Settings › Comments: out-of-bounds difficulty refused in words, then saved and read back. */
async function commentSettings(page, demo, article) {
  await page.goto(`${admin.origin}/sites/${demo.id}/settings`);
  await sections(page).getByRole("link", { name: "Comments" }).click();
  await page.getByRole("heading", { name: "Reader comments" }).waitFor();
  await page.getByLabel("Readers may post comments").check();
  await page.getByRole("group", { name: "Models whose published entries take comments" }).getByLabel("Article", { exact: true }).check();
  await page.getByLabel("Proof-of-work difficulty").fill("30");
  await page.getByRole("button", { name: "Save comment settings" }).click();
  await alert(page, "Some values are not valid for this site.");
  assert.match(await page.getByRole("alert").first().textContent(), /difficulty/);
  await page.getByLabel("Proof-of-work difficulty").fill("16");
  await page.getByLabel("A new comment starts").selectOption("approved");
  await page.getByRole("button", { name: "Save comment settings" }).click();
  await status(page, "Comment settings saved.");
  const saved = await admin.manage("GET", "/settings/comments");
  assert.equal(saved.status, 200);
  assert.deepEqual(
    { enabled: saved.body.comments.enabled, models: saved.body.comments.model_ids, difficulty: saved.body.comments.difficulty, moderation: saved.body.comments.moderation },
    { enabled: true, models: [article.id], difficulty: 16, moderation: "approved" },
  );
  await checkScreen(page, "settings-comments");
}

/** Settings › Member-only paths: a path without its slash refused in words, then a rule saved. */
async function accessRules(page) {
  await sections(page).getByRole("link", { name: "Member-only paths" }).click();
  await page.getByText("No member-only paths").waitFor();
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByLabel("Path prefix of rule 1").fill("members");
  await page.getByRole("group", { name: "Roles let through by rule 1" }).getByLabel("Editor", { exact: true }).check();
  await page.getByRole("button", { name: "Save member-only paths" }).click();
  await alert(page, "Some values are not valid for this site.");
  assert.match(await page.getByRole("alert").first().textContent(), /starting with \//);
  await page.getByLabel("Path prefix of rule 1").fill("/members/");
  await page.getByRole("button", { name: "Save member-only paths" }).click();
  await status(page, "Member-only paths saved (1 rule).");
  const saved = await admin.manage("GET", "/settings/access-rules");
  assert.deepEqual(saved.body.rules.map((r) => [r.path_prefix, r.roles.map((x) => x.slug)]), [["/members/", ["editor"]]]);
  await checkScreen(page, "settings-access-rules");
}
