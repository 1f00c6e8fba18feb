/**
 * Admin UI II, editor items 13–15 in a real Chromium (issue #30; docs/admin-ui-people.md,
 * docs/admin-ui-media.md, docs/admin-ui-lifecycle.md): the People list picks up an accepted
 * invitation on focus; a member's role is changed in the person's one editor; an administrator
 * creates a one-time password reset link, the member uses it (their old session ends) and lands
 * signed in; on Your account the member ends another of their sessions; two files are ticked and
 * moved at once; a crop is saved on an image; "View on site" shows the published language's
 * address from the model's site_path (a model of the file's own, so the seeded article's address,
 * which other files read, stays as seeded). Results are checked through the API; axe and 360 px on the
 * new screens. One server, one browser. Run: node --test test/e2e/admin-ui-account.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";
import { png } from "./admin-ui/png.mjs";

const PORT = 8841;
const NEW_PASSWORD = "a fresh and long passphrase";
let admin;

/** An admin JSON call from inside a signed-in page: the person's cookie, CSRF token and the site. */
function sessionCall(page, site, method, path, body) {
  return page.evaluate(
    async ({ site, method, path, body }) => {
      const who = await fetch("/api/session").then((r) => (r.ok ? r.json() : null));
      const headers = { accept: "application/json", "x-site-id": site };
      if (method !== "GET") Object.assign(headers, { "x-csrf-token": who?.csrf_token ?? "", "idempotency-key": `e2e-${crypto.randomUUID()}`, "content-type": "application/json" });
      const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { site, method, path, body },
  );
}

/** A plain JSON call from a page (its own cookies): the browser resolves *.localhost, Node in the test's namespace does not. */
function pageFetch(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return res.status;
    },
    { method, path, body },
  );
}

const rowOf = (page, text) => page.getByRole("row").filter({ hasText: text });

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

