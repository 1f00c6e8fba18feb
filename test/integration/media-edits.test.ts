import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { uploadMedia, type ErrBody, type MediaItemBody } from "../helpers/media-api";
import { pdf, png } from "../helpers/media-samples";
import { createEntry, mediaModel } from "../helpers/media-usage";

type Item = MediaItemBody & { revision: number; updated_at: string; created_at: string };
type Answer = { media: Item; replayed?: true };
type ListBody = { data: Item[]; page: { limit: number; has_more: boolean; next_cursor: string | null } };

let n = 0;
async function upload(token: string, name: string, bytes: Uint8Array = png(1, 1, `${name}-${n++}`), fields: Record<string, string> = {}): Promise<Item> {
  const up = await uploadMedia(token, { bytes, name }, fields);
  expect(up.status).toBe(201);
  return up.body.media as Item;
}

async function row(id: string) {
  return env.DB.prepare("SELECT alt_texts, default_focal, loading, fetch_priority, revision, updated_at FROM media WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function count(s: SeededSite, table: "audit_log" | "outbox_events", column: "action" | "name", value: string): Promise<number> {
  const r = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = ? AND ${column} = ?`).bind(s.site.id, value).first<{ n: number }>();
  return r?.n ?? 0;
}

describe("PUT /api/manage/v1/media/{id}", () => {
  it("merges alt texts (omitted kept, empty cleared), sets focal, loading and fetch priority, bumps revision, writes audit and event; a replay answers the first answer", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, "a.png", png(4, 3, "edit"), { alt_texts: JSON.stringify({ en: "Sea", fr: "Mer" }) });
    expect(item.revision).toBe(0);

    const key = newKey();
    const body = { expected_revision: 0, alt_texts: { fr: "", en: "The sea" }, default_focal: { x: 0.25, y: 1 }, loading: "eager", fetch_priority: "high" };
    const put = await manage<Answer>(token, "PUT", `/media/${item.id}`, { body, key });
    expect(put.status).toBe(200);
    expect(put.body.media).toMatchObject({ id: item.id, alt_texts: { en: "The sea" }, default_focal: { x: 0.25, y: 1 }, loading: "eager", fetch_priority: "high", revision: 1 });
    expect(put.body.replayed).toBeUndefined();

    const read = await manage<Answer>(token, "GET", `/media/${item.id}`);
    expect(read.body.media).toEqual(put.body.media);

    // Omitted language keeps its text; a second edit needs no expected_revision.
    const more = await manage<Answer>(token, "PUT", `/media/${item.id}`, { body: { alt_texts: { fr: "La mer" } } });
    expect(more.status).toBe(200);
    expect(more.body.media).toMatchObject({ alt_texts: { en: "The sea", fr: "La mer" }, revision: 2, loading: "eager" });

    // The first key replays its first answer (revision 1), writing nothing.
    const replay = await manage<Answer>(token, "PUT", `/media/${item.id}`, { body, key });
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.media).toEqual(put.body.media);
    const reused = await manage<ErrBody>(token, "PUT", `/media/${item.id}`, { body: { ...body, loading: "lazy" }, key });
    expect([reused.status, reused.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    expect((await row(item.id))?.revision).toBe(2);

    expect(await count(s, "audit_log", "action", "media.update")).toBe(2);
    const events = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'media.updated' ORDER BY rowid").bind(s.site.id).all<{ payload: string }>();
    expect(events.results.map((e) => JSON.parse(e.payload))).toMatchObject([
      { media_id: item.id, kind: "image", changed: ["alt_texts", "default_focal", "loading", "fetch_priority"], revision: 1 },
      { media_id: item.id, changed: ["alt_texts"], revision: 2 },
    ]);

    // A null focal removes it.
    const cleared = await manage<Answer>(token, "PUT", `/media/${item.id}`, { body: { default_focal: null } });
    expect(cleared.body.media).toMatchObject({ default_focal: null, revision: 3 });
  });

  it("refuses without changing anything: stale revision, unknown language, focal on a PDF, focal out of range, no edit field, unknown key, too long text, missing media:update, another site's id", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const image = await upload(token, "b.png", png(2, 2, "refusals"), { alt_texts: JSON.stringify({ en: "Kept" }) });
    const doc = await upload(token, "c.pdf", pdf("refusals"));
    const other = await seedSite();
    const otherToken = await credential(other);
    const before = await row(image.id);

    const cases: [string, unknown, number, string][] = [
      [image.id, { expected_revision: 5, loading: "eager" }, 409, "media_changed"],
      [image.id, { alt_texts: { en: "x", de: "y" } }, 422, "unknown_locale"],
      [doc.id, { default_focal: { x: 0.5, y: 0.5 } }, 400, "media_framing_not_image"],
      [image.id, { default_focal: { x: 1.5, y: 0.5 } }, 400, "invalid_request"],
      [image.id, { default_focal: { x: -0.1, y: 0 } }, 400, "invalid_request"],
      [image.id, { expected_revision: 0 }, 400, "invalid_request"],
      [image.id, {}, 400, "invalid_request"],
      [image.id, { loading: "eager", tags: ["x"] }, 400, "invalid_request"],
      [image.id, { loading: "soon" }, 400, "invalid_request"],
      [image.id, { alt_texts: { en: "x".repeat(1001) } }, 400, "invalid_request"],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await manage<ErrBody>(token, "PUT", `/media/${id}`, { body });
      expect([JSON.stringify(body), res.status, res.body.error.code]).toEqual([JSON.stringify(body), status, code]);
    }
    const stale = await manage<ErrBody>(token, "PUT", `/media/${image.id}`, { body: { expected_revision: 5, loading: "eager" } });
    expect(stale.body.error.current_revision).toBe(0);

    const foreign = await manage<ErrBody>(otherToken, "PUT", `/media/${image.id}`, { body: { loading: "eager" } });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "not_found"]);
    const missingKey = await manage<ErrBody>(token, "PUT", `/media/${image.id}`, { body: { loading: "eager" }, key: null });
    expect(missingKey.status).toBe(400);
    const readOnly = await manage<ErrBody>(await credential(s, ["content:read"]), "PUT", `/media/${image.id}`, { body: { loading: "eager" } });
    expect([readOnly.status, readOnly.body.error.code]).toEqual([403, "insufficient_scope"]);

    await changeAdminRole(s, (p) => ({ ...p, system: ((p.system as string[]) ?? []).filter((x) => x !== "media:update") }));
    const denied = await manage<ErrBody>(token, "PUT", `/media/${image.id}`, { body: { loading: "eager" } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "missing_permission"]);

    expect(await row(image.id)).toEqual(before);
    expect((await row(doc.id))?.revision).toBe(0);
    expect(await count(s, "audit_log", "action", "media.update")).toBe(0);
    expect(await count(s, "outbox_events", "name", "media.updated")).toBe(0);
  });
});

describe("GET /api/manage/v1/media", () => {
  it("pages newest first with signed cursors, filters by kind, folder_id (or unfiled) and q (% and _ literal, any case), and never shows another site's media", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const other = await seedSite();
    const foreign = await upload(await credential(other), "100% foreign.png");
    const percent = await upload(token, "100% real.png");
    const underscore = await upload(token, "a_b.png");
    const plain = await upload(token, "axb.png");
    const report = await upload(token, "Report.pdf", pdf("list"));
    const filed = await upload(token, "filed.png");
    await env.DB.prepare("UPDATE media SET folder_id = 'fld_test' WHERE id = ?").bind(filed.id).run();

    const seen: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: ListBody } = await manage<ListBody>(token, "GET", `/media?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.page.limit).toBe(2);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data);
      cursor = res.body.page.next_cursor;
      expect(res.body.page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 5);
    expect(pages).toBe(3);
    const ids = seen.map((m) => m.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids).not.toContain(foreign.id);
    const newestFirst = [...seen].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    expect(ids).toEqual(newestFirst.map((m) => m.id));
    expect(seen.find((m) => m.id === filed.id)?.folder_id).toBe("fld_test");

    // Model limits do not narrow the library (spec 2 rule 3): a read-only credential of one model sees every item.
    const { note } = await blogModels(s.ctx());
    const narrow = await credential(s, ["content:read"], [note.id]);
    const all = await manage<ListBody>(narrow, "GET", "/media?limit=5");
    expect(all.body.data.map((m) => m.id).sort()).toEqual([...ids].sort());

    const list = async (query: string) => {
      const res = await manage<ListBody>(token, "GET", `/media?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((m) => m.id).sort();
    };
    expect(await list("kind=document")).toEqual([report.id]);
    expect(await list(`q=${encodeURIComponent("%")}`)).toEqual([percent.id]);
    expect(await list("q=_")).toEqual([underscore.id]);
    expect(await list("q=REPORT")).toEqual([report.id]);
    expect(await list("folder_id=fld_test")).toEqual([filed.id]);
    expect(await list("folder_id=unfiled&kind=image")).toEqual([percent.id, underscore.id, plain.id].sort());

    const first = await manage<ListBody>(token, "GET", "/media?limit=1&kind=image");
    expect(first.body.page).toMatchObject({ limit: 1, has_more: true });
    const wrongList = await manage<ErrBody>(token, "GET", `/media?limit=1&kind=document&cursor=${encodeURIComponent(first.body.page.next_cursor ?? "")}`);
    expect([wrongList.status, wrongList.body.error.code]).toEqual([400, "invalid_request"]);
    const bad = await manage<ErrBody>(token, "GET", "/media?limit=0");
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
    const unknown = await manage<ErrBody>(token, "GET", "/media?sort=name");
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "invalid_request"]);
    const clamped = await manage<ListBody>(token, "GET", "/media?limit=500");
    expect([clamped.body.page.limit, clamped.body.data.length, clamped.body.page.next_cursor]).toEqual([100, 5, null]);
  });
});

describe("media list and edit against hostile input (issue #10 probe)", () => {
  it("refuses control characters and lone surrogates in q (400), so NUL cannot cut the pattern short", async () => {
    const s = await seedSite();
    const token = await credential(s);
    await upload(token, "plain.png");
    for (const q of ["%00zzzz", "zz%00", "a%0Ab", "%7F", "%C2%85x", "%ED%A0%80"]) {
      const res = await manage<ErrBody>(token, "GET", `/media?q=${q}`);
      // %ED%A0%80 (an encoded surrogate) is not UTF-8: refused too (issue 22 item 6), never read as U+FFFD.
      expect([res.status, res.body.error?.code], q).toEqual([400, "invalid_request"]);
    }
    const found = await manage<ListBody>(token, "GET", "/media?q=zzzz");
    expect([found.status, found.body.data.length]).toEqual([200, 0]);
  });

  it("ties list cursors to the site: a cursor of site A is refused by site B's media list and entries list (400)", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const tokenA = await credential(a);
    const tokenB = await credential(b);
    await upload(tokenA, "a1.png");
    await upload(tokenA, "a2.png");
    await upload(tokenB, "b1.png");
    await upload(tokenB, "b2.png");
    const pageA = await manage<ListBody>(tokenA, "GET", "/media?limit=1");
    const cursor = encodeURIComponent(pageA.body.page.next_cursor ?? "");
    expect((await manage(tokenA, "GET", `/media?limit=1&cursor=${cursor}`)).status).toBe(200);
    const cross = await manage<ErrBody>(tokenB, "GET", `/media?limit=1&cursor=${cursor}`);
    expect([cross.status, cross.body.error.code, cross.body.error.parameter]).toEqual([400, "invalid_request", "cursor"]);

    const modelA = await mediaModel(a);
    await mediaModel(b);
    await createEntry(tokenA, modelA, { title: "one" });
    await createEntry(tokenA, modelA, { title: "two" });
    const entriesA = await manage<{ page: { next_cursor: string | null } }>(tokenA, "GET", "/entries?limit=1");
    expect(entriesA.body.page.next_cursor).not.toBeNull();
    const entryCursor = encodeURIComponent(entriesA.body.page.next_cursor ?? "");
    expect((await manage(tokenA, "GET", `/entries?limit=1&cursor=${entryCursor}`)).status).toBe(200);
    const crossEntries = await manage<ErrBody>(tokenB, "GET", `/entries?limit=1&cursor=${entryCursor}`);
    expect([crossEntries.status, crossEntries.body.error.code]).toEqual([400, "invalid_request"]);
  });

  it("clears the alt text of a language the site dropped that the item still holds; a text for it stays 422 unknown_locale", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, "dropped.png");
    // The item holds a `de` text from when the site had German.
    await env.DB.prepare("UPDATE media SET alt_texts = ? WHERE id = ?").bind(JSON.stringify({ en: "Sea", de: "Meer" }), item.id).run();
    const set = await manage<ErrBody>(token, "PUT", `/media/${item.id}`, { body: { alt_texts: { de: "See" } } });
    expect([set.status, set.body.error.code, set.body.error.languages]).toEqual([422, "unknown_locale", ["de"]]);
    const neverHeld = await manage<ErrBody>(token, "PUT", `/media/${item.id}`, { body: { alt_texts: { it: "" } } });
    expect([neverHeld.status, neverHeld.body.error.code]).toEqual([422, "unknown_locale"]);
    const cleared = await manage<Answer>(token, "PUT", `/media/${item.id}`, { body: { alt_texts: { de: "" } } });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.media.alt_texts).toEqual({ en: "Sea" });
    expect(cleared.body.media.revision).toBe(1);
  });

  it("refuses alt_texts that are not an object of well-formed texts, and reserved object names as unknown languages, writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const item = await upload(token, "alt.png");
    const cases: [unknown, number, string][] = [
      [{ constructor: "x" }, 422, "unknown_locale"],
      [{ prototype: { nested: 1 } }, 422, "unknown_locale"],
      [JSON.parse('{"__proto__":"x","en":"ok"}'), 422, "unknown_locale"],
      [[], 400, "invalid_request"],
      [["en"], 400, "invalid_request"],
      [null, 400, "invalid_request"],
      ["text", 400, "invalid_request"],
      [{ en: 5 }, 400, "invalid_request"],
      [{ en: "sur\ud800" }, 400, "invalid_request"],
    ];
    for (const [alt, status, code] of cases) {
      // JSON.stringify keeps an own "__proto__" key and writes a lone surrogate as the escape \\ud800.
      const raw = `{"alt_texts":${JSON.stringify(alt)}}`;
      const res = await manage<ErrBody>(token, "PUT", `/media/${item.id}`, { rawBody: raw });
      expect([res.status, res.body.error?.code], raw).toEqual([status, code]);
    }
    expect(await row(item.id)).toMatchObject({ revision: 0 });
    expect(await count(s, "outbox_events", "name", "media.updated")).toBe(0);
    expect(await count(s, "audit_log", "action", "media.update")).toBe(0);
  });
});
