import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../shared/env";
import { createSiteToken } from "../../shared/services/credentials/site-tokens";
import * as lifecycle from "../../shared/services/lifecycle";
import worker from "../../workers/index";
import { addModel, apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { workerFetch } from "../helpers/worker";

/** Incremental sync, GET /v1/_sync (issue #29 item 1; docs/sync.md), through the real router. */

type SyncRecord =
  | { type: "entry"; item: { id: string; model: string; locale: string; version: string; slug: string | null; fields: Record<string, unknown> } }
  | { type: "deleted"; id: string; model: string | null; locale: string | null }
  | { type: "media"; id: string; files: string[] }
  | { type: "media_deleted"; id: string };
interface SyncPage {
  data: SyncRecord[];
  reset: boolean;
  next_cursor: string | null;
  next_sync_cursor: string | null;
}
type Err = { error: { code: string; parameter?: string } };

async function syncGet<T = SyncPage>(host: string, query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await workerFetch(`http://${host}/v1/_sync${query}`, { headers });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

/** Follows next_cursor from `start` until a page hands out next_sync_cursor; every record in order. */
async function drain(host: string, start: string | null, limit = 3, headers: Record<string, string> = {}): Promise<{ records: SyncRecord[]; cursor: string; pages: number; reset: boolean }> {
  const records: SyncRecord[] = [];
  let cursor = start;
  for (let pages = 1; ; pages++) {
    const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page = await syncGet(host, query, headers);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    if (page.body.reset) return { records, cursor: "", pages, reset: true };
    records.push(...page.body.data);
    if (page.body.next_sync_cursor) {
      expect(page.body.next_cursor).toBeNull();
      return { records, cursor: page.body.next_sync_cursor, pages, reset: false };
    }
    expect(page.body.next_cursor).toBeTypeOf("string");
    cursor = page.body.next_cursor;
  }
}

const entryKeys = (records: SyncRecord[]) => records.map((r) => (r.type === "entry" ? `entry:${r.item.id}:${r.item.version}` : r.type === "deleted" ? `deleted:${r.id}:${r.model}:${r.locale}` : `${r.type}:${r.id}`));

async function publishNew(s: SeededSite, modelId: string, fields: Record<string, unknown>, lang?: string) {
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields, ...(lang ? { lang } : {}) }));
  return apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
}

