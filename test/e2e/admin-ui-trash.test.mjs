/**
 * The admin's Trash screen in a real Chromium (issue #27 "Done when": "the admin has … the Trash
 * screen"; docs/admin-ui-trash.md): Trash across models with when each item is deleted for good and
 * who trashed it; Restore shows what the restore meets first; Delete permanently; Restore selected
 * through the bulk route; axe and 360 px. One server, one browser, one person.
 * Run: npm run test:e2e -- test/e2e/admin-ui-trash.test.mjs (inside `unshare -n`)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8799;
const stamp = Date.now().toString(36);
let admin;
let demo;
const made = {};

/**
 * A set-up write that survives the local runtime restarting mid-request under load (its answer is
 * then not JSON): the state is read back and the write sent again only when it did not happen.
 */
async function settle(write, done) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof SyntaxError) || attempt >= 2) throw error;
      const already = await done().catch(() => null);
      if (already) return already;
    }
  }
}

before(async () => {
  admin = await startAdmin({ port: PORT });
  demo = admin.info.sites.find((s) => s.slug === "demo");
  const model = (await admin.manage("GET", "/models")).body.data.find((m) => m.slug === "article");
  for (const name of ["back", "gone", "bulk-a", "bulk-b"]) {
    const slug = `trash-${name}-${stamp}`;
    const created = await settle(
      () => admin.manage("POST", "/entries", { model_id: model.id, lang: "en", slug, fields: { title: `Trash ${name} ${stamp}` } }),
      async () => {
        const found = (await admin.manage("GET", `/entries?model_id=${model.id}&lang=en&slug=${slug}`)).body.data[0];
        return found ? { status: 201, body: found } : null;
      },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const trashed = await settle(
      () => admin.manage("POST", `/entries/${created.body.instance_id}/trash`, {}),
      async () => ((await admin.manage("GET", `/entries/${created.body.instance_id}`)).body.trashed_at ? { status: 200 } : null),
    );
    assert.equal(trashed.status, 200);
    made[name] = created.body;
  }
});
after(async () => {
  await admin?.close();
});

describe("admin UI: the Trash screen", () => {
  it("lists Trash with purge dates; restores one after its check, deletes one for good, restores two at once", async () => {
    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    // From Content, its Trash link.
    await page.goto(`${admin.origin}/sites/${demo.id}/content`);
    await page.getByRole("main").getByRole("link", { name: "Trash", exact: true }).click();
    await page.waitForURL(`**/sites/${demo.id}/trash`);
    await page.getByRole("heading", { name: "Trash", exact: true }).waitFor();
    const row = (name) => page.getByRole("row").filter({ hasText: `Trash ${name} ${stamp}` });
    await row("back").waitFor();
    await page.getByText("deleted for good 30 days after they were moved here").waitFor();
    // Trashed by the seed's management token, on the admin's behalf; the purge date 30 days on.
    const trashedAt = Date.parse(await row("back").locator("td[data-label='Trashed'] time").getAttribute("datetime"));
    const purgeAt = Date.parse(await row("back").locator("td[data-label='Deleted for good'] time").getAttribute("datetime"));
    assert.equal(purgeAt - trashedAt, 30 * 24 * 60 * 60 * 1000);
    await row("back").getByRole("cell", { name: /through an API credential/ }).waitFor();
    await checkScreen(page, "trash");

    // Restore: the check comes first, then the restore.
    await row("back").getByRole("button", { name: new RegExp(`^Restore Trash back ${stamp} \\(`) }).click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByText("Nothing stands in the way")
      .waitFor()
      .catch(async (error) => assert.fail(`${error.message}\nThe dialog said instead: ${await dialog.innerText({ timeout: 1000 }).catch(() => "(no dialog)")}`));
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await page.getByRole("status").filter({ hasText: `Restored “Trash back ${stamp} (` }).waitFor();
    await row("back").waitFor({ state: "detached" });

    // Delete permanently: asked first, Cancel focused.
    await row("gone").getByRole("button", { name: new RegExp(`^Delete permanently Trash gone ${stamp} \\(`) }).click();
    await dialog.getByRole("button", { name: "Delete permanently" }).click();
    await page.getByRole("status").filter({ hasText: `Deleted “Trash gone ${stamp} (` }).waitFor();
    assert.equal((await admin.manage("GET", `/entries/${made.gone.instance_id}`)).status, 404);

    // Restore selected: the bulk route, each result in words.
    await page.getByRole("checkbox", { name: new RegExp(`^Select Trash bulk-a ${stamp} \\(`) }).check();
    await page.getByRole("checkbox", { name: new RegExp(`^Select Trash bulk-b ${stamp} \\(`) }).check();
    await page.getByRole("button", { name: "Restore selected…" }).click();
    await dialog.getByRole("button", { name: "Restore 2" }).click();
    await page.getByRole("status").filter({ hasText: "2 of 2 restored." }).waitFor();
    for (const name of ["back", "bulk-a", "bulk-b"]) {
      const entry = await admin.manage("GET", `/entries/${made[name].instance_id}`);
      assert.equal(entry.body.trashed_at, null, `${name} is back`);
    }
    assert.deepEqual(page.problems, []);
    await context.close();
  });
});
