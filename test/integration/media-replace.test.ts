import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { replaceMedia, storedKeys, uploadMedia, type ErrBody, type MediaItemBody } from "../helpers/media-api";
import { elf, html, jpeg, pdf, png } from "../helpers/media-samples";

type Item = MediaItemBody & { revision: number; updated_at: string; created_at: string };
type Answer = { media: Item; replayed?: true; unchanged?: true };

async function upload(token: string, bytes: Uint8Array, name: string, fields: Record<string, string> = {}): Promise<Item> {
  const up = await uploadMedia(token, { bytes, name }, fields);
  expect(up.status).toBe(201);
  return up.body.media as Item;
}

async function count(s: SeededSite, table: "audit_log" | "outbox_events", column: "action" | "name", value: string): Promise<number> {
  const r = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = ? AND ${column} = ?`).bind(s.site.id, value).first<{ n: number }>();
  return r?.n ?? 0;
}

const keyOf = (s: SeededSite, item: { id: string; object_id: string }) => `${s.site.id}/${item.id}/${item.object_id}`;

describe("POST /api/manage/v1/media/{id}/replace", () => {
  it("keeps id, alt texts, folder and framing; changes object, bytes, dimensions, name and url; keeps the old object; writes audit and event; a replay answers the first answer and removes its own object", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const folder = await manage<{ folder: { id: string } }>(token, "POST", "/media/folders", { body: { name: "Photos" } });
    expect(folder.status).toBe(201);
    const original = await upload(token, png(3, 2, "old"), "old.png", { alt_texts: JSON.stringify({ en: "The sea" }), folder_id: folder.body.folder.id });
    const framed = await manage<Answer>(token, "PUT", `/media/${original.id}`, { body: { default_focal: { x: 0.25, y: 0.75 }, loading: "eager" } });
    expect(framed.status).toBe(200);

    const bytes = jpeg(40, 30);
    const key = newKey();
    const replaced = await replaceMedia<Answer>(token, original.id, { bytes, name: "new photo.jpg" }, { expected_revision: "1" }, { key });
    expect(replaced.status).toBe(200);
    const item = replaced.body.media;
    expect(replaced.body.unchanged).toBeUndefined();
    expect(item).toMatchObject({
      id: original.id,
      kind: "image",
      file_name: "new photo.jpg",
      mime_type: "image/jpeg",
      byte_length: bytes.byteLength,
      sha256: await sha256Hex(bytes),
      width: 40,
      height: 30,
      alt_texts: { en: "The sea" },
      default_focal: { x: 0.25, y: 0.75 },
      loading: "eager",
      folder_id: folder.body.folder.id,
      revision: 2,
      url: `/media/${original.id}/${item.object_id}/new%20photo.jpg`,
      created_at: original.created_at,
    });
    expect(item.object_id).not.toBe(original.object_id);
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, original), keyOf(s, item)].sort());
    expect(await (await env.MEDIA.get(keyOf(s, item)))?.text()).toBe(new TextDecoder().decode(bytes));
    // The object ledger knows both files in the replace's own batch, so a removal never lists R2.
    const ledger = await env.DB.prepare("SELECT object_key, role, media_id FROM media_objects WHERE site_id = ? ORDER BY created_at, object_key").bind(s.site.id).all();
    expect(ledger.results.map((r) => r.object_key).sort()).toEqual([keyOf(s, original), keyOf(s, item)].sort());
    expect(ledger.results.every((r) => r.role === "file" && r.media_id === original.id)).toBe(true);
    const read = await manage<Answer>(token, "GET", `/media/${original.id}`);
    expect(read.body.media).toEqual(item);

    expect(await count(s, "audit_log", "action", "media.replace")).toBe(1);
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'media.replaced'").bind(s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ media_id: original.id, kind: "image", revision: 2, object_id: item.object_id, previous_object_id: original.object_id });

    const replay = await replaceMedia<Answer>(token, original.id, { bytes, name: "new photo.jpg" }, { expected_revision: "1" }, { key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...replaced.body, replayed: true });
    expect((await storedKeys(s.site.id)).length).toBe(2);
    expect(await count(s, "audit_log", "action", "media.replace")).toBe(1);
  });

  it("refuses another kind (409 media_kind_mismatch), a program (422), markup (415) and a stale expected_revision (409 media_changed), storing and writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const original = await upload(token, png(2, 2, "keep"), "keep.png");
    const before = await manage<Answer>(token, "GET", `/media/${original.id}`);

    const kind = await replaceMedia<ErrBody>(token, original.id, { bytes: pdf("doc"), name: "doc.pdf" });
    expect([kind.status, kind.body.error.code, kind.body.error.kind, kind.body.error.found]).toEqual([409, "media_kind_mismatch", "image", "document"]);
    const program = await replaceMedia<ErrBody>(token, original.id, { bytes: elf(), name: "x.png" });
    expect([program.status, program.body.error.code]).toEqual([422, "executable_file"]);
    const markup = await replaceMedia<ErrBody>(token, original.id, { bytes: html(), name: "page.png" });
    expect([markup.status, markup.body.error.code]).toEqual([415, "unsupported_media_type"]);
    const stale = await replaceMedia<ErrBody>(token, original.id, { bytes: png(5, 5, "stale"), name: "s.png" }, { expected_revision: "3" });
    expect([stale.status, stale.body.error.code, stale.body.error.current_revision]).toEqual([409, "media_changed", 0]);
    const unknownField = await replaceMedia<ErrBody>(token, original.id, { bytes: png(5, 5, "field"), name: "s.png" }, { alt_texts: "{}" });
    expect([unknownField.status, unknownField.body.error.code]).toEqual([400, "invalid_request"]);

    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, original)]);
    expect((await manage<Answer>(token, "GET", `/media/${original.id}`)).body).toEqual(before.body);
    expect(await count(s, "audit_log", "action", "media.replace")).toBe(0);
    expect(await count(s, "outbox_events", "name", "media.replaced")).toBe(0);
  });

  it("needs media:update (403) and answers 404 not_found for another site's id or an unknown one", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const token = await credential(s);
    const otherItem = await upload(await credential(other), png(1, 1, "other"), "o.png");
    const mine = await upload(token, png(1, 1, "mine"), "m.png");

    const foreign = await replaceMedia<ErrBody>(token, otherItem.id, { bytes: png(4, 4, "x"), name: "x.png" });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "not_found"]);
    const unknown = await replaceMedia<ErrBody>(token, "med_unknown", { bytes: png(4, 4, "x"), name: "x.png" });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "not_found"]);

    await changeAdminRole(s, (p) => ({ ...p, system: ((p.system as string[]) ?? []).filter((x) => x !== "media:update") }));
    // Asked before the item is looked up: another site's id tells nothing either.
    const denied = await replaceMedia<ErrBody>(token, otherItem.id, { bytes: png(4, 4, "x"), name: "x.png" });
    expect([denied.status, denied.body.error.code]).toEqual([403, "missing_permission"]);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, mine)]);
    expect(await storedKeys(other.site.id)).toEqual([keyOf(other, otherItem)]);
  });

  it("answers the item's own current bytes 200 with unchanged: true, keeping its revision and object; another item's bytes are allowed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bytes = png(2, 2, "same");
    const item = await upload(token, bytes, "same.png");
    const same = await replaceMedia<Answer>(token, item.id, { bytes, name: "renamed.png" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ media: item, unchanged: true });
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item)]);
    expect(await count(s, "outbox_events", "name", "media.replaced")).toBe(0);

    const second = await upload(token, png(1, 1, "second"), "second.png");
    const dup = await replaceMedia<Answer>(token, second.id, { bytes, name: "copy.png" });
    expect(dup.status).toBe(200);
    expect(dup.body.media).toMatchObject({ id: second.id, sha256: item.sha256, revision: 1 });
  });

  it("deletes the new object when the batch does not commit; a committed replace whose answer was lost is replayed and the retry's object deleted", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "base"), "base.png");
    const file = { bytes: png(6, 6, "fault"), name: "f.png" };
    const key = newKey();
    await env.DB.prepare("CREATE TRIGGER media_replace_fault BEFORE UPDATE ON media BEGIN SELECT RAISE(ABORT, 'injected fault'); END").run();
    try {
      const failed = await replaceMedia<ErrBody>(token, item.id, file, {}, { key });
      expect(failed.status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER media_replace_fault").run();
    }
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item)]);
    expect((await manage<Answer>(token, "GET", `/media/${item.id}`)).body.media.revision).toBe(0);

    const first = await replaceMedia<Answer>(token, item.id, file, {}, { key });
    expect(first.status).toBe(200);
    expect(first.body.replayed).toBeUndefined();
    const changed = await runInDurableObject(env.SITE.getByName(s.site.id), (_object, state) =>
      state.storage.sql.exec("UPDATE ledger_claims SET state = 'pending', status = NULL, body = NULL, completed_at = NULL WHERE key = ?", key).rowsWritten,
    );
    expect(changed).toBe(1);
    const retry = await replaceMedia<Answer>(token, item.id, file, {}, { key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ...first.body, replayed: true });
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item), keyOf(s, first.body.media)].sort());
  });
});

describe("replace against hostile names and dimensions (issue #10 probe)", () => {
  it("cuts a long new file name without splitting an emoji, drops bidi controls, and refuses Windows name tricks and aspectRatio overflows", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const original = await upload(token, png(3, 2, "probe-old"), "old.png");
    const long = `${"a".repeat(254)}\u{1F600}`;
    const replaced = await replaceMedia<Answer & Partial<ErrBody>>(token, original.id, { bytes: png(5, 4, "probe-new"), name: long }, { expected_revision: "0" });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.media.file_name).toBe("a".repeat(254));
    expect((await manage(token, "GET", `/media/${original.id}`)).status).toBe(200);

    const bidi = await replaceMedia<Answer & Partial<ErrBody>>(token, original.id, { bytes: png(6, 4, "probe-bidi"), name: "photo\u202Egnp.exe" }, { expected_revision: "1" });
    expect([bidi.status, bidi.body.error?.code, bidi.body.error?.reason]).toEqual([422, "executable_file", "extension"]);
    const bidiSafe = await replaceMedia<Answer & Partial<ErrBody>>(token, original.id, { bytes: png(6, 4, "probe-bidi2"), name: "photo\u202Eab.png" }, { expected_revision: "1" });
    expect([bidiSafe.status, bidiSafe.body.media?.file_name]).toEqual([200, "photoab.png"]);

    for (const name of ["x.exe.", "x.exe::$DATA", "x.bat . "]) {
      const r = await replaceMedia<Answer & Partial<ErrBody>>(token, original.id, { bytes: png(7, 4, name), name }, { expected_revision: "2" });
      expect([r.status, r.body.error?.code, r.body.error?.reason], name).toEqual([422, "executable_file", "extension"]);
    }
    const ratio = await replaceMedia<Answer & Partial<ErrBody>>(token, original.id, { bytes: png(7, 4, "ratio"), name: "r.png" }, { expected_revision: "2", width: "99999", aspectRatio: "0.000001" });
    expect([ratio.status, ratio.body.error?.code, ratio.body.error?.field]).toEqual([400, "invalid_request", "aspectRatio"]);
    expect(await count(s, "outbox_events", "name", "media.replaced")).toBe(2);
  });
});
