/**
 * Admin UI media library in a real Chromium (issue #15 item 8; docs/admin-ui-media.md): upload
 * through the streamed route with a progress bar, the duplicate prompt (use the existing file),
 * a refused upload in words, alt texts in two languages (a double click saves once), a focal point
 * set by keyboard, a folder created, renamed and the file moved into it, the usage of a used file
 * and its removal refused in words, the removal of an unused one; axe and 360 px on each screen.
 * Results are checked through the management API too.
 * Run: node --test test/e2e/admin-ui-media.test.mjs
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkScreen, newPerson, signInAs, startAdmin } from "./admin-ui/harness.mjs";
import { png } from "./admin-ui/png.mjs";

const PORT = 8785;
let admin;

async function listed(q) {
  const res = await admin.manage("GET", `/media?q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200);
  return res.body.data;
}

before(async () => {
  admin = await startAdmin({ port: PORT });
});
after(async () => {
  await admin?.close();
});

describe("admin UI: media library", () => {
  it("uploads with progress, prompts on a duplicate, edits alt texts and the focal point, files into a folder, refuses removing a used file and removes an unused one", async () => {
    const { context, page } = await newPerson(admin);
    await signInAs(page, admin.origin, admin.info.admin.email, admin.info.admin.password);
    const demo = admin.info.sites.find((s) => s.slug === "demo");
    const before = await admin.manage("GET", "/media?limit=100");
    const startCount = before.body.data.length;

    await page.goto(`${admin.origin}/sites/${demo.id}/media`);
    await page.getByRole("heading", { name: "Media", level: 1 }).waitFor();
    const grid = page.getByRole("list", { name: "Files" });
    await grid.getByRole("button", { name: /sea-at-dawn\.png/ }).waitFor();
    // The seeded files show pictures (through the admin's file route, published or not).
    await grid.locator("img").first().waitFor();
    await checkScreen(page, "media-library");

    // Upload through the file button: a progress bar, the state in words, the item in the grid.
    const bytes = png(32, 24, 90);
    await page.getByLabel("choose files to upload").setInputFiles({ name: "harbour-tiny.png", mimeType: "image/png", buffer: bytes });
    const uploads = page.getByRole("list", { name: "Uploads" });
    await uploads.getByText("Uploaded.").waitFor();
    const bar = page.getByRole("progressbar", { name: "Upload of harbour-tiny.png" });
    assert.equal(await bar.getAttribute("value"), String(bytes.length));
    assert.equal(await bar.getAttribute("max"), String(bytes.length));
    await grid.getByRole("button", { name: /harbour-tiny\.png/ }).waitFor();
    const [uploaded] = await listed("harbour-tiny");
    assert.ok(uploaded, "the upload is in the library");
    assert.equal(uploaded.byte_length, bytes.length);
    assert.equal(uploaded.folder_id, null);

    // The same bytes again under another name: the duplicate prompt; use the existing file.
    await page.getByLabel("choose files to upload").setInputFiles({ name: "harbour-again.png", mimeType: "image/png", buffer: bytes });
    const prompt = page.getByRole("dialog", { name: "This file is already in the library" });
    await prompt.waitFor();
    await prompt.getByText("harbour-tiny.png").waitFor();
    await checkScreen(page, "media-duplicate-prompt");
    await prompt.getByRole("button", { name: "Use the existing file" }).click();
    await uploads.getByText("Used the file already in the library.").waitFor();
    assert.equal((await listed("harbour")).length, 1, "no second item");
    assert.equal((await admin.manage("GET", "/media?limit=100")).body.data.length, startCount + 1);

    // A page disguised as a picture is refused, in words.
    await page.getByLabel("choose files to upload").setInputFiles({ name: "evil.png", mimeType: "image/png", buffer: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>") });
    await uploads.getByText("This kind of file cannot be uploaded to this site.").waitFor();
    assert.equal((await listed("evil")).length, 0);

    // A file over the streamed limit is refused before a byte is sent (the limit from getMediaLimits).
    const limit = (await admin.manage("GET", "/media/folders")).body.limits.streamed_max_bytes;
    let uploadRequests = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/media/uploads") uploadRequests++;
    });
    await page.getByLabel("choose files to upload").evaluate((input, size) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(size)], "huge.png", { type: "image/png" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, limit + 1);
    await uploads.getByText(/This file is .* files may be at most /).waitFor();
    assert.equal(uploadRequests, 0, "nothing was sent");

    // A large upload can be cancelled while it is sent: nothing is stored.
    await page.getByLabel("choose files to upload").evaluate((input, head) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(head), new Uint8Array(80_000_000)], "long-swell.png", { type: "image/png" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }, [...png(8, 8, 10)]);
    await uploads.getByRole("button", { name: "Cancel upload of long-swell.png" }).click();
    await uploads.getByText("Cancelled.").waitFor();
    assert.equal((await listed("long-swell")).length, 0);

    // Drag and drop onto the drop area uploads too.
    await page.getByRole("group", { name: "Drop files to upload" }).evaluate((zone, bytes) => {
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(bytes)], "dropped-shell.png", { type: "image/png" }));
      zone.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: files }));
      zone.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: files }));
    }, [...png(10, 10, 160)]);
    await page.getByRole("progressbar", { name: "Upload of dropped-shell.png" }).waitFor();
    await grid.getByRole("button", { name: /dropped-shell\.png/ }).waitFor();
    assert.equal((await listed("dropped-shell")).length, 1);

    // Details of the uploaded file, chosen in the grid: alt texts in two languages.
    await grid.getByRole("button", { name: /harbour-tiny\.png/ }).click();
    const details = page.getByRole("region", { name: "harbour-tiny.png" });
    await details.waitFor();
    await details.getByLabel(/^Alt text, (.*\()?en\)?$/).fill("Boats moored in a small harbour");
    await details.getByLabel(/^Alt text, (.*\()?fr\)?$/).fill("Des bateaux amarrés dans un petit port");
    // A double click saves once (one Idempotency-Key per action, the button disabled while busy).
    await details.getByRole("button", { name: "Save changes" }).dblclick();
    await details.getByText("Changes saved.").first().waitFor();
    let item = (await admin.manage("GET", `/media/${uploaded.id}`)).body.media;
    assert.deepEqual(item.alt_texts, { en: "Boats moored in a small harbour", fr: "Des bateaux amarrés dans un petit port" });
    assert.equal(item.revision, uploaded.revision + 1, "saved once");

    // The focal point by keyboard: from the centre, two steps right and one down.
    const picker = details.getByRole("slider", { name: "Focal point" });
    await picker.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    assert.equal(await picker.getAttribute("aria-valuetext"), "across 60%, down 55%");
    await details.getByText("Unsaved changes.", { exact: true }).waitFor();
    await details.getByRole("button", { name: "Save changes" }).click();
    await details.getByText("Unsaved changes.", { exact: true }).waitFor({ state: "detached" });
    item = (await admin.manage("GET", `/media/${uploaded.id}`)).body.media;
    assert.deepEqual(item.default_focal, { x: 0.6, y: 0.55 });
    await checkScreen(page, "media-details");

    // Someone else edits the file meanwhile: saving the stale revision is refused in words; reload.
    const elsewhere = await admin.manage("PUT", `/media/${uploaded.id}`, { alt_texts: { en: "Changed elsewhere" } });
    assert.equal(elsewhere.status, 200);
    await details.getByLabel(/^Alt text, (.*\()?fr\)?$/).fill("Un port");
    await details.getByRole("button", { name: "Save changes" }).click();
    await details.getByRole("alert").filter({ hasText: "Someone changed this file after you opened it." }).waitFor();
    assert.equal((await admin.manage("GET", `/media/${uploaded.id}`)).body.media.alt_texts.fr, "Des bateaux amarrés dans un petit port", "nothing was written");
    await details.getByRole("button", { name: "Reload this file" }).click();
    await page.waitForFunction(() => [...document.querySelectorAll("#media-details textarea")].some((t) => t.value === "Changed elsewhere"));
    await details.getByRole("alert").filter({ hasText: "Someone changed this file after you opened it." }).waitFor({ state: "detached" });

    // A folder: create, rename, then move the file into it.
    const folders = page.getByRole("navigation", { name: "Folders" });
    const folderEntry = (name) => folders.getByRole("listitem").getByRole("button", { name: new RegExp(`${name} \\d+ files?$`) });
    await page.getByRole("button", { name: "New folder" }).click();
    const create = page.getByRole("dialog", { name: "New folder" });
    await create.getByLabel("Folder name").fill("Harbour photos");
    await create.getByRole("button", { name: "Create folder" }).click();
    await folderEntry("Harbour photos").waitFor();
    // The same name again is refused in words.
    await page.getByRole("button", { name: "New folder" }).click();
    const again = page.getByRole("dialog", { name: "New folder" });
    await again.getByLabel("Folder name").fill("harbour PHOTOS");
    await again.getByLabel("Inside").selectOption("");
    await again.getByRole("button", { name: "Create folder" }).click();
    await again.getByText("A folder with this name is already there.").waitFor();
    await again.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Rename folder Harbour photos" }).click();
    const rename = page.getByRole("dialog", { name: /Rename folder/ });
    await rename.getByLabel("Folder name").fill("Harbours");
    await rename.getByRole("button", { name: "Rename" }).click();
    await folderEntry("Harbours").waitFor();
    const tree = (await admin.manage("GET", "/media/folders")).body;
    const folder = tree.folders.find((f) => f.name === "Harbours");
    assert.ok(folder, "the folder exists under its new name");
    await details.getByLabel("Move to folder").selectOption(folder.id);
    await details.getByRole("button", { name: "Move", exact: true }).click();
    await details.getByText("Moved to Harbours.").first().waitFor();
    item = (await admin.manage("GET", `/media/${uploaded.id}`)).body.media;
    assert.equal(item.folder_id, folder.id);
    await grid.getByRole("button", { name: /harbour-tiny\.png/ }).waitFor();

    // A used file: its usage lists entries linked to the editor; removing it is refused in words.
    await folderEntry("All files").click();
    await page.getByLabel("Search file names").fill("sea-at-dawn");
    await grid.getByRole("button", { name: /harbour-tiny\.png/ }).waitFor({ state: "detached" });
    await grid.getByRole("button", { name: /sea-at-dawn\.png/ }).click();
    const used = page.getByRole("region", { name: "sea-at-dawn.png" });
    await used.getByText(/entries use this file|entry uses this file/).waitFor();
    const entryLink = used.getByRole("list").filter({ has: page.getByRole("link") }).getByRole("link").first();
    assert.match(await entryLink.getAttribute("href"), new RegExp(`^/sites/${demo.id}/entries/`));
    await used.getByRole("button", { name: "Remove file…" }).click();
    const confirmUsed = page.getByRole("dialog", { name: /Remove “sea-at-dawn\.png”/ });
    await confirmUsed.getByRole("button", { name: "Remove", exact: true }).click();
    await confirmUsed.getByRole("alert").filter({ hasText: "This file is used by content. Remove it from that content first." }).waitFor();
    await confirmUsed.getByRole("link").first().waitFor();
    await checkScreen(page, "media-remove-refused");
    await confirmUsed.getByRole("button", { name: "Close" }).click();
    const seaId = (await listed("sea-at-dawn"))[0]?.id;
    assert.equal((await admin.manage("GET", `/media/${seaId}`)).status, 200, "the used file is kept");

    // Replace the unused file's bytes: a file of another kind is refused in words, a PNG replaces it.
    await page.getByLabel("Search file names").fill("harbour-tiny");
    await grid.getByRole("button", { name: /harbour-tiny\.png/ }).click();
    const replacing = page.getByRole("region", { name: "harbour-tiny.png" });
    await replacing.getByLabel("Choose a new file").setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n") });
    await replacing.getByRole("button", { name: "Replace", exact: true }).click();
    await replacing.getByText("The new file must be of the same kind as the old one (an image for an image).").waitFor();
    const newer = png(24, 24, 200);
    await replacing.getByLabel("Choose a new file").setInputFiles({ name: "harbour-newer.png", mimeType: "image/png", buffer: newer });
    await replacing.getByRole("button", { name: "Replace", exact: true }).click();
    await page.getByRole("region", { name: "harbour-newer.png" }).getByText("Replaced with harbour-newer.png.").first().waitFor();
    const replaced = (await admin.manage("GET", `/media/${uploaded.id}`)).body.media;
    assert.equal(replaced.byte_length, newer.length);
    assert.notEqual(replaced.object_id, uploaded.object_id);
    assert.equal(replaced.file_name, "harbour-newer.png");
    assert.deepEqual(replaced.default_focal, { x: 0.6, y: 0.55 }, "the framing is kept");

    // An unused file is removed.
    const unused = page.getByRole("region", { name: "harbour-newer.png" });
    await unused.getByText("No content uses this file.").waitFor();
    await unused.getByRole("button", { name: "Remove file…" }).click();
    await page.getByRole("dialog", { name: /Remove “harbour-newer\.png”/ }).getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "harbour-newer.png removed." }).waitFor({ state: "attached" });
    await grid.getByRole("button", { name: /harbour-newer\.png/ }).waitFor({ state: "detached" });
    assert.equal((await admin.manage("GET", `/media/${uploaded.id}`)).status, 404);

    // The folder is removed too (its files would become Unfiled).
    await folderEntry("Harbours").click();
    await page.getByRole("button", { name: "Remove folder Harbours" }).click();
    await page.getByRole("dialog", { name: /Remove folder/ }).getByRole("button", { name: "Remove folder" }).click();
    await folderEntry("Harbours").waitFor({ state: "detached" });
    assert.equal((await admin.manage("GET", "/media/folders")).body.folders.some((f) => f.id === folder.id), false);
    // An address naming a file opens the library with it chosen (links from other screens).
    await page.goto(`${admin.origin}/sites/${demo.id}/media?item=${seaId}`);
    await page.getByRole("region", { name: "sea-at-dawn.png" }).waitFor();
    assert.deepEqual(page.problems, []);
    await context.close();
  });
});
