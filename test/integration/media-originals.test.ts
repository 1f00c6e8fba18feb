import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { defaultOriginalOf, originalFor, originalsOf } from "../../shared/services/media/originals";
import { mediaRepository } from "../../shared/repositories/media-repository";
import { localeChain } from "../../shared/content/site-settings";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { setOriginal, storedKeys, uploadMedia, type ErrBody, type MediaItemBody } from "../helpers/media-api";
import { concat, elf, html, jpeg, pdf, png, svg, zip } from "../helpers/media-samples";

type Original = { id: string; lang: string | null; url: string | null; file_name: string; mime_type: string; byte_length: number; sha256: string; width: number | null; height: number | null };
type SetAnswer = { media_id: string; original: Original; previous_object_id: string | null; replayed?: true };
type RemoveAnswer = { media_id: string; removed: Original; replayed?: true };
type ListAnswer = { media_id: string; originals: Original[]; by_language: { lang: string; id: string; from_lang: string | null }[] };

async function upload(token: string, bytes: Uint8Array, name: string): Promise<MediaItemBody> {
  const up = await uploadMedia(token, { bytes, name });
  expect(up.status).toBe(201);
  return up.body.media;
}

async function count(s: SeededSite, table: "audit_log" | "outbox_events", column: "action" | "name", value: string): Promise<number> {
  const r = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = ? AND ${column} = ?`).bind(s.site.id, value).first<{ n: number }>();
  return r?.n ?? 0;
}

async function overrideRows(s: SeededSite): Promise<number> {
  const r = await env.DB.prepare("SELECT count(*) AS n FROM media_originals WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
  return r?.n ?? 0;
}

const keyOf = (s: SeededSite, mediaId: string, objectId: string) => `${s.site.id}/${mediaId}/${objectId}`;
const list = (token: string, id: string) => manage<ListAnswer>(token, "GET", `/media/${id}/originals`);
const remove = <T = RemoveAnswer>(token: string, id: string, lang: string, body: unknown, key?: string) =>
  manage<T>(token, "DELETE", `/media/${id}/originals/${lang}`, { body, ...(key ? { key } : {}) });

describe("originalFor (spec 2 rule 7)", () => {
  const overrides = new Map([
    ["fr", "fr-file"],
    ["de", "de-file"],
  ]);
  it("takes the language's own override first", () => {
    expect(originalFor(["fr", "de", "en"], overrides, "default")).toEqual({ original: "fr-file", from_lang: "fr" });
  });
  it("follows the chain in order for a language without an override", () => {
    expect(originalFor(["es", "de", "fr", "en"], overrides, "default")).toEqual({ original: "de-file", from_lang: "de" });
    expect(originalFor(["es", "fr", "de", "en"], overrides, "default")).toEqual({ original: "fr-file", from_lang: "fr" });
  });
  it("ends at the default original when no language of the chain has one", () => {
    expect(originalFor(["es", "en"], overrides, "default")).toEqual({ original: "default", from_lang: null });
    expect(originalFor([], overrides, "default")).toEqual({ original: "default", from_lang: null });
    expect(originalFor(["fr"], new Map<string, string>(), "default")).toEqual({ original: "default", from_lang: null });
  });
});

describe("PUT /api/manage/v1/media/{id}/originals/{lang}", () => {
  it("creates the first override with an empty pointer (201) under a new key of the item, in the ledger, with event and audit; replaces it with the current pointer (200) keeping the old object", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(4, 3, "default"), "sea.png");

    const frBytes = jpeg(40, 30);
    const first = await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: frBytes, name: "mer.jpg" }, { expected_object_id: "" });
    expect(first.status).toBe(201);
    const fr = first.body.original;
    expect(first.body).toMatchObject({ media_id: item.id, previous_object_id: null });
    expect(fr).toEqual({
      id: fr.id,
      lang: "fr",
      url: null,
      file_name: "mer.jpg",
      mime_type: "image/jpeg",
      byte_length: frBytes.byteLength,
      sha256: await sha256Hex(frBytes),
      width: 40,
      height: 30,
    });
    expect(fr.id).toMatch(/^obj_/);
    expect(fr.id).not.toBe(item.object_id);
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item.id, item.object_id), keyOf(s, item.id, fr.id)].sort());
    expect(await (await env.MEDIA.get(keyOf(s, item.id, fr.id)))?.text()).toBe(new TextDecoder().decode(frBytes));
    expect((await env.MEDIA.head(keyOf(s, item.id, fr.id)))?.httpMetadata?.contentType).toBe("image/jpeg");

    const ledger = await env.DB.prepare("SELECT object_key, media_id, role, lang, byte_length, mime_type FROM media_objects WHERE site_id = ? AND role = 'original'").bind(s.site.id).all();
    expect(ledger.results).toEqual([{ object_key: keyOf(s, item.id, fr.id), media_id: item.id, role: "original", lang: "fr", byte_length: frBytes.byteLength, mime_type: "image/jpeg" }]);
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'media.original.updated'").bind(s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ media_id: item.id, lang: "fr", object_id: fr.id, previous_object_id: null });
    expect(await count(s, "audit_log", "action", "media.original.update")).toBe(1);
    // The item itself is unchanged: an original by language is not a replace.
    const read = await manage<{ media: MediaItemBody & { revision: number } }>(token, "GET", `/media/${item.id}`);
    expect(read.body.media).toMatchObject({ object_id: item.object_id, revision: 0, sha256: item.sha256 });

    const second = await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: png(8, 6, "fr two"), name: "mer 2.png" }, { expected_object_id: fr.id });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ media_id: item.id, previous_object_id: fr.id, original: { lang: "fr", file_name: "mer 2.png", mime_type: "image/png", width: 8, height: 6 } });
    const fr2 = second.body.original;
    // The superseded object stays in R2 and in the ledger (published content may pin it).
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item.id, item.object_id), keyOf(s, item.id, fr.id), keyOf(s, item.id, fr2.id)].sort());
    const ledgerKeys = await env.DB.prepare("SELECT object_key FROM media_objects WHERE site_id = ? AND role = 'original' ORDER BY object_key").bind(s.site.id).all();
    expect(ledgerKeys.results.map((r) => r.object_key)).toEqual([keyOf(s, item.id, fr.id), keyOf(s, item.id, fr2.id)].sort());
    expect(await overrideRows(s)).toBe(1);
    expect(await count(s, "outbox_events", "name", "media.original.updated")).toBe(2);

    const listed = await list(token, item.id);
    expect(listed.status).toBe(200);
    expect(listed.body.media_id).toBe(item.id);
    expect(listed.body.originals).toEqual([
      { id: item.object_id, lang: null, url: null, file_name: "sea.png", mime_type: "image/png", byte_length: item.byte_length, sha256: item.sha256, width: 4, height: 3 },
      fr2,
    ]);
    expect(listed.body.by_language).toEqual([
      { lang: "en", id: item.object_id, from_lang: null },
      { lang: "fr", id: fr2.id, from_lang: "fr" },
    ]);
  });

  it("answers 409 media_changed for a stale pointer both ways (empty when one exists, non-empty when none, another id), storing and writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "item"), "item.png");

    const noneYet = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "a"), name: "a.png" }, { expected_object_id: "obj_invented" });
    expect([noneYet.status, noneYet.body.error.code, noneYet.body.error.current_object_id]).toEqual([409, "media_changed", null]);
    // The item's own file is not the language's override either.
    const itemPointer = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "a"), name: "a.png" }, { expected_object_id: item.object_id });
    expect([itemPointer.status, itemPointer.body.error.code]).toEqual([409, "media_changed"]);
    const missing = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "a"), name: "a.png" }, {});
    expect([missing.status, missing.body.error.code]).toEqual([400, "invalid_request"]);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item.id, item.object_id)]);

    const first = await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: png(3, 3, "b"), name: "b.png" }, { expected_object_id: "" });
    expect(first.status).toBe(201);
    const current = first.body.original.id;
    const keysBefore = (await storedKeys(s.site.id)).sort();

    const emptyAgain = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "c"), name: "c.png" }, { expected_object_id: "" });
    expect([emptyAgain.status, emptyAgain.body.error.code, emptyAgain.body.error.current_object_id]).toEqual([409, "media_changed", current]);
    const other = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "d"), name: "d.png" }, { expected_object_id: "obj_other" });
    expect([other.status, other.body.error.code, other.body.error.current_object_id]).toEqual([409, "media_changed", current]);
    // Another language's pointer is not this language's.
    const second = await setOriginal<SetAnswer>(token, item.id, "en", { bytes: png(3, 3, "e"), name: "e.png" }, { expected_object_id: "" });
    expect(second.status).toBe(201);
    const crossed = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "f"), name: "f.png" }, { expected_object_id: second.body.original.id });
    expect([crossed.status, crossed.body.error.code, crossed.body.error.current_object_id]).toEqual([409, "media_changed", current]);

    expect((await storedKeys(s.site.id)).sort()).toEqual([...keysBefore, keyOf(s, item.id, second.body.original.id)].sort());
    expect(await count(s, "outbox_events", "name", "media.original.updated")).toBe(2);
    expect(await count(s, "audit_log", "action", "media.original.update")).toBe(2);
    const fr = (await list(token, item.id)).body.originals.find((o) => o.lang === "fr");
    expect(fr?.id).toBe(current);
  });

  it("refuses a program (422), markup (415), a format the site does not allow (415) and another kind (409 media_kind_mismatch), storing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "checks"), "checks.png");

    const program = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: elf(), name: "x.png" }, { expected_object_id: "" });
    expect([program.status, program.body.error.code]).toEqual([422, "executable_file"]);
    const byName = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(2, 2, "n"), name: "run.exe" }, { expected_object_id: "" });
    expect([byName.status, byName.body.error.code]).toEqual([422, "executable_file"]);
    const markup = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: html(), name: "page.png" }, { expected_object_id: "" });
    expect([markup.status, markup.body.error.code]).toEqual([415, "unsupported_media_type"]);
    const vector = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: svg(), name: "v.svg" }, { expected_object_id: "" });
    expect([vector.status, vector.body.error.code]).toEqual([415, "unsupported_media_type"]);
    const archive = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: zip("a.txt", new TextEncoder().encode("hi")), name: "a.zip" }, { expected_object_id: "" });
    expect([archive.status, archive.body.error.code, archive.body.error.reason]).toEqual([415, "unsupported_media_type", "format_not_allowed"]);
    const kind = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: pdf("doc"), name: "doc.pdf" }, { expected_object_id: "" });
    expect([kind.status, kind.body.error.code, kind.body.error.kind, kind.body.error.found]).toEqual([409, "media_kind_mismatch", "image", "document"]);
    const noFile = await setOriginal<ErrBody>(token, item.id, "fr", null, { expected_object_id: "" });
    expect([noFile.status, noFile.body.error.code]).toEqual([400, "invalid_request"]);

    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item.id, item.object_id)]);
    expect(await overrideRows(s)).toBe(0);
    expect(await count(s, "audit_log", "action", "media.original.update")).toBe(0);
    const ledger = await env.DB.prepare("SELECT count(*) AS n FROM media_objects WHERE site_id = ? AND role = 'original'").bind(s.site.id).first<{ n: number }>();
    expect(ledger?.n).toBe(0);
  });

  it("refuses a file over 32 MiB (413 payload_too_large), storing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "big"), "big.png");
    const huge = concat(png(1, 1, "huge"), new Uint8Array(32 * 1024 * 1024 + 1));
    const over = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: huge, name: "huge.png" }, { expected_object_id: "" });
    expect([over.status, over.body.error.code, over.body.error.max]).toEqual([413, "payload_too_large", 32 * 1024 * 1024]);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item.id, item.object_id)]);
    expect(await overrideRows(s)).toBe(0);
  });

  it("answers 422 unknown_locale for a language the site does not have (PUT and DELETE), storing nothing", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "lang"), "lang.png");
    const put = await setOriginal<ErrBody>(token, item.id, "de", { bytes: png(3, 3, "de"), name: "de.png" }, { expected_object_id: "" });
    expect([put.status, put.body.error.code, put.body.error.languages]).toEqual([422, "unknown_locale", ["de"]]);
    const cased = await setOriginal<ErrBody>(token, item.id, "FR", { bytes: png(3, 3, "FR"), name: "fr.png" }, { expected_object_id: "" });
    expect([cased.status, cased.body.error.code]).toEqual([422, "unknown_locale"]);
    const del = await remove<ErrBody>(token, item.id, "de", { expected_object_id: "obj_x" });
    expect([del.status, del.body.error.code]).toEqual([422, "unknown_locale"]);
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item.id, item.object_id)]);
  });

  it("needs scope media:write and the creator's media:update (403, asked before the item); another site's or an unknown item is 404", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const token = await credential(s);
    const otherToken = await credential(other);
    const mine = await upload(token, png(2, 2, "mine"), "mine.png");
    const theirs = await upload(otherToken, png(2, 2, "theirs"), "theirs.png");
    const theirFr = await setOriginal<SetAnswer>(otherToken, theirs.id, "fr", { bytes: png(3, 3, "their fr"), name: "t.png" }, { expected_object_id: "" });
    expect(theirFr.status).toBe(201);

    for (const id of [theirs.id, "med_unknown"]) {
      const put = await setOriginal<ErrBody>(token, id, "fr", { bytes: png(3, 3, "x"), name: "x.png" }, { expected_object_id: "" });
      expect([put.status, put.body.error.code]).toEqual([404, "not_found"]);
      const del = await remove<ErrBody>(token, id, "fr", { expected_object_id: theirFr.body.original.id });
      expect([del.status, del.body.error.code]).toEqual([404, "not_found"]);
      const get = await list(token, id);
      expect(get.status).toBe(404);
      expect((get.body as unknown as ErrBody).error.code).toBe("not_found");
    }

    const readOnly = await credential(s, ["content:read"]);
    const scoped = await setOriginal<ErrBody>(readOnly, mine.id, "fr", { bytes: png(3, 3, "x"), name: "x.png" }, { expected_object_id: "" });
    expect([scoped.status, scoped.body.error.code]).toEqual([403, "insufficient_scope"]);
    const scopedDel = await remove<ErrBody>(readOnly, mine.id, "fr", { expected_object_id: "obj_x" });
    expect([scopedDel.status, scopedDel.body.error.code]).toEqual([403, "insufficient_scope"]);
    expect((await list(readOnly, mine.id)).status).toBe(200);

    await changeAdminRole(s, (p) => ({ ...p, system: ((p.system as string[]) ?? []).filter((x) => x !== "media:update") }));
    const denied = await setOriginal<ErrBody>(token, theirs.id, "fr", { bytes: png(3, 3, "x"), name: "x.png" }, { expected_object_id: "" });
    expect([denied.status, denied.body.error.code, denied.body.error.permission]).toEqual([403, "missing_permission", "media:update"]);
    const deniedMine = await setOriginal<ErrBody>(token, mine.id, "fr", { bytes: png(3, 3, "x"), name: "x.png" }, { expected_object_id: "" });
    expect([deniedMine.status, deniedMine.body.error.code]).toEqual([403, "missing_permission"]);
    const deniedDel = await remove<ErrBody>(token, mine.id, "fr", { expected_object_id: "obj_x" });
    expect([deniedDel.status, deniedDel.body.error.code]).toEqual([403, "missing_permission"]);

    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, mine.id, mine.object_id)]);
    expect((await storedKeys(other.site.id)).sort()).toEqual([keyOf(other, theirs.id, theirs.object_id), keyOf(other, theirs.id, theirFr.body.original.id)].sort());
    expect(await overrideRows(other)).toBe(1);
  });

  it("replays a committed PUT (same key) with replayed: true and deletes the retry's own object; a lost answer is replayed from what was committed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "replay"), "replay.png");
    const file = { bytes: png(5, 5, "fr"), name: "fr.png" };
    const key = newKey();

    const first = await setOriginal<SetAnswer>(token, item.id, "fr", file, { expected_object_id: "" }, { key });
    expect(first.status).toBe(201);
    const replay = await setOriginal<SetAnswer>(token, item.id, "fr", file, { expected_object_id: "" }, { key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item.id, item.object_id), keyOf(s, item.id, first.body.original.id)].sort());

    // The same key with another body is refused, and its object removed.
    const reused = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(6, 6, "other"), name: "o.png" }, { expected_object_id: "" }, { key });
    expect([reused.status, reused.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    expect((await storedKeys(s.site.id)).length).toBe(2);

    // The answer was lost after the commit: the claim is pending again, the retry is answered from D1.
    const lostKey = newKey();
    const en = await setOriginal<SetAnswer>(token, item.id, "en", { bytes: png(7, 7, "en"), name: "en.png" }, { expected_object_id: "" }, { key: lostKey });
    expect(en.status).toBe(201);
    const changed = await runInDurableObject(env.SITE.getByName(s.site.id), (_object, state) =>
      state.storage.sql.exec("UPDATE ledger_claims SET state = 'pending', status = NULL, body = NULL, completed_at = NULL WHERE key = ?", lostKey).rowsWritten,
    );
    expect(changed).toBe(1);
    const retry = await setOriginal<SetAnswer>(token, item.id, "en", { bytes: png(7, 7, "en"), name: "en.png" }, { expected_object_id: "" }, { key: lostKey });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ ...en.body, replayed: true });
    expect((await storedKeys(s.site.id)).length).toBe(3);
    expect(await count(s, "audit_log", "action", "media.original.update")).toBe(2);
    expect(await overrideRows(s)).toBe(2);
  });

  it("deletes the new object when the batch does not commit", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "fault"), "fault.png");
    await env.DB.prepare("CREATE TRIGGER media_originals_fault BEFORE INSERT ON media_originals BEGIN SELECT RAISE(ABORT, 'injected fault'); END").run();
    try {
      const failed = await setOriginal<ErrBody>(token, item.id, "fr", { bytes: png(3, 3, "f"), name: "f.png" }, { expected_object_id: "" });
      expect(failed.status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER media_originals_fault").run();
    }
    expect(await storedKeys(s.site.id)).toEqual([keyOf(s, item.id, item.object_id)]);
    expect(await overrideRows(s)).toBe(0);
  });
});

describe("DELETE /api/manage/v1/media/{id}/originals/{lang}", () => {
  it("needs a non-empty current pointer (400 / 409), removes the override row only (object kept in R2 and the ledger), with event and audit; the language falls back again", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "del"), "del.png");

    const none = await remove<ErrBody>(token, item.id, "fr", { expected_object_id: "obj_none" });
    expect([none.status, none.body.error.code, none.body.error.current_object_id]).toEqual([409, "media_changed", null]);

    const put = await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: png(3, 3, "fr"), name: "fr.png" }, { expected_object_id: "" });
    const fr = put.body.original;

    const empty = await remove<ErrBody>(token, item.id, "fr", { expected_object_id: "" });
    expect([empty.status, empty.body.error.code]).toEqual([400, "invalid_request"]);
    const absent = await remove<ErrBody>(token, item.id, "fr", {});
    expect([absent.status, absent.body.error.code]).toEqual([400, "invalid_request"]);
    const extra = await remove<ErrBody>(token, item.id, "fr", { expected_object_id: fr.id, force: true });
    expect([extra.status, extra.body.error.code]).toEqual([400, "invalid_request"]);
    const stale = await remove<ErrBody>(token, item.id, "fr", { expected_object_id: item.object_id });
    expect([stale.status, stale.body.error.code, stale.body.error.current_object_id]).toEqual([409, "media_changed", fr.id]);
    expect(await overrideRows(s)).toBe(1);

    const key = newKey();
    const removed = await remove(token, item.id, "fr", { expected_object_id: fr.id }, key);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ media_id: item.id, removed: fr });
    expect(await overrideRows(s)).toBe(0);
    expect((await storedKeys(s.site.id)).sort()).toEqual([keyOf(s, item.id, item.object_id), keyOf(s, item.id, fr.id)].sort());
    const ledger = await env.DB.prepare("SELECT count(*) AS n FROM media_objects WHERE site_id = ? AND object_key = ?").bind(s.site.id, keyOf(s, item.id, fr.id)).first<{ n: number }>();
    expect(ledger?.n).toBe(1);
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'media.original.removed'").bind(s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ media_id: item.id, lang: "fr", object_id: fr.id });
    expect(await count(s, "audit_log", "action", "media.original.remove")).toBe(1);

    const replay = await remove(token, item.id, "fr", { expected_object_id: fr.id }, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...removed.body, replayed: true });
    const again = await remove<ErrBody>(token, item.id, "fr", { expected_object_id: fr.id });
    expect([again.status, again.body.error.code, again.body.error.current_object_id]).toEqual([409, "media_changed", null]);
    expect(await count(s, "audit_log", "action", "media.original.remove")).toBe(1);

    const listed = await list(token, item.id);
    expect(listed.body.originals.map((o) => o.lang)).toEqual([null]);
    expect(listed.body.by_language.every((l) => l.id === item.object_id && l.from_lang === null)).toBe(true);

    // After a removal the language's first override again takes an empty pointer.
    const recreated = await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: png(4, 4, "fr again"), name: "fr.png" }, { expected_object_id: "" });
    expect(recreated.status).toBe(201);
  });
});

describe("GET /api/manage/v1/media/{id}/originals", () => {
  it("resolves each language of the site along the site's fallback order, then the default original", async () => {
    const s = await seedSite({ languages: ["en", "fr", "de", "es", "it"], settings: { locale_fallback: ["de", "fr"] } });
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "chain"), "chain.png");
    const put = async (lang: string, note: string) => {
      const r = await setOriginal<SetAnswer>(token, item.id, lang, { bytes: png(3, 3, note), name: `${lang}.png` }, { expected_object_id: "" });
      expect(r.status).toBe(201);
      return r.body.original.id;
    };

    const fr = await put("fr", "fr");
    let byLang = (await list(token, item.id)).body.by_language;
    // es has no override: de (none), then fr.
    expect(byLang).toEqual([
      { lang: "en", id: fr, from_lang: "fr" },
      { lang: "fr", id: fr, from_lang: "fr" },
      { lang: "de", id: fr, from_lang: "fr" },
      { lang: "es", id: fr, from_lang: "fr" },
      { lang: "it", id: fr, from_lang: "fr" },
    ]);

    const de = await put("de", "de");
    const it_ = await put("it", "it");
    byLang = (await list(token, item.id)).body.by_language;
    expect(byLang).toEqual([
      { lang: "en", id: de, from_lang: "de" },
      { lang: "fr", id: fr, from_lang: "fr" },
      { lang: "de", id: de, from_lang: "de" },
      { lang: "es", id: de, from_lang: "de" },
      { lang: "it", id: it_, from_lang: "it" },
    ]);
    const listed = await list(token, item.id);
    expect(listed.body.originals.map((o) => o.lang)).toEqual([null, "de", "fr", "it"]);

    // Fallback switched off: a language without an override gets the default original.
    const off = await manage(token, "PUT", "/settings", { body: { locale_fallback_enabled: false } });
    expect(off.status).toBe(200);
    byLang = (await list(token, item.id)).body.by_language;
    expect(byLang).toEqual([
      { lang: "en", id: item.object_id, from_lang: null },
      { lang: "fr", id: fr, from_lang: "fr" },
      { lang: "de", id: de, from_lang: "de" },
      { lang: "es", id: item.object_id, from_lang: null },
      { lang: "it", id: it_, from_lang: "it" },
    ]);
  });

  it("gives a url only for an object published content pins (published_media); every other original is private (null)", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, png(2, 2, "pin"), "the sea.png");
    const fr = (await setOriginal<SetAnswer>(token, item.id, "fr", { bytes: png(3, 3, "fr"), name: "la mer.png" }, { expected_object_id: "" })).body.original;

    let listed = await list(token, item.id);
    expect(listed.body.originals.map((o) => o.url)).toEqual([null, null]);

    await env.DB.prepare("INSERT INTO published_media (site_id, instance_id, media_id, object_key) VALUES (?, 'ins_test', ?, ?)").bind(s.site.id, item.id, keyOf(s, item.id, fr.id)).run();
    // Another site's pin of the same key shape never makes this site's object public.
    const other = await seedSite();
    await env.DB.prepare("INSERT INTO published_media (site_id, instance_id, media_id, object_key) VALUES (?, 'ins_test', ?, ?)").bind(other.site.id, item.id, keyOf(s, item.id, item.object_id)).run();
    listed = await list(token, item.id);
    expect(listed.body.originals.map((o) => o.url)).toEqual([null, `/media/${item.id}/${fr.id}/la%20mer.png`]);
  });
});

describe("originalsOf (read for the public snapshot)", () => {
  it("reads the overrides of many items in chunks, only of the scope's site, and resolves with originalFor", async () => {
    const s = await seedSite({ languages: ["en", "fr", "de"], settings: { locale_fallback: ["fr"] } });
    const other = await seedSite({ languages: ["en", "fr", "de"] });
    const token = await credential(s);
    const otherToken = await credential(other);
    const a = await upload(token, png(2, 2, "a"), "a.png");
    const b = await upload(token, png(2, 2, "b"), "b.png");
    const theirs = await upload(otherToken, png(2, 2, "theirs"), "t.png");
    const aFr = (await setOriginal<SetAnswer>(token, a.id, "fr", { bytes: png(3, 3, "a fr"), name: "a-fr.png" }, { expected_object_id: "" })).body.original;
    const aDe = (await setOriginal<SetAnswer>(token, a.id, "de", { bytes: png(3, 3, "a de"), name: "a-de.png" }, { expected_object_id: "" })).body.original;
    expect((await setOriginal<SetAnswer>(otherToken, theirs.id, "fr", { bytes: png(3, 3, "t fr"), name: "t.png" }, { expected_object_id: "" })).status).toBe(201);

    // More ids than one statement may bind: unknown ones, this site's and another site's.
    const ids = [...Array.from({ length: 150 }, (_, i) => `med_none_${i}`), a.id, b.id, theirs.id];
    const read = await originalsOf(s.ctx(), ids);
    expect([...read.keys()]).toEqual([a.id]);
    expect([...(read.get(a.id)?.keys() ?? [])].sort()).toEqual(["de", "fr"]);
    expect(read.get(a.id)?.get("fr")).toMatchObject({ lang: "fr", object_key: keyOf(s, a.id, aFr.id), file_name: "a-fr.png", mime_type: "image/png", width: 3, height: 3 });

    const aRow = await mediaRepository(s.ctx().db, s.ctx().scope).findById(a.id);
    if (!aRow) throw new Error("item a missing");
    const overrides = read.get(a.id) ?? new Map();
    expect(originalFor(localeChain(s.site, "en"), overrides, defaultOriginalOf(aRow))).toMatchObject({ from_lang: "fr", original: { object_key: keyOf(s, a.id, aFr.id) } });
    expect(originalFor(localeChain(s.site, "de"), overrides, defaultOriginalOf(aRow))).toMatchObject({ from_lang: "de", original: { object_key: keyOf(s, a.id, aDe.id) } });
    expect(await originalsOf(s.ctx(), [])).toEqual(new Map());
  });
});
