/**
 * Admin UI in a real Chromium (issue #30 items 1 and 2, docs/admin-ui-models.md): the demo admin
 * builds a model with several field types, validation with a live example and a condition, moves a
 * field by keyboard, creates it through the changes preview; with content in it, removing a field
 * shows the blocked change (affected count, suggestion) before anything is written, "Propose
 * instead" records it as a model proposal, and a safe change saves. Then a role is made in the
 * matrix, given to a member (a person this file invites: the seeded demo editor's rights are read
 * by other files of a shared batch), and its deletion is refused in words; the member sees the
 * ceiling explained. axe and 360 px on each screen.
 * Run: node --test test/e2e/admin-ui-models.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";

const PORT = 8793;
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

/** Adds a field through "Add a field" and fills its label (the key follows) and type. */
async function addField(page, label, type) {
  await page.getByRole("button", { name: "Add a field" }).click();
  await page.getByLabel("Label", { exact: true }).fill(label);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: type });
}

describe("admin UI: model builder and roles", () => {
  it("builds a model, previews a blocked change, saves; makes a role; shows deletion and ceiling refusals", async () => {
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const { page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);

    // The models list, then a new model.
    await page.goto(`${admin.origin}/sites/${demo.id}/settings/models`);
    await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Article" }).first().waitFor();
    await checkScreen(page, "models");
    await page.getByRole("link", { name: "New model" }).click();
    await page.getByRole("heading", { name: "New model", level: 1 }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Event");
    assert.equal(await page.getByLabel("Slug (API address)").inputValue(), "event", "the slug follows the name");
    await page.getByLabel("Display folder").fill("Programme");

    // A text title with validation rules tried live.
    await addField(page, "Title", "Text (one line)");
    assert.equal(await page.getByLabel("Key", { exact: true }).inputValue(), "title");
    await page.getByRole("checkbox", { name: /^Required/ }).check();
    await page.getByLabel("Fewest characters").fill("3");
    await page.getByLabel("Try an example value").fill("ab");
    await page.getByText("“ab” is refused: too short: 2 characters, at least 3.").waitFor();
    await page.getByLabel("Try an example value").fill("Harbour talk");
    await page.getByText("“Harbour talk” is accepted.").waitFor();

    // A choice list, and a number shown only when the choice is "Workshop" (the AND/OR builder).
    await addField(page, "Format", "Choice from a list");
    await page.getByRole("button", { name: "Add a choice" }).click();
    await page.getByLabel("Choice 1 label").fill("Talk");
    await page.getByRole("button", { name: "Add a choice" }).click();
    await page.getByLabel("Choice 2 label").fill("Workshop");
    await addField(page, "Seats", "Whole number");
    await page.getByLabel("Show this field").selectOption({ label: "When all of these hold (AND)" });
    await page.getByLabel("Field of condition 1").selectOption({ label: "Format" });
    assert.equal(await page.getByLabel("Test of condition 1").inputValue(), "in");
    const values = page.getByRole("group", { name: "Value of condition 1" });
    await values.getByRole("checkbox", { name: "Workshop" }).check();
    await values.getByRole("checkbox", { name: "Talk" }).uncheck();
    await checkScreen(page, "model-builder-new");

    // Reorder by keyboard: Seats moves above Format, and the move is announced.
    await page.getByRole("button", { name: "Move Seats up" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Moved Seats to position 2 of 3.").waitFor();
    const order = await page.getByRole("list", { name: "Fields in order" }).getByRole("listitem").evaluateAll((items) => items.map((li) => li.querySelector("strong")?.textContent));
    assert.deepEqual(order, ["Title", "Seats", "Format"]);

    // Create through the preview.
    await page.getByRole("button", { name: "Review and save" }).click();
    const preview = page.getByRole("dialog", { name: "Changes before saving" });
    await preview.getByText("A new model with 3 fields.", { exact: false }).waitFor();
    await preview.getByRole("button", { name: "Create the model" }).click();
    // The builder moves to the new model's address, or says why not.
    await page.getByRole("heading", { name: "Model: Event", level: 1 }).or(page.locator(".notice-error")).first().waitFor();
    assert.equal(await page.locator(".notice-error").count(), 0, await page.locator(".notice-error").allTextContents().then((t) => t.join(" | ")));
    await page.getByText("Created Event.").first().waitFor();
    const models = await admin.manage("GET", "/models");
    const event = models.body.data.find((m) => m.slug === "event");
    assert.ok(event, "the model exists");
    assert.equal(event.folder, "Programme");
    assert.deepEqual(event.definition.fields.map((f) => f.key), ["title", "seats", "format"]);
    assert.deepEqual(event.definition.fields.find((f) => f.key === "seats").condition, { all: [{ field: "format", op: "in", value: ["workshop"] }] });
    assert.deepEqual(event.definition.fields.find((f) => f.key === "title").validation, { min_length: 3 });

    // Content in the model: removing the title is blocked, shown before anything is written.
    const entry = await admin.manage("POST", "/entries", { model_id: event.id, fields: { title: "Harbour talk", format: "talk" } });
    assert.equal(entry.status, 201, JSON.stringify(entry.body));
    await page.getByRole("button", { name: "Remove Title" }).click();
    await page.getByRole("button", { name: "Review and save" }).click();
    await preview.getByRole("heading", { name: "Blocked by existing content" }).waitFor();
    await preview.getByText("Removing a field that holds values — “title”").waitFor();
    await preview.getByText("Affected: 1 entry.", { exact: false }).waitFor();
    await preview.getByText("What to do:", { exact: false }).waitFor();
    assert.equal(await preview.getByRole("button", { name: "Save the model" }).isDisabled(), true, "a blocked change cannot be saved");
    await checkScreen(page, "model-changes-preview");
    // "Propose instead" records the change for review, blocked changes listed; the model is unchanged.
    await preview.getByRole("button", { name: "Propose instead" }).click();
    await page.getByText("Proposed. The proposal waits under Review", { exact: false }).first().waitFor();
    const proposals = (await admin.manage("GET", "/models/proposals?state=open")).body.data.filter((p) => p.model_id === event.id);
    assert.deepEqual(proposals.map((p) => p.changes.map((c) => `${c.kind}:${c.field}`)), [["field_removed_with_values:title"]]);
    assert.equal((await admin.manage("GET", `/models/${event.id}`)).body.revision, 1, "nothing was written");

    // A safe change saves.
    await page.reload();
    await page.getByRole("heading", { name: "Model: Event", level: 1 }).waitFor();
    await addField(page, "Venue", "Text (one line)");
    await page.getByRole("button", { name: "Review and save" }).click();
    await preview.getByText("Adds “venue”.").waitFor();
    await preview.getByRole("button", { name: "Save the model" }).click();
    await page.getByText("Saved Event (revision 2).").first().waitFor();
    await checkScreen(page, "model-builder");

    // Roles: a new role in the matrix.
    await page.goto(`${admin.origin}/sites/${demo.id}/settings/roles`);
    await page.getByRole("heading", { name: "Roles and permissions", level: 1 }).waitFor();
    await page.getByText("Seeded — came with the site").first().waitFor();
    await page.getByRole("button", { name: "New role" }).click();
    await page.getByLabel("Role name").fill("Section lead");
    for (const box of ["Read Event", "Create Event", "Update Event"]) await page.getByRole("checkbox", { name: box, exact: true }).check();
    await page.getByRole("checkbox", { name: /^Manage roles and people/ }).check();
    await page.getByRole("checkbox", { name: /^Upload media/ }).check();
    await checkScreen(page, "roles");
    await page.getByRole("button", { name: "Create the role" }).click();
    await page.getByText("Saved the role Section lead.").first().waitFor();
    const roles = (await admin.manage("GET", "/roles")).body.data;
    const lead = roles.find((r) => r.slug === "section-lead");
    assert.deepEqual(lead.permissions, { models: { [event.id]: ["read", "create", "update"] }, system: ["media:upload", "role:manage"] });

    // A member gets the role; deleting it is refused in words. The member is a person of this file's
    // own (invited as an editor, then given the role): the seeded demo editor's role is read by the
    // lease files of a shared batch (docs/testing.md).
    const editorRole = roles.find((r) => r.slug === "editor");
    const email = `section-lead-${Date.now().toString(36)}@example.test`;
    const password = "a long enough password";
    const invited = await sessionCall(page, demo.id, "POST", "/api/invitations", { email, role_id: editorRole.id });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const { page: lesser } = await newPerson(admin);
    await lesser.goto(`${admin.origin}/sign-in`);
    const accepted = await lesser.evaluate(
      async (body) => (await fetch("/api/invitations/accept", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).status,
      { token: invited.body.link.split("#")[1], name: "Sal Section", password },
    );
    assert.equal(accepted, 200);
    const people = await sessionCall(page, demo.id, "GET", "/api/people");
    const editor = people.body.data.find((p) => p.email === email);
    assert.equal(editor.role.slug, "editor");
    assert.equal((await sessionCall(page, demo.id, "PUT", `/api/people/${editor.person_id}/role`, { role_id: lead.id })).status, 200);
    await page.reload();
    await page.getByRole("button", { name: "Delete Section lead" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete the role Section lead?" });
    await confirm.getByRole("button", { name: "Delete the role" }).click();
    await confirm.getByRole("alert").filter({ hasText: "People hold this role, so it cannot be deleted." }).waitFor();
    await confirm.getByText("One person holds it now.").waitFor();
    await checkScreen(page, "roles-delete-refused");
    await confirm.getByRole("button", { name: "Cancel" }).click();

    // The member, now a section lead, sees the ceiling: what they cannot grant, and why.
    await signInAs(lesser, admin.origin, email, password);
    await lesser.goto(`${admin.origin}/sites/${demo.id}/settings/roles`);
    await lesser.getByRole("heading", { name: "Roles and permissions", level: 1 }).waitFor();
    await lesser.getByRole("button", { name: "Open Admin" }).click();
    await lesser.getByText("You cannot change or delete Admin: it holds what your role does not.").waitFor();
    await lesser.getByRole("form", { name: "Role: Admin" }).getByText("Change site settings (site:settings): your role does not hold it.").waitFor();
    await lesser.getByRole("button", { name: "New role" }).click();
    assert.equal(await lesser.getByRole("checkbox", { name: "Publish Event (not yours to grant)", exact: true }).isDisabled(), true);
    assert.equal(await lesser.getByRole("checkbox", { name: "Read Event", exact: true }).isDisabled(), false);
    await checkScreen(lesser, "roles-ceiling");
  });
});
