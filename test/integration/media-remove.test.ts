import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { mediaRows, replaceMedia, setOriginal, storedKeys, uploadMedia, type ErrBody, type MediaItemBody } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { createEntry, mediaModel, uploadPng, usageOf, type UsageBody } from "../helpers/media-usage";

type Removed = { media: MediaItemBody & { revision: number }; storage_cleanup: "complete" | "pending"; replayed?: true };
type Tree = { folders: { id: string; media_count: number }[]; unfiled: number; total: number };

const remove = <T = Removed>(token: string, id: string, body: unknown = {}, key?: string) => manage<T>(token, "POST", `/media/${id}/remove`, { body, ...(key ? { key } : {}) });
const keyOf = (s: SeededSite, item: { id: string; object_id: string }) => `${s.site.id}/${item.id}/${item.object_id}`;

async function count(s: SeededSite, sql: string): Promise<number> {
  return (await env.DB.prepare(sql).bind(s.site.id).first<{ n: number }>())?.n ?? -1;
}
const cleanupNotes = (s: SeededSite) =>
  runInDurableObject(env.SITE.getByName(s.site.id), (_o, state) => state.storage.sql.exec<{ object_key: string }>("SELECT object_key FROM media_cleanup ORDER BY object_key").toArray().map((r) => r.object_key));

