import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { commitPlan } from "../../shared/services/lifecycle";
import { createFolder, updateFolder } from "../../shared/services/media/folders";
import { moveMedia } from "../../shared/services/media/move";
import { uploadMedia as uploadPlan } from "../../shared/services/media/upload";
import { failure, seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { mediaRows, storedKeys, uploadMedia, type ErrBody, type MediaAnswer, type MediaItemBody } from "../helpers/media-api";
import { png } from "../helpers/media-samples";

interface Folder {
  id: string;
  name: string;
  parent_id: string | null;
  revision: number;
  depth: number;
  media_count: number;
  subtree_folder_count: number;
  subtree_media_count: number;
}
type FolderAnswer = { folder: Folder; replayed?: true };
type Tree = { folders: Folder[]; unfiled: number; total: number; limits: Record<string, number> };
type FolderErr = { error: { code: string; folder?: Folder; ids?: string[] } };

const create = (token: string, body: Record<string, unknown>, key?: string) => manage<FolderAnswer & FolderErr>(token, "POST", "/media/folders", { body, ...(key ? { key } : {}) });
const update = (token: string, id: string, body: Record<string, unknown>) => manage<FolderAnswer & FolderErr>(token, "PUT", `/media/folders/${id}`, { body });
const tree = async (token: string) => (await manage<Tree>(token, "GET", "/media/folders")).body;
const codeOf = (r: { status: number; body: FolderErr }) => [r.status, r.body.error?.code];

describe("media folders: create and list", () => {
  it("creates folders, lists the tree depth first with counts, unfiled, total and limits; names are trimmed and unique under a parent regardless of case", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await create(token, { name: "Photos" });
    expect(a.status).toBe(201);
    expect(a.body.folder).toMatchObject({ name: "Photos", parent_id: null, revision: 0, depth: 1, media_count: 0, subtree_folder_count: 1, subtree_media_count: 0 });
    expect(a.body.folder.id).toMatch(/^mfd_/);
    const b = await create(token, { name: "  beach  ", parent_id: a.body.folder.id });
    expect(b.body.folder).toMatchObject({ name: "beach", parent_id: a.body.folder.id, depth: 2 });
    const long = await create(token, { name: "x".repeat(80) });
    expect(long.status).toBe(201);

    const clash = await create(token, { name: "PHOTOS" });
    expect(codeOf(clash)).toEqual([409, "media_folder_exists"]);
    expect(clash.body.error.folder).toMatchObject({ id: a.body.folder.id, name: "Photos" });
    // The same name under another parent is another folder.
    expect((await create(token, { name: "photos", parent_id: a.body.folder.id })).status).toBe(201);
    for (const name of ["", "   ", "x".repeat(81)]) expect(codeOf(await create(token, { name }))).toEqual([400, "invalid_request"]);
    expect(codeOf(await create(token, { name: "Orphan", parent_id: "mfd_nope" }))).toEqual([404, "media_folder_not_found"]);

    const inFolder = await uploadMedia(token, { bytes: png(1, 1, "in"), name: "in.png" }, { folder_id: b.body.folder.id });
    expect([inFolder.status, inFolder.body.media.folder_id]).toEqual([201, b.body.folder.id]);
    await uploadMedia(token, { bytes: png(1, 1, "out"), name: "out.png" });

    const listed = await tree(token);
    expect(listed.folders.map((f) => [f.name, f.depth])).toEqual([["Photos", 1], ["beach", 2], ["photos", 2], ["x".repeat(80), 1]]);
    expect(listed.folders[0]).toMatchObject({ media_count: 0, subtree_folder_count: 3, subtree_media_count: 1 });
    expect(listed.folders[1]).toMatchObject({ media_count: 1, subtree_folder_count: 1, subtree_media_count: 1 });
    expect([listed.unfiled, listed.total]).toEqual([1, 2]);
    // streamed_max_bytes: MEDIA_REQUEST_BODY_LIMIT_BYTES of the test pool (vitest.config.ts), else 100 MB.
    expect(listed.limits).toEqual({ max_depth: 5, max_folders: 500, name_max: 80, streamed_max_bytes: 45_000_000 });

    // Another site sees none of them, and cannot upload into them.
    const other = await seedSite();
    const otherToken = await credential(other);
    expect((await tree(otherToken)).folders).toEqual([]);
    const cross = await uploadMedia<ErrBody>(otherToken, { bytes: png(1, 1, "x"), name: "x.png" }, { folder_id: b.body.folder.id });
    expect([cross.status, cross.body.error.code]).toEqual([404, "media_folder_not_found"]);
  });

  it("replays a folder create sent again with the same key (one folder, replayed: true)", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const key = newKey();
    const first = await create(token, { name: "Once" }, key);
    const again = await create(token, { name: "Once" }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect((await tree(token)).folders).toHaveLength(1);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'media.folder.created'").bind(s.site.id).first<{ n: number }>();
    expect(events?.n).toBe(1);
  });

  it("refuses the 501st folder of a site with media_folder_limit", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const at = new Date().toISOString();
    const insert = env.DB.prepare("INSERT INTO media_folders (id, site_id, parent_id, name, name_key, revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, 0, ?, ?)");
    await env.DB.batch(Array.from({ length: 499 }, (_, i) => insert.bind(`mfd_seed${i}`, s.site.id, `F${i}`, `f${i}`, at, at)));
    expect((await create(token, { name: "Five hundredth" })).status).toBe(201);
    const over = await create(token, { name: "One too many" });
    expect(codeOf(over)).toEqual([409, "media_folder_limit"]);
    expect((await tree(token)).folders).toHaveLength(500);
  });

  it("needs media:update (403 missing_permission) and the media:write scope", async () => {
    const s = await seedSite();
    const readOnly = await credential(s, ["content:read"]);
    expect(codeOf(await create(readOnly, { name: "No" }))).toEqual([403, "insufficient_scope"]);
    const token = await credential(s);
    await changeAdminRole(s, (p) => ({ ...p, system: ((p.system as string[]) ?? []).filter((x) => x !== "media:update") }));
    expect(codeOf(await create(token, { name: "No" }))).toEqual([403, "missing_permission"]);
  });
});

