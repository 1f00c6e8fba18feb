/**
 * Admin UI in a real Chromium (issue #15 items 9 and 11): the demo admin invites an editor on the
 * People screen and reads the single-use link from it; a second person opens the link, sets a
 * name and password and lands signed in on the site, may do what an editor may and is refused the
 * rest (the People screen says so in words); the admin changes the member's role, deactivates
 * (the member's next request is refused: No access), reactivates and removes them; a pending
 * invitation is revoked; a used or revoked link shows the dead-link message. The admin's own
 * refusals (own_membership, last_administrator) are shown in words. axe and 360 px on People, the
 * invite dialog with the link, and the accept screen.
 * Run: node --test test/e2e/admin-ui-people.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8786;
const PASSWORD = "a long enough password";
const DEAD = "This invitation link is not valid any more — ask for a new one.";
let admin;

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

/** A session call from inside a signed-in page: the person's cookie, CSRF token and the site. */
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

/** Invites through the dialog and returns the link read from the screen (the dialog stays open). */
async function inviteThroughUi(page, email, roleName) {
  await page.getByRole("button", { name: "Invite a person" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a person" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption({ label: roleName });
  await dialog.getByRole("button", { name: "Create invitation link" }).click();
  const shown = page.getByRole("dialog", { name: "Send this invitation link" });
  const field = shown.getByLabel("Invitation link");
  await field.waitFor();
  assert.equal(await field.getAttribute("readonly"), "", "the link field is read-only");
  return { dialog: shown, link: await field.inputValue() };
}

/** The row of a member or an invitation, found by the text it shows. */
const rowOf = (page, text) => page.getByRole("row").filter({ hasText: text });

describe("admin UI: people and invitations", () => {
  it("invites an editor who accepts, works within the role, and is changed, deactivated, reactivated and removed", async () => {
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const peoplePath = `${admin.origin}/sites/${demo.id}/people`;
    const { context: adminContext, page } = await newPerson(admin);
    await adminContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: admin.origin });
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    await page.goto(peoplePath);
    await page.getByRole("heading", { name: /^Members/ }).waitFor();
    const me = rowOf(page, admin.info.admin.email);
    await me.getByRole("cell", { name: "Active", exact: true }).waitFor();
    await checkScreen(page, "people");
    const siteName = (await sessionCall(page, demo.id, "GET", "/api/session")).body.sites.find((s) => s.id === demo.id).name;

    // The admin's own refusals, in words (the service decides, the screen explains).
    await me.getByRole("button", { name: /^Deactivate/ }).click();
    const selfDialog = page.getByRole("dialog", { name: /^Deactivate/ });
    await selfDialog.getByText("sessions and management credentials", { exact: false }).waitFor();
    await selfDialog.getByRole("button", { name: "Deactivate" }).click();
    await selfDialog.getByRole("alert").filter({ hasText: "You cannot deactivate or remove yourself." }).waitFor();
    await selfDialog.getByRole("button", { name: "Cancel" }).click();
    await selfDialog.waitFor({ state: "hidden" });
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ""), /^Deactivate/, "focus goes back to the button that opened the dialog");
    // One editor per person (issue #30 item 14): the role as radio buttons and one Save role.
    await me.getByRole("button", { name: /^Edit/ }).click();
    // Role names matched exactly: other files of a shared batch add roles such as "Copy editor".
    const meEditor = page.getByRole("dialog").filter({ has: page.getByRole("radio", { name: "Editor", exact: true }) });
    await meEditor.getByRole("radio", { name: "Editor", exact: true }).check();
    await meEditor.getByRole("button", { name: "Save role" }).click();
    await meEditor.getByRole("alert").filter({ hasText: "without an active administrator" }).waitFor();
    await meEditor.getByRole("button", { name: "Close" }).click();
    const stillAdmin = await sessionCall(page, demo.id, "GET", "/api/people");
    assert.equal(stillAdmin.body.data.find((m) => m.email === admin.info.admin.email).role.slug, "admin");

    // Hostile input: not an email is refused with the field named.
    await page.getByRole("button", { name: "Invite a person" }).click();
    const bad = page.getByRole("dialog", { name: "Invite a person" });
    await bad.getByLabel("Email").fill("not an email");
    await bad.getByRole("button", { name: "Create invitation link" }).click();
    await bad.getByRole("alert").filter({ hasText: "Choose a role." }).waitFor();
    await bad.getByLabel("Role").selectOption({ label: "Editor" });
    await bad.getByRole("button", { name: "Create invitation link" }).click();
    await bad.getByRole("alert").first().waitFor();
    assert.equal(await bad.getByText("Choose a role.").count(), 0);
    assert.equal(await bad.getByLabel("Email").getAttribute("aria-invalid"), "true");
    await page.keyboard.press("Escape");
    await bad.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Invite a person");

    // Invite an editor; the link is shown once with the words about mail.
    const email = `editor-${Date.now().toString(36)}@example.test`;
    const invited = await inviteThroughUi(page, email, "Editor");
    assert.match(invited.link, new RegExp(`^${admin.origin.replace(/[.]/g, "\\.")}/invite#dwi_[A-Za-z0-9_-]{43}$`));
    await invited.dialog.getByText("No mail is sent by a local install: send this link to the person. It works once and expires on", { exact: false }).waitFor();
    await invited.dialog.getByRole("button", { name: "Copy link" }).click();
    await invited.dialog.getByRole("status").filter({ hasText: "The link is copied." }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), invited.link);
    await checkScreen(page, "people-invite-link");
    await invited.dialog.getByRole("button", { name: "Done" }).click();
    await rowOf(page, email).getByRole("cell", { name: "Editor", exact: true }).waitFor();

    // A second invitation, revoked: gone from the list and from the API, its link dead.
    const revokedEmail = `revoked-${Date.now().toString(36)}@example.test`;
    const second = await inviteThroughUi(page, revokedEmail, "Author");
    await second.dialog.getByRole("button", { name: "Done" }).click();
    await rowOf(page, revokedEmail).getByRole("button", { name: /^Revoke/ }).click();
    const revokeDialog = page.getByRole("dialog", { name: `Revoke the invitation of ${revokedEmail}?` });
    await revokeDialog.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("status").filter({ hasText: `The invitation of ${revokedEmail} is revoked.` }).waitFor();
    assert.equal(await rowOf(page, revokedEmail).count(), 0);
    // Of this file's two invitations, the revoked one is gone and the other stays (other files of a
    // shared batch may have invitations of their own pending: docs/testing.md).
    const pending = await sessionCall(page, demo.id, "GET", "/api/invitations");
    assert.deepEqual(pending.body.data.map((i) => i.email).filter((e) => e === email || e === revokedEmail), [email]);

    // The invitee opens the link in another browser: the token leaves the address bar at once.
    const { context: editorContext, page: editor } = await newPerson(admin);
    // DOMContentLoaded is enough: the next line waits for the screen itself (a slow subresource once held "load" past 30 s).
    await editor.goto(invited.link, { waitUntil: "domcontentloaded" });
    await editor.getByText(`You are invited to ${siteName} as Editor (${email}).`).waitFor();
    assert.ok(!editor.url().includes("dwi_"), `the token left the address bar: ${editor.url()}`);
    await checkScreen(editor, "accept-invitation");
    await editor.getByLabel("Your name").fill("Eddie Editor");
    await editor.getByLabel("New password").fill("too short");
    await editor.getByLabel("Confirm the password").fill("too short");
    await editor.getByRole("button", { name: "Create account and join" }).click();
    await editor.getByRole("alert").filter({ hasText: "At least 12 characters." }).waitFor();
    await editor.getByLabel("New password").fill(PASSWORD);
    await editor.getByLabel("Confirm the password").fill(`${PASSWORD}!`);
    await editor.getByRole("button", { name: "Create account and join" }).click();
    await editor.getByRole("alert").filter({ hasText: "The two passwords are not the same." }).waitFor();
    await editor.getByLabel("Confirm the password").fill(PASSWORD);
    await editor.getByRole("button", { name: "Create account and join" }).click();
    await editor.waitForURL(`**/sites/${demo.id}/content`);
    await editor.getByRole("button", { name: "Sign out" }).waitFor();
    await editor.getByText("Eddie Editor · Editor").waitFor();

    // What an editor may: create an entry through the session's management API …
    const models = await sessionCall(editor, demo.id, "GET", "/api/v1/models");
    const article = models.body.data.find((m) => m.slug === "article");
    const slug = `by-the-invited-editor-${Date.now().toString(36)}`;
    const created = await sessionCall(editor, demo.id, "POST", "/api/v1/entries", { model_id: article.id, slug, fields: { title: "Written by the invited editor" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const seen = await admin.manage("GET", `/entries/${created.body.instance_id}`);
    const editorId = (await sessionCall(editor, demo.id, "GET", "/api/session")).body.person.id;
    assert.equal(created.body.owner_id, editorId, "the entry belongs to the invited editor");
    assert.equal(seen.status, 200);
    // … and what it may not: roles, and the People screen, refused in words.
    const role = await sessionCall(editor, demo.id, "POST", "/api/v1/roles", { slug: "sneaky", name: "Sneaky", permissions: { models: {}, system: ["role:manage"] } });
    assert.equal(role.status, 403, JSON.stringify(role.body));
    await editor.getByRole("link", { name: "People" }).click();
    await editor.getByText("Your role does not allow managing people on this site.").waitFor();
    await checkScreen(editor, "people-refused");

    // The same link a second time: the dead-link message (so for the revoked one).
    const { context: thirdContext, page: third } = await newPerson(admin);
    for (const link of [invited.link, second.link]) {
      await third.goto("about:blank");
      await third.goto(link, { waitUntil: "domcontentloaded" });
      await third.getByRole("alert").filter({ hasText: DEAD }).waitFor();
      assert.ok(!third.url().includes("dwi_"));
    }
    await checkScreen(third, "accept-invitation-dead");
    await thirdContext.close();

    // The admin changes the new member's role.
    await page.reload();
    const row = rowOf(page, email);
    await row.getByRole("cell", { name: /^Eddie Editor/ }).waitFor();
    await row.getByRole("button", { name: "Edit Eddie Editor" }).click();
    const eddie = page.getByRole("dialog", { name: "Eddie Editor" });
    await eddie.getByRole("radio", { name: "Author", exact: true }).check();
    await eddie.getByRole("button", { name: "Save role" }).click();
    await page.getByRole("status").filter({ hasText: "Eddie Editor is now Author." }).waitFor();
    let listed = await sessionCall(page, demo.id, "GET", "/api/people");
    assert.equal(listed.body.data.find((m) => m.email === email).role.slug, "author");

    // Deactivation: the dialog says what follows; the member's next request is refused.
    await row.getByRole("button", { name: "Deactivate Eddie Editor" }).click();
    const deactivate = page.getByRole("dialog", { name: "Deactivate Eddie Editor?" });
    await deactivate.getByText(`Their sessions and management credentials on ${siteName} stop working at once`, { exact: false }).waitFor();
    await deactivate.getByRole("button", { name: "Deactivate" }).click();
    await row.getByRole("cell", { name: "Deactivated", exact: true }).waitFor();
    listed = await sessionCall(page, demo.id, "GET", "/api/people");
    assert.equal(listed.body.data.find((m) => m.email === email).state, "deactivated");
    await editor.goto(`${admin.origin}/sites/${demo.id}/content`);
    await editor.getByRole("heading", { name: "No access" }).waitFor();
    const refused = await sessionCall(editor, demo.id, "GET", "/api/v1/models");
    assert.equal(refused.status, 403);

    // Reactivation: the member works again at the next request.
    await row.getByRole("button", { name: "Reactivate Eddie Editor" }).click();
    await page.getByRole("dialog", { name: "Reactivate Eddie Editor?" }).getByRole("button", { name: "Reactivate" }).click();
    await row.getByRole("cell", { name: "Active", exact: true }).waitFor();
    await editor.reload();
    await editor.getByText("Eddie Editor · Author").waitFor();
    assert.equal((await sessionCall(editor, demo.id, "GET", "/api/v1/models")).status, 200);

    // Removal: the dialog says credentials are revoked; the row goes, the member is refused.
    await row.getByRole("button", { name: "Remove Eddie Editor" }).click();
    const remove = page.getByRole("dialog", { name: `Remove Eddie Editor from ${siteName}?` });
    await remove.getByText("management credentials and connections", { exact: false }).waitFor();
    await remove.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("status").filter({ hasText: "Eddie Editor is removed from this site." }).waitFor();
    assert.equal(await rowOf(page, email).count(), 0);
    listed = await sessionCall(page, demo.id, "GET", "/api/people");
    assert.ok(!listed.body.data.some((m) => m.email === email));
    await editor.reload();
    await editor.getByRole("heading", { name: "No access" }).waitFor();

    // Inviting a member again is refused in words; inviting the removed person (whose account
    // stays) asks for that account's password instead of a new one.
    await page.getByRole("button", { name: "Invite a person" }).click();
    const again = page.getByRole("dialog", { name: "Invite a person" });
    await again.getByLabel("Email").fill(admin.info.admin.email);
    await again.getByLabel("Role").selectOption({ label: "Viewer" });
    await again.getByRole("button", { name: "Create invitation link" }).click();
    await again.getByRole("alert").filter({ hasText: "This person is already a member of this site." }).waitFor();
    await again.getByRole("button", { name: "Cancel" }).click();
    const back = await inviteThroughUi(page, email, "Viewer");
    await back.dialog.getByRole("button", { name: "Done" }).click();
    await editor.goto(back.link, { waitUntil: "domcontentloaded" });
    await editor.getByText(`You are invited to ${siteName} as Viewer (${email}).`).waitFor();
    await editor.getByText("An account with this email exists already.", { exact: false }).waitFor();
    assert.equal(await editor.getByLabel("Your name").count(), 0, "no new account is asked for");
    await editor.getByLabel("Password").fill("not the password at all");
    await editor.getByRole("button", { name: "Join the site" }).click();
    await editor.getByRole("alert").filter({ hasText: "The password is not right for this account." }).waitFor();
    await editor.getByLabel("Password").fill(PASSWORD);
    await editor.getByRole("button", { name: "Join the site" }).click();
    await editor.waitForURL(`**/sites/${demo.id}/content`);
    await editor.getByText("Eddie Editor · Viewer").waitFor();

    assert.deepEqual(page.problems, []);
    assert.deepEqual(editor.problems, []);
    await editorContext.close();
    await adminContext.close();
  });
});