describe("POST /api/manage/v1/media/{id}/remove", () => {
  it("refuses a JSON array as its closed body (400), removing nothing; a settings body with an array for an object is refused too", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await uploadPng(token, "array body");
    const refused = await remove<ErrBody>(token, item.id, []);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
    expect(await mediaRows(s.site.id)).toBe(1);
    const settings = await manage<ErrBody>(token, "PUT", "/settings", { body: { media: [] } });
    expect(settings.status).toBe(400);
    expect(settings.body.error.code).toBe("invalid_request");
  });

  it("removes the item's originals by language with it: their rows and their R2 objects", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await uploadPng(token, "with an original");
    const original = await setOriginal<{ original: { id: string } }>(token, item.id, "fr", { bytes: png(4, 4, "fr"), name: "fr.png" }, { expected_object_id: "" });
    expect(original.status).toBe(201);
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item), `${s.site.id}/${item.id}/${original.body.original.id}`].sort());

    const removed = await remove(token, item.id);
    expect(removed.status).toBe(200);
    expect(removed.body.storage_cleanup).toBe("complete");
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await count(s, "SELECT count(*) AS n FROM media_originals WHERE site_id = ?")).toBe(0);
    expect(await count(s, "SELECT count(*) AS n FROM media_objects WHERE site_id = ?")).toBe(0);
  });

  it("removes an unused file: row, ledger and every R2 object it had (current and replaced) gone; 404, unlisted, folder counts drop; audit and event; an entry naming it is refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const folder = (await manage<{ folder: { id: string } }>(token, "POST", "/media/folders", { body: { name: "Photos" } })).body.folder.id;
    const first = (await uploadMedia(token, { bytes: png(2, 2, "one"), name: "one.png" }, { folder_id: folder })).body.media;
    const kept = await uploadPng(token, "kept");
    const replaced = await replaceMedia(token, first.id, { bytes: png(3, 3, "two"), name: "two.png" });
    expect(replaced.status).toBe(200);
    const item = replaced.body.media;
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, first), keyOf(s, item), keyOf(s, kept)].sort());
    expect((await manage<Tree>(token, "GET", "/media/folders")).body.folders[0]?.media_count).toBe(1);

    const removed = await remove(token, item.id, { expected_revision: 1 });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ media: { ...item }, storage_cleanup: "complete" });
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, kept)]);
    expect(await count(s, `SELECT count(*) AS n FROM media_objects WHERE site_id = ? AND media_id = '${item.id}'`)).toBe(0);
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await cleanupNotes(s)).toEqual([]);

    expect((await manage<ErrBody>(token, "GET", `/media/${item.id}`)).status).toBe(404);
    expect((await manage<{ data: { id: string }[] }>(token, "GET", "/media")).body.data.map((m) => m.id)).toEqual([kept.id]);
    const tree = (await manage<Tree>(token, "GET", "/media/folders")).body;
    expect([tree.folders[0]?.media_count, tree.total]).toEqual([0, 1]);
    expect(await count(s, "SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'media.remove'")).toBe(1);
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'media.removed'").bind(s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ media_id: item.id, kind: "image", objects: 2 });

    const post = await mediaModel(s);
    const naming = await manage<ErrBody>(token, "POST", "/entries", { body: { model_id: post.id, fields: { title: "Late", cover: item.id } } });
    expect([naming.status, naming.body.error.code]).toEqual([422, "media_not_found"]);
    // A second remove is 404.
    expect((await remove<ErrBody>(token, item.id)).body.error.code).toBe("not_found");
  });

  it("refuses a file in use with 409 media_in_use and the usage fields, deleting nothing — also when only a Trash entry or a published version uses it", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    const entry = await createEntry(token, post, { title: "Uses", body: `<img src="/media/${a.id}/a.png">` });
    const refused = await remove<ErrBody & { error: UsageBody }>(token, a.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "media_in_use", used_by: [{ instance_id: entry.instance_id }], hidden: 0, at_least: 1, total: 1, more: false, unreadable: false });
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, a)]);
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await count(s, "SELECT count(*) AS n FROM media_objects WHERE site_id = ?")).toBe(1);
    expect(await count(s, "SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'media.remove'")).toBe(0);
    expect(await cleanupNotes(s)).toEqual([]);

    expect((await manage(token, "POST", `/entries/${entry.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect((await remove<ErrBody>(token, a.id)).body.error).toMatchObject({ code: "media_in_use", used_by: [{ in_trash: true }] });

    const b = await uploadPng(token, "b");
    const pub = await createEntry(token, post, { title: "Pub", cover: b.id });
    const published = await manage<{ current_version_id: string }>(token, "POST", `/entries/${pub.instance_id}/publish`, { body: {} });
    expect(published.status).toBe(200);
    expect((await manage(token, "PUT", `/entries/${pub.instance_id}`, { body: { expected_version_id: published.body.current_version_id, fields: { cover: null } } })).status).toBe(200);
    expect((await remove<ErrBody>(token, b.id)).body.error).toMatchObject({ code: "media_in_use", used_by: [{ current: false, published: true }] });
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, a), keyOf(s, b)].sort());
  });

  it("refuses with 409 media_usage_unreadable when the caller may read no content and the file is used; an unused file is removed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    const b = await uploadPng(token, "b");
    await createEntry(token, post, { title: "X", gallery: [a.id] });
    await changeAdminRole(s, (p) => ({ ...p, models: {} }));
    const refused = await remove<ErrBody>(token, a.id);
    expect([refused.status, refused.body.error.code, refused.body.error.unreadable]).toEqual([409, "media_usage_unreadable", true]);
    expect(refused.body.error.used_by).toBeUndefined();
    expect(await mediaRows(s.site.id)).toBe(2);
    expect((await remove(token, b.id)).status).toBe(200);
  });

  it("needs media:delete (403 missing_permission) and the media:write scope; another site's file or an unknown id is 404; a stale revision is 409 media_changed; the body is closed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await uploadPng(token, "a");
    const readOnly = await credential(s, ["content:read"]);
    expect((await remove<ErrBody>(readOnly, a.id)).body.error.code).toBe("insufficient_scope");
    await changeAdminRole(s, (p) => ({ ...p, system: (p.system as string[]).filter((x) => x !== "media:delete") }));
    const denied = await remove<ErrBody>(token, a.id);
    expect([denied.status, denied.body.error.code, denied.body.error.permission]).toEqual([403, "missing_permission", "media:delete"]);
    // Asked before anything about the item is told.
    expect((await remove<ErrBody>(token, "med_nope")).body.error.code).toBe("missing_permission");
    await changeAdminRole(s, (p) => ({ ...p, system: [...(p.system as string[]), "media:delete"] }));

    const other = await seedSite();
    const foreign = await uploadPng(await credential(other), "foreign");
    for (const id of [foreign.id, "med_nope"]) {
      const res = await remove<ErrBody>(token, id);
      expect([res.status, res.body.error.code]).toEqual([404, "not_found"]);
    }
    expect(await storedKeys(other.site.id)).toEqual([keyOf(other, foreign)]);

    const stale = await remove<ErrBody>(token, a.id, { expected_revision: 7 });
    expect([stale.status, stale.body.error.code, stale.body.error.current_revision]).toEqual([409, "media_changed", 0]);
    for (const body of [{ expected_revision: -1 }, { expected_revision: "0" }, { force: true }]) {
      expect((await remove<ErrBody>(token, a.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, a)]);
  });

  it("replays a committed remove (same key) with replayed: true, also when its answer was lost, instead of 404", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await uploadPng(token, "a");
    const key = newKey();
    const first = await remove(token, a.id, {}, key);
    expect(first.status).toBe(200);
    const again = await remove(token, a.id, {}, key);
    expect([again.status, again.body]).toEqual([200, { ...first.body, replayed: true }]);

    // The answer lost: the claim still pending in the site's object, the batch committed in D1.
    const changed = await runInDurableObject(env.SITE.getByName(s.site.id), (_o, state) =>
      state.storage.sql.exec("UPDATE ledger_claims SET state = 'pending', status = NULL, body = NULL, completed_at = NULL WHERE key = ?", key).rowsWritten,
    );
    expect(changed).toBe(1);
    const lost = await remove(token, a.id, {}, key);
    expect([lost.status, lost.body]).toEqual([200, { ...first.body, replayed: true }]);
    expect(await count(s, "SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'media.remove'")).toBe(1);
    // Another key is a new request: the item is gone.
    expect((await remove<ErrBody>(token, a.id)).body.error.code).toBe("not_found");
  });

  it("a committed replace of an item removed since replays (not 404); a new replace of it is 404", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await uploadPng(token, "a");
    const file = { bytes: png(4, 4, "new"), name: "new.png" };
    const key = newKey();
    const replaced = await replaceMedia(token, a.id, file, {}, { key });
    expect(replaced.status).toBe(200);
    expect((await remove(token, a.id)).status).toBe(200);
    const retry = await replaceMedia(token, a.id, file, {}, { key });
    expect([retry.status, retry.body]).toEqual([200, { ...replaced.body, replayed: true }]);
    const fresh = await replaceMedia<ErrBody>(token, a.id, file);
    expect([fresh.status, fresh.body.error.code]).toEqual([404, "not_found"]);
    expect(await storedKeys(s.site.id)).toEqual([]);
  });

  it("answers storage_cleanup: pending when a delete fails after the commit, and the site's alarm finishes the deletes", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await uploadPng(token, "a");
    const b = (await replaceMedia(token, a.id, { bytes: png(5, 5, "b"), name: "b.png" })).body.media;
    const keys = [keyOf(s, a), keyOf(s, b)].sort();
    // Fault: the check each delete makes first (is the key pinned by a published item?) fails.
    await env.DB.prepare("ALTER TABLE published_media RENAME TO published_media_away").run();
    const key = newKey();
    let pending;
    try {
      pending = await remove(token, a.id, {}, key);
      expect(pending.body).toMatchObject({ storage_cleanup: "pending", media: { id: a.id } });
      expect((await remove(token, a.id, {}, key)).body).toMatchObject({ storage_cleanup: "pending", replayed: true });
    } finally {
      await env.DB.prepare("ALTER TABLE published_media_away RENAME TO published_media").run();
    }
    expect(pending.status).toBe(200);
    expect(await mediaRows(s.site.id)).toBe(0);
    expect((await storedKeys(s.site.id)).sort()).toEqual(keys);
    expect(await cleanupNotes(s)).toEqual(keys);

    expect(await runDurableObjectAlarm(env.SITE.getByName(s.site.id))).toBe(true);
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await cleanupNotes(s)).toEqual([]);
    expect((await remove(token, a.id, {}, key)).body).toMatchObject({ storage_cleanup: "complete", replayed: true });
    expect((await usageOf<ErrBody>(token, a.id)).status).toBe(404);
  });

  it("leaves objects a committed row still names when the removal did not commit", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const a = await uploadPng(token, "a");
    await env.DB.prepare("CREATE TRIGGER media_remove_fault BEFORE DELETE ON media BEGIN SELECT RAISE(ABORT, 'injected fault'); END").run();
    try {
      expect((await remove<ErrBody>(token, a.id)).status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER media_remove_fault").run();
    }
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await runDurableObjectAlarm(env.SITE.getByName(s.site.id))).toBe(true);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, a)]);
    expect(await cleanupNotes(s)).toEqual([]);
    expect((await manage(token, "GET", `/media/${a.id}`)).status).toBe(200);
  });
});