describe("media folders: rename and move", () => {
  it("nests 5 levels and refuses a 6th; a moved folder counts its subtree's height; cycles, stale revisions and clashes are refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const chain: Folder[] = [];
    for (let i = 1; i <= 5; i++) {
      const made = await create(token, { name: `L${i}`, ...(i > 1 ? { parent_id: chain[i - 2]?.id } : {}) });
      expect([made.status, made.body.folder.depth]).toEqual([201, i]);
      chain.push(made.body.folder);
    }
    const [l1, l2, l3, l4, l5] = chain as [Folder, Folder, Folder, Folder, Folder];
    expect(codeOf(await create(token, { name: "L6", parent_id: l5.id }))).toEqual([409, "media_folder_too_deep"]);

    const t = (await create(token, { name: "T" })).body.folder;
    await create(token, { name: "T2", parent_id: t.id });
    // Under L4, T (2 levels) would reach depth 6; under L3 it reaches 5.
    expect(codeOf(await update(token, t.id, { expected_revision: 0, parent_id: l4.id }))).toEqual([409, "media_folder_too_deep"]);
    const moved = await update(token, t.id, { expected_revision: 0, parent_id: l3.id });
    expect([moved.status, moved.body.folder.depth, moved.body.folder.revision, moved.body.folder.parent_id]).toEqual([200, 4, 1, l3.id]);

    expect(codeOf(await update(token, l1.id, { expected_revision: 0, parent_id: l3.id }))).toEqual([409, "media_folder_cycle"]);
    expect(codeOf(await update(token, l1.id, { expected_revision: 0, parent_id: l1.id }))).toEqual([409, "media_folder_cycle"]);

    const stale = await update(token, t.id, { expected_revision: 0, name: "Late" });
    expect(codeOf(stale)).toEqual([409, "media_folder_changed"]);
    expect(stale.body.error.folder).toMatchObject({ id: t.id, revision: 1, parent_id: l3.id });

    await create(token, { name: "Other" });
    expect(codeOf(await update(token, l1.id, { expected_revision: 0, name: "OTHER" }))).toEqual([409, "media_folder_exists"]);
    // A folder may change the case of its own name; back to the top level also works.
    const recased = await update(token, l1.id, { expected_revision: 0, name: "l1" });
    expect([recased.status, recased.body.folder.name, recased.body.folder.revision]).toEqual([200, "l1", 1]);
    const top = await update(token, l2.id, { expected_revision: 0, parent_id: null, name: "Up" });
    expect(top.body.folder).toMatchObject({ parent_id: null, depth: 1, name: "Up", subtree_folder_count: 6 });

    expect(codeOf(await update(token, l2.id, { expected_revision: 1 }))).toEqual([400, "invalid_request"]);
    expect(codeOf(await update(token, "mfd_nope", { expected_revision: 0, name: "N" }))).toEqual([404, "media_folder_not_found"]);
    expect(codeOf(await update(token, l2.id, { expected_revision: 1, parent_id: "mfd_nope" }))).toEqual([404, "media_folder_not_found"]);
  });
});