describe("admin UI II: people and sign-in, media details, publishing details", () => {
  it("role in one editor, reset link used to sign in, a session ended, two files moved, a crop saved, View on site", async () => {
    const started = Date.now();
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const { context: adminContext, page } = await newPerson(admin);
    await adminContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: admin.origin });
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);

    // An invitee accepts while People is open: the list shows them when the window regains focus.
    await page.goto(`${admin.origin}/sites/${demo.id}/people`);
    await page.getByRole("heading", { name: /^Members/ }).waitFor();
    const roles = (await admin.manage("GET", "/roles")).body.data;
    const editorRole = roles.find((r) => r.slug === "editor");
    const email = `rita-${Date.now()}@example.test`;
    const invited = await sessionCall(page, demo.id, "POST", "/api/invitations", { email, role_id: editorRole.id });
    assert.equal(invited.status, 201);
    const { context: first, page: firstPage } = await newPerson(admin);
    await firstPage.goto(`${admin.origin}/sign-in`);
    assert.equal(await pageFetch(firstPage, "POST", "/api/invitations/accept", { token: invited.body.link.split("#")[1], name: "Rita Reset", password: "the first long password" }), 200);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    const row = rowOf(page, email);
    await row.getByRole("cell", { name: /^Rita Reset/ }).waitFor();

    // One editor per person: the role as radio buttons and one Save.
    await row.getByRole("button", { name: "Edit Rita Reset" }).click();
    let editor = page.getByRole("dialog", { name: "Rita Reset" });
    await editor.getByText(email).waitFor();
    await editor.getByRole("radio", { name: "Author", exact: true }).check();
    await editor.getByRole("button", { name: "Save role" }).click();
    await page.getByRole("status").filter({ hasText: "Rita Reset is now Author." }).waitFor();
    const people = await sessionCall(page, demo.id, "GET", "/api/people");
    const rita = people.body.data.find((m) => m.email === email);
    assert.equal(rita.role.slug, "author");

    // A one-time password reset link, shown once with Copy.
    await row.getByRole("button", { name: "Edit Rita Reset" }).click();
    editor = page.getByRole("dialog", { name: "Rita Reset" });
    await editor.getByRole("button", { name: "Create a password reset link" }).click();
    const field = editor.getByLabel("Password reset link");
    await field.waitFor();
    const link = await field.inputValue();
    assert.match(link, new RegExp(`^${admin.origin}/reset-password#dwpw_[A-Za-z0-9_-]{43}$`));
    await editor.getByRole("button", { name: "Copy link" }).click();
    await editor.getByRole("status").filter({ hasText: "The link is copied." }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await checkScreen(page, "people-person-editor");
    await editor.getByRole("button", { name: "Close" }).click();

    // The member opens the link: the token leaves the address bar; a new password signs them in.
    const { context: second, page: reset } = await newPerson(admin);
    await reset.goto(link);
    await reset.getByText("A new password for").waitFor();
    assert.equal(new URL(reset.url()).hash, "", "the token is removed from the address bar");
    await checkScreen(reset, "reset-password");
    await reset.getByLabel("New password").fill(NEW_PASSWORD);
    await reset.getByLabel("Confirm the password").fill(NEW_PASSWORD);
    await reset.getByRole("button", { name: "Set password and sign in" }).click();
    await reset.getByRole("button", { name: "Sign out" }).waitFor();
    // Every earlier session of the member ended; the old password no longer signs in.
    assert.equal(await pageFetch(firstPage, "GET", "/api/session"), 401);
    assert.equal(await pageFetch(firstPage, "POST", "/api/session", { email, password: "the first long password" }), 401);
    // The same link is dead now.
    const { context: third, page: dead } = await newPerson(admin);
    await dead.goto(link);
    await dead.getByText("This password reset link is not valid any more").waitFor();
    await third.close();

    // Sessions: signed in in another browser too, the member ends that session from Your account.
    const { context: fourth, page: other } = await newPerson(admin);
    await signInAs(other, admin.origin, email, NEW_PASSWORD);
    await reset.goto(`${admin.origin}/sites/${demo.id}/content`);
    await reset.getByRole("link", { name: /^Your account/ }).click();
    await reset.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
    const sessions = reset.getByRole("table");
    await sessions.getByText("This session").waitFor();
    assert.equal(await sessions.getByRole("row").count(), 3, "a header row and two sessions");
    await checkScreen(reset, "account-sessions");
    await reset.getByRole("button", { name: /^End session/ }).click();
    await reset.getByRole("status").filter({ hasText: "is ended." }).waitFor();
    assert.equal(await pageFetch(other, "GET", "/api/session"), 401, "the ended session is refused");
    assert.equal(await pageFetch(reset, "GET", "/api/session"), 200, "this session lives on");
    await fourth.close();
    await second.close();
    await first.close();

    // Media: two files ticked in the grid and moved at once.
    const folder = await admin.manage("POST", "/media/folders", { name: `A folder whose long name must wrap in the narrow list ${Date.now()}` });
    assert.equal(folder.status, 201);
    const folderId = folder.body.folder?.id ?? folder.body.id;
    const stamp = Date.now();
    // The two files come through the management API (uploading is the media test's subject).
    for (const [name, tint] of [[`left-${stamp}.png`, stamp % 200], [`right-${stamp}.png`, (stamp + 97) % 200]]) {
      const up = await page.evaluate(
        async ({ site, name, bytes }) => {
          const who = await fetch("/api/session").then((r) => r.json());
          const form = new FormData();
          form.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
          const res = await fetch("/api/v1/media", { method: "POST", headers: { "x-site-id": site, "x-csrf-token": who.csrf_token, "idempotency-key": crypto.randomUUID() }, body: form });
          return res.status;
        },
        { site: demo.id, name, bytes: [...png(40, 30, tint)] },
      );
      assert.equal(up, 201, `upload of ${name}`);
    }
    // Through the top bar (the page keeps its session and loaded code), as a person goes there.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor({ timeout: 60000 });
    const grid = page.getByRole("list", { name: "Files" });
    await grid.getByRole("button", { name: new RegExp(`right-${stamp}`) }).waitFor();
    await grid.getByRole("checkbox", { name: `Select left-${stamp}.png` }).check();
    await grid.getByRole("checkbox", { name: `Select right-${stamp}.png` }).check();
    const selection = page.getByRole("region", { name: "Selected files" });
    await selection.getByText("2 files selected").waitFor();
    await selection.getByLabel("Move selected files to").selectOption(folderId);
    await selection.getByRole("button", { name: "Move 2 files" }).click();
    await page.getByRole("status").filter({ hasText: "2 files moved to" }).waitFor();
    const inFolder = await admin.manage("GET", `/media?folder_id=${folderId}`);
    assert.deepEqual(inFolder.body.data.map((m) => m.file_name).sort(), [`left-${stamp}.png`, `right-${stamp}.png`]);

    // A crop saved with the details.
    await grid.getByRole("button", { name: new RegExp(`left-${stamp}`) }).click();
    const details = page.getByRole("region", { name: `left-${stamp}.png` });
    await details.getByRole("slider", { name: "Focal point" }).waitFor();
    await details.getByLabel("Crop left edge (%)").fill("10");
    await details.getByLabel("Crop top edge (%)").fill("20");
    await details.getByLabel("Crop width (%)").fill("50");
    await details.getByLabel("Crop height (%)").fill("60");
    await checkScreen(page, "media-crop-selection");
    await details.getByRole("button", { name: "Save changes" }).click();
    await details.getByText("No unsaved changes.").waitFor();
    const left = inFolder.body.data.find((m) => m.file_name === `left-${stamp}.png`);
    const cropped = await admin.manage("GET", `/media/${left.id}`);
    assert.deepEqual(cropped.body.media.crop, { x: 0.1, y: 0.2, width: 0.5, height: 0.6 });

    // View on site: the published language's address from the model's site_path. A model of this
    // file's own, with one published entry, then given its site_path: the seeded article's public
    // address is read by other files of a shared batch (docs/testing.md).
    const made = await admin.manage("POST", "/models", {
      definition: { model: { name: `Harbour notice ${stamp}`, slug: `harbour-notice-${stamp}` }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const notice = await admin.manage("POST", "/entries", { model_id: made.body.model_id, slug: `tide-times-${stamp}`, fields: { title: "Tide times this week" } });
    assert.equal(notice.status, 201, JSON.stringify(notice.body));
    const publishedNow = await admin.manage("POST", `/entries/${notice.body.instance_id}/publish`, {});
    assert.equal(publishedNow.status, 200, JSON.stringify(publishedNow.body));
    const full = await admin.manage("GET", `/models/${made.body.model_id}`);
    const patched = await admin.manage("PUT", `/models/${made.body.model_id}`, { expected_revision: full.body.revision, model: { settings: { site_path: "/{lang}/blog/{slug}" } } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const published = (await admin.manage("GET", `/entries?model_id=${made.body.model_id}&state=published`)).body.data.find((e) => e.slug);
    await page.goto(`${admin.origin}/sites/${demo.id}/entries/${published.instance_id}?lang=${published.lang}`);
    const view = page.getByRole("link", { name: /^View on site/ });
    await view.waitFor();
    assert.equal(await view.getAttribute("href"), `http://demo.localhost:${admin.port}/${published.lang}/blog/${published.slug}`);
    assert.equal(await view.getAttribute("target"), "_blank");
    await checkScreen(page, "entry-view-on-site");
    await adminContext.close();
    console.log(`admin-ui-account: ${Math.round((Date.now() - started) / 1000)} s in the browser`);
  });
});