describe("GET /v1/_sync", () => {
  it("snapshots every permitted published item language in pages, then serves exactly the changes since, in order", async () => {
    const s = await seedSite();
    const { article, note } = await blogModels(s.ctx());
    const a = await publishNew(s, article.id, { title: "Alpha" });
    const b = await publishNew(s, article.id, { title: "Beta" });
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: b.instance_id, lang: "fr", fields: { title: "Bêta" } }));
    const bFr = await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    await publishNew(s, article.id, { title: "Gamma" });
    await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Draft only" } }));
    await publishNew(s, note.id, { title: "Private" });

    const snap = await drain(s.host, null, 2);
    expect(snap.pages).toBeGreaterThan(1);
    const items = snap.records.filter((r) => r.type === "entry");
    expect(items.map((r) => r.item.fields.title).sort()).toEqual(["Alpha", "Beta", "Bêta", "Gamma"]);
    expect(items.every((r) => r.item.model === "article")).toBe(true);
    expect(items.some((r) => "internal_note" in r.item.fields)).toBe(false);
    expect(items.find((r) => r.item.id === bFr.instance_id)?.item.locale).toBe("fr");

    // Nothing changed: the cursor answers an empty page and the same kind of cursor.
    const idle = await syncGet(s.host, `?cursor=${encodeURIComponent(snap.cursor)}`);
    expect(idle.body).toMatchObject({ data: [], reset: false, next_cursor: null });
    expect(idle.body.next_sync_cursor).toBeTypeOf("string");

    // An edit (published again), a new item, an unpublish, a trash of the unpublished item, a draft save.
    const saved = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: a.instance_id, expected_version_id: a.current_version_id ?? "", fields: { title: "Alpha 2" } }));
    const a2 = await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: saved.instance_id }));
    const d = await publishNew(s, article.id, { title: "Delta" });
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: bFr.instance_id }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: bFr.instance_id, language_only: true }));
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: d.instance_id, expected_version_id: d.current_version_id ?? "", fields: { title: "Delta draft" } }));
    await publishNew(s, note.id, { title: "Private 2" });

    const changes = await drain(s.host, snap.cursor, 2);
    expect(entryKeys(changes.records)).toEqual([`entry:${a.instance_id}:${a2.published_version_id}`, `entry:${d.instance_id}:${d.published_version_id}`, `deleted:${bFr.instance_id}:article:fr`]);
    const edited = changes.records[0];
    expect(edited?.type === "entry" && edited.item.fields.title).toBe("Alpha 2");
    // And then nothing more: no change is served twice.
    expect((await drain(s.host, changes.cursor)).records).toEqual([]);
  });

  it("adds a token's private models (its own cursors), resets a cursor used by another reader", async () => {
    const s = await seedSite();
    const { article, note } = await blogModels(s.ctx());
    await publishNew(s, article.id, { title: "Open" });
    await publishNew(s, note.id, { title: "Closed" });
    const token = (await createSiteToken(s.ctx(), { name: "sync", model_ids: [note.id] })).token;
    const auth = { authorization: `Bearer ${token}` };
    const withToken = await drain(s.host, null, 10, auth);
    expect(withToken.records.map((r) => (r.type === "entry" ? r.item.fields.title : r.type)).sort()).toEqual(["Closed", "Open"]);
    await publishNew(s, note.id, { title: "Closed 2" });
    const more = await drain(s.host, withToken.cursor, 10, auth);
    expect(more.records.map((r) => (r.type === "entry" ? r.item.fields.title : r.type))).toEqual(["Closed 2"]);
    // The same cursor without the token (or with a revoked one): another reader, start again.
    const anonymous = await syncGet(s.host, `?cursor=${encodeURIComponent(more.cursor)}`);
    expect(anonymous.body).toEqual({ data: [], reset: true, next_cursor: null, next_sync_cursor: null });
  });

  it("refuses forged, altered, foreign and malformed cursors and unknown parameters with 400", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const { article } = await blogModels(s.ctx());
    await blogModels(other.ctx());
    await publishNew(s, article.id, { title: "One" });
    const mine = (await drain(s.host, null)).cursor;
    const [payload, mac] = mine.split(".");
    const altered = `${payload?.slice(0, -2)}AA.${mac}`;
    const forged = `${btoa(JSON.stringify({ v: 1, s: s.site.id, d: "DB", p: "", t: Date.now(), ph: "c", h: 0 })).replace(/=+$/, "")}.${"A".repeat(43)}`;
    for (const cursor of [altered, forged, "garbage", "", "a.b"]) {
      const r = await syncGet<Err>(s.host, `?cursor=${encodeURIComponent(cursor)}`);
      expect(r.status, cursor).toBe(400);
      expect(r.body.error).toMatchObject({ code: "invalid_request", parameter: "cursor" });
    }
    const foreign = await syncGet<Err>(other.host, `?cursor=${encodeURIComponent(mine)}`);
    expect(foreign.status).toBe(400);
    for (const query of ["?since=1", "?limit=0", "?limit=abc", "?cursor=x&cursor=y"]) expect((await syncGet(s.host, query)).status, query).toBe(400);
    // More than the cap gives the cap.
    expect((await syncGet(s.host, "?limit=99999")).status).toBe(200);
  });

  it("answers reset: true after a model is made private or a field made private, never a silent gap", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    await publishNew(s, article.id, { title: "Visible" });
    await publishNew(s, author.id, { name: "Ann" });
    const token = await credential(s);
    const start = (await drain(s.host, null)).cursor;
    const model = await manage<{ revision: number }>(token, "GET", `/models/${author.id}`);
    const hide = await manage(token, "PUT", `/models/${author.id}`, { body: { expected_revision: model.body.revision, model: { is_public: false } } });
    expect(hide.status).toBe(200);
    expect((await syncGet(s.host, `?cursor=${encodeURIComponent(start)}`)).body).toEqual({ data: [], reset: true, next_cursor: null, next_sync_cursor: null });
    // A fresh snapshot no longer holds the now-private model's items.
    const fresh = await drain(s.host, null);
    expect(fresh.records.map((r) => (r.type === "entry" ? r.item.model : r.type))).toEqual(["article"]);
    expect((await syncGet(s.host, `?cursor=${encodeURIComponent(fresh.cursor)}`)).body.reset).toBe(false);

    // A field made private: readers hold values they may no longer have.
    type Field = { key: string; private?: boolean };
    const read = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Field[] } }>(token, "GET", `/models/${article.id}`);
    const fields = read.body.definition.fields.map((f) => (f.key === "summary" ? { ...f, private: true } : f));
    const applied = await manage(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: read.body.definition.model, fields } } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await syncGet(s.host, `?cursor=${encodeURIComponent(fresh.cursor)}`)).body.reset).toBe(true);
  });

  it("answers reset: true for a cursor older than the retention window", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    await publishNew(s, article.id, { title: "Old" });
    const runEnv = { ...env, SYNC_RETENTION_SECONDS: "1" } as Env;
    const read = async (query: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(`http://${s.host}/v1/_sync${query}`), runEnv, ctx);
      const body = (await response.json()) as SyncPage;
      await waitOnExecutionContext(ctx);
      return body;
    };
    const first = await read("");
    expect(first.reset).toBe(false);
    const cursor = first.next_sync_cursor ?? "";
    expect((await read(`?cursor=${encodeURIComponent(cursor)}`)).reset).toBe(false);
    await new Promise((r) => setTimeout(r, 1200));
    expect(await read(`?cursor=${encodeURIComponent(cursor)}`)).toEqual({ data: [], reset: true, next_cursor: null, next_sync_cursor: null });
  });

  it("misses and repeats nothing while 8 writers publish concurrently and a reader syncs throughout", async () => {
    const s = await seedSite();
    const page = await addModel(s.ctx(), { slug: "post", name: "Post", i18n: false, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    await publishNew(s, page.id, { title: "Before" });
    const writers = await Promise.all(Array.from({ length: 8 }, () => credential(s)));

    interface Published { instance_id: string; published_version_id: string | null; current_version_id: string | null }
    const publishedVersions: string[] = [];
    const unpublished: string[] = [];
    let writing = true;
    const write = async (token: string, w: number) => {
      const created = await manage<Published>(token, "POST", "/entries", { body: { model_id: page.id, fields: { title: `Writer ${w} first` } } });
      expect(created.status).toBe(201);
      const first = await manage<Published>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
      expect(first.status).toBe(200);
      publishedVersions.push(`${created.body.instance_id}:${first.body.published_version_id}`);
      const saved = await manage<Published>(token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: first.body.current_version_id, fields: { title: `Writer ${w} second` } } });
      expect(saved.status).toBe(200);
      const second = await manage<Published>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
      expect(second.status).toBe(200);
      publishedVersions.push(`${created.body.instance_id}:${second.body.published_version_id}`);
      if (w % 2 === 0) {
        const gone = await manage(token, "POST", `/entries/${created.body.instance_id}/unpublish`, { body: {} });
        expect(gone.status).toBe(200);
        unpublished.push(created.body.instance_id);
      }
    };
    const mirror = new Map<string, string>();
    const changeStream: string[] = [];
    const reader = async () => {
      const snapshot = await drain(s.host, null, 2);
      expect(snapshot.reset).toBe(false);
      for (const r of snapshot.records) if (r.type === "entry") mirror.set(r.item.id, r.item.version);
      let cursor = snapshot.cursor;
      const apply = (records: SyncRecord[]) => {
        for (const r of records) {
          if (r.type === "entry") mirror.set(r.item.id, r.item.version);
          if (r.type === "deleted") mirror.delete(r.id);
          changeStream.push(...entryKeys([r]));
        }
      };
      while (writing) {
        // A reader polls: it gives the writers' turns back between reads (a read may be answered
        // without any I/O, and a loop of those would never let a writer's request run).
        await new Promise((resolve) => setTimeout(resolve, 10));
        const next = await drain(s.host, cursor, 2);
        expect(next.reset).toBe(false);
        apply(next.records);
        cursor = next.cursor;
      }
      const last = await drain(s.host, cursor, 2);
      apply(last.records);
      return { snapshotKeys: new Set(snapshot.records.flatMap((r) => (r.type === "entry" ? [`${r.item.id}:${r.item.version}`] : []))) };
    };
    const readerDone = reader();
    await Promise.all(writers.map((token, w) => write(token, w)));
    writing = false;
    const { snapshotKeys } = await readerDone;

    // The mirror is exactly what a fresh snapshot serves now.
    const fresh = await drain(s.host, null, 50);
    expect(new Map(fresh.records.flatMap((r) => (r.type === "entry" ? [[r.item.id, r.item.version] as const] : [])))).toEqual(mirror);
    expect(mirror.size).toBe(1 + 4);
    // No change was served twice, and every publication the snapshot did not hold came as a change.
    expect(new Set(changeStream).size).toBe(changeStream.length);
    for (const key of publishedVersions) {
      if (!snapshotKeys.has(key)) expect(changeStream, key).toContain(`entry:${key}`);
    }
    for (const id of unpublished) expect(changeStream.filter((k) => k.startsWith(`deleted:${id}:`))).toHaveLength(1);
  });
});