describe("media folders: remove", () => {
  it("deletes the folder and every folder below it and no file; their files become Unfiled; stale counts or revision are refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const p = (await create(token, { name: "P" })).body.folder;
    const c = (await create(token, { name: "C", parent_id: p.id })).body.folder;
    const g = (await create(token, { name: "G", parent_id: c.id })).body.folder;
    const q = (await create(token, { name: "Q" })).body.folder;
    const inC = (await uploadMedia(token, { bytes: png(1, 1, "c"), name: "c.png" }, { folder_id: c.id })).body.media;
    const inG = (await uploadMedia(token, { bytes: png(1, 1, "g"), name: "g.png" }, { folder_id: g.id })).body.media;
    const inQ = (await uploadMedia(token, { bytes: png(1, 1, "q"), name: "q.png" }, { folder_id: q.id })).body.media;
    const seen = (await tree(token)).folders.find((f) => f.id === p.id);
    expect(seen).toMatchObject({ subtree_folder_count: 3, subtree_media_count: 2, media_count: 0 });

    const remove = (body: Record<string, unknown>) => manage<{ folder: Folder; removed: { folder_ids: string[]; folders: number; media_unfiled: number } } & FolderErr>(token, "POST", `/media/folders/${p.id}/remove`, { body });
    const staleMedia = await remove({ expected_revision: 0, expected_folders: 3, expected_media: 1 });
    expect(codeOf(staleMedia)).toEqual([409, "media_folder_changed"]);
    expect(staleMedia.body.error.folder).toMatchObject({ id: p.id, subtree_media_count: 2 });
    expect(codeOf(await remove({ expected_revision: 0, expected_folders: 2, expected_media: 2 }))).toEqual([409, "media_folder_changed"]);
    expect(codeOf(await remove({ expected_revision: 3, expected_folders: 3, expected_media: 2 }))).toEqual([409, "media_folder_changed"]);

    const removed = await remove({ expected_revision: 0, expected_folders: 3, expected_media: 2 });
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toEqual({ folder_ids: [p.id, c.id, g.id], folders: 3, media_unfiled: 2 });
    const after = await tree(token);
    expect(after.folders.map((f) => f.id)).toEqual([q.id]);
    expect([after.unfiled, after.total]).toEqual([2, 3]);
    expect((await manage<MediaAnswer>(token, "GET", `/media/${inG.id}`)).body.media.folder_id).toBeNull();
    expect((await manage<MediaAnswer>(token, "GET", `/media/${inQ.id}`)).body.media.folder_id).toBe(q.id);
    expect(await mediaRows(s.site.id)).toBe(3);
    expect(await storedKeys(s.site.id)).toHaveLength(3);
    expect(inC.folder_id).toBe(c.id);

    // Gone: a second remove and an upload into a removed folder are 404.
    expect(codeOf(await remove({ expected_revision: 0, expected_folders: 3, expected_media: 2 }))).toEqual([404, "media_folder_not_found"]);
    const late = await uploadMedia<ErrBody>(token, { bytes: png(1, 1, "late"), name: "late.png" }, { folder_id: g.id });
    expect([late.status, late.body.error.code]).toEqual([404, "media_folder_not_found"]);
  });
});

describe("POST /media/move", () => {
  it("moves 1..200 files of the site into a folder or Unfiled; unknown and other sites' ids are 404 not_found naming them; 0 and 201 ids are refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const f = (await create(token, { name: "F" })).body.folder;
    const m1 = (await uploadMedia(token, { bytes: png(1, 1, "m1"), name: "m1.png" })).body.media;
    const m2 = (await uploadMedia(token, { bytes: png(1, 1, "m2"), name: "m2.png" })).body.media;
    const move = (body: Record<string, unknown>) => manage<{ media: MediaItemBody[]; folder_id: string | null } & FolderErr>(token, "POST", "/media/move", { body });

    const moved = await move({ ids: [m1.id, m2.id], folder_id: f.id });
    expect(moved.status).toBe(200);
    expect(moved.body.media.map((m) => [m.id, m.folder_id, m.object_id, m.url])).toEqual([
      [m1.id, f.id, m1.object_id, m1.url],
      [m2.id, f.id, m2.object_id, m2.url],
    ]);
    expect((await tree(token)).folders[0]).toMatchObject({ media_count: 2 });

    expect(codeOf(await move({ ids: [], folder_id: f.id }))).toEqual([400, "invalid_request"]);
    expect(codeOf(await move({ ids: Array.from({ length: 201 }, (_, i) => `med_${i}`), folder_id: f.id }))).toEqual([400, "invalid_request"]);
    // 200 ids are accepted by the schema (and here refused only because they are unknown).
    const many = await move({ ids: [m1.id, ...Array.from({ length: 199 }, (_, i) => `med_x${i}`)], folder_id: null });
    expect(codeOf(many)).toEqual([404, "not_found"]);
    expect(many.body.error.ids).toHaveLength(199);
    expect(codeOf(await move({ ids: [m1.id], folder_id: "mfd_nope" }))).toEqual([404, "media_folder_not_found"]);

    const other = await seedSite();
    const otherToken = await credential(other);
    const foreign = (await uploadMedia(otherToken, { bytes: png(1, 1, "o"), name: "o.png" })).body.media;
    const otherFolder = (await create(otherToken, { name: "Theirs" })).body.folder;
    const cross = await move({ ids: [m1.id, foreign.id], folder_id: null });
    expect(codeOf(cross)).toEqual([404, "not_found"]);
    expect(cross.body.error.ids).toEqual([foreign.id]);
    expect(codeOf(await move({ ids: [m1.id], folder_id: otherFolder.id }))).toEqual([404, "media_folder_not_found"]);
    // Nothing moved by the refusals.
    expect((await manage<MediaAnswer>(token, "GET", `/media/${m1.id}`)).body.media.folder_id).toBe(f.id);

    const unfiled = await move({ ids: [m1.id], folder_id: null });
    expect([unfiled.status, unfiled.body.media[0]?.folder_id]).toEqual([200, null]);
    expect((await tree(token)).unfiled).toBe(1);
  });
});

describe("media folders: batch guards", () => {
  it("an upload, move or subfolder planned into a folder removed before the commit writes nothing (media_folder_not_found); a rename at a revision changed meanwhile is media_folder_changed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const going = (await create(token, { name: "Going" })).body.folder;
    const kept = (await create(token, { name: "Kept" })).body.folder;
    const m = (await uploadMedia(token, { bytes: png(1, 1, "guard"), name: "g.png" })).body.media;
    const ctx = s.ctx();
    const plans = [
      await uploadPlan(ctx, {
        media_id: "med_guarded", object_key: `${s.site.id}/med_guarded/obj_guarded`, kind: "image", file_name: "x.png", mime_type: "image/png",
        byte_length: 1, sha256: "00", width: 1, height: 1, folder_id: going.id, on_duplicate: "copy",
      }),
      await moveMedia(ctx, { ids: [m.id], folder_id: going.id }),
      await createFolder(ctx, { name: "Sub", parent_id: going.id }),
    ];
    const rename = await updateFolder(ctx, { folder_id: kept.id, expected_revision: 0, name: "Renamed" });
    await env.DB.prepare("DELETE FROM media_folders WHERE id = ?").bind(going.id).run();
    await env.DB.prepare("UPDATE media_folders SET revision = 1 WHERE id = ?").bind(kept.id).run();
    for (const plan of plans) expect((await failure(commitPlan(ctx, plan as Parameters<typeof commitPlan>[1]))).code).toBe("media_folder_not_found");
    expect((await failure(commitPlan(ctx, rename))).code).toBe("media_folder_changed");
    expect(await mediaRows(s.site.id)).toBe(1);
    expect((await manage<MediaAnswer>(token, "GET", `/media/${m.id}`)).body.media.folder_id).toBeNull();
    expect((await tree(token)).folders.map((f) => f.name)).toEqual(["Kept"]);
  });
});

describe("media folder names and moves against hostile input (issue #10 probe)", () => {
  it("refuses folder names with a lone surrogate, control (C0, C1) or bidirectional control characters on create and rename (400), storing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bad = ["sur\ud800", "\udc00x", "a\u0000b", "a\u0085b", "a\u009fb", "invoice\u202eexe", "a\u2066b", "a\u200fb", "a\u061cb", "line\u2028break"];
    for (const name of bad) {
      // JSON.stringify writes a lone surrogate as the escape \ud800: what the probe sent.
      expect(codeOf(await manage<FolderErr>(token, "POST", "/media/folders", { rawBody: JSON.stringify({ name }) })), JSON.stringify(name)).toEqual([400, "invalid_request"]);
    }
    expect((await tree(token)).folders).toEqual([]);
    const ok = await create(token, { name: "Photos \u00e9t\u00e9 \u{1F600}" });
    expect(ok.status).toBe(201);
    for (const name of bad) {
      const res = await manage<FolderErr>(token, "PUT", `/media/folders/${ok.body.folder.id}`, { rawBody: JSON.stringify({ expected_revision: 0, name }) });
      expect(codeOf(res), JSON.stringify(name)).toEqual([400, "invalid_request"]);
    }
    expect((await tree(token)).folders.map((f) => [f.name, f.revision])).toEqual([["Photos \u00e9t\u00e9 \u{1F600}", 0]]);
  });

  it("maps a UNIQUE violation of the folder name index at commit to media_folder_exists (409), not a 500", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const other = (await create(token, { name: "Other" })).body.folder;
    const ctx = s.ctx();
    // Two plans read the same tree (a write outside the site's object in between is the race the index catches).
    const first = await createFolder(ctx, { name: "Dup" });
    const second = await createFolder(ctx, { name: "DUP" });
    const rename = await updateFolder(ctx, { folder_id: other.id, expected_revision: 0, name: "dup" });
    await commitPlan(ctx, first);
    expect((await failure(commitPlan(ctx, second))).code).toBe("media_folder_exists");
    expect((await failure(commitPlan(ctx, rename))).code).toBe("media_folder_exists");
    expect((await tree(token)).folders.map((f) => [f.name, f.revision])).toEqual([["Dup", 0], ["Other", 0]]);
    // Through the API the tree sees the clash first: 409 media_folder_exists as well.
    expect(codeOf(await create(token, { name: "dUp" }))).toEqual([409, "media_folder_exists"]);
  });

  it("counts a move's ids after removing duplicates: the same id 201 times is one file (200); 201 distinct ids are 400", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const folder = await create(token, { name: "Target" });
    const up = await uploadMedia(token, { bytes: png(1, 1, "dup-move"), name: "a.png" });
    const same = await manage<{ media: MediaItemBody[]; folder_id: string | null }>(token, "POST", "/media/move", { body: { ids: Array(201).fill(up.body.media.id), folder_id: folder.body.folder.id } });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.media.map((m) => [m.id, m.folder_id])).toEqual([[up.body.media.id, folder.body.folder.id]]);
    const distinct = Array.from({ length: 201 }, (_, i) => `med_${i}`);
    expect(codeOf(await manage<FolderErr>(token, "POST", "/media/move", { body: { ids: distinct, folder_id: null } }))).toEqual([400, "invalid_request"]);
    expect(codeOf(await manage<FolderErr>(token, "POST", "/media/move", { body: { ids: Array(1001).fill(up.body.media.id), folder_id: null } }))).toEqual([400, "invalid_request"]);
  });
});
