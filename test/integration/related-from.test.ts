import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import type { Env } from "../../shared/env";
import type { Model } from "../../shared/repositories/model-repository";
import type { RelatedFromSource } from "../../shared/services/relations/related-from";
import { createSiteToken } from "../../shared/services/credentials/site-tokens";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { ADMIN, signIn } from "../helpers/admin-api";
import { workerFetch } from "../helpers/worker";

interface EntryBody {
  instance_id: string;
  translation_group_id: string;
  current_version_id: string;
}

type Source = RelatedFromSource;

interface RelatedPage {
  data: Source[];
  hidden: number;
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}

interface PublicRelated {
  data: { id: string; model: string; locale: string; slug: string | null; display: string | null; field: string; first_published_at: string }[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}

/** topic (target), post (related + lead + private secret_topic), memo (private model pointing at topics), mention-free page. */
async function models(s: SeededSite): Promise<{ topic: Model; post: Model; memo: Model; page: Model }> {
  const ctx = s.ctx();
  const topic = await addModel(ctx, { slug: "topic", name: "Topic", i18n: true, fields: [{ key: "title", label: "Title", type: "text", title: true }] });
  const post = await addModel(ctx, {
    slug: "post",
    name: "Post",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "topics", label: "Topics", type: "relation", multiple: true, targets: [topic.id] },
      { key: "lead", label: "Lead topic", type: "relation", targets: [topic.id] },
      { key: "secret_topic", label: "Secret topic", type: "relation", targets: [topic.id], private: true },
    ],
  });
  const memo = await addModel(ctx, {
    slug: "memo",
    name: "Memo",
    is_public: false,
    fields: [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "topics", label: "Topics", type: "relation", multiple: true, targets: [topic.id] },
    ],
  });
  const page = await addModel(ctx, { slug: "page", name: "Page", fields: [{ key: "title", label: "Title", type: "text", title: true }] });
  return { topic, post, memo, page };
}

async function create(token: string, model: Model, slug: string, fields: Record<string, unknown>, lang?: string): Promise<EntryBody> {
  const res = await manage<EntryBody>(token, "POST", "/entries", { body: { model_id: model.id, slug, fields, ...(lang ? { lang } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function publish(token: string, entry: EntryBody): Promise<void> {
  const res = await manage(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function related(token: string, id: string, query = ""): Promise<{ status: number; body: RelatedPage & { error?: { code: string } } }> {
  return manage<RelatedPage & { error?: { code: string } }>(token, "GET", `/entries/${id}/related-from${query}`);
}

/** Every page of a management related-from list, following cursors. */
async function allPages(token: string, id: string, query: string, limit: number): Promise<Source[][]> {
  const pages: Source[][] = [];
  let cursor: string | null = null;
  do {
    const res = await related(token, id, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body.data);
    cursor = res.body.page.next_cursor;
    expect(res.body.page.has_more).toBe(cursor !== null);
  } while (cursor !== null && pages.length < 20);
  return pages;
}

describe("related from: management API (current drafts)", () => {
  it("lists every draft pointing at an item, paged in a stable order, filtered by field and model, without self links", async () => {
    const s = await seedSite();
    const { topic, post, memo } = await models(s);
    const token = await credential(s);
    const tides = await create(token, topic, "tides", { title: "Tides" });
    const reefs = await create(token, topic, "reefs", { title: "Reefs" });
    const posts: EntryBody[] = [];
    for (let i = 0; i < 5; i++) posts.push(await create(token, post, `post-${i}`, { title: `Post ${i}`, topics: [reefs.instance_id, tides.instance_id] }));
    // post-0 also names tides as its lead: one row per field.
    const save = await manage<EntryBody>(token, "PUT", `/entries/${posts[0]?.instance_id}`, {
      body: { expected_version_id: posts[0]?.current_version_id, fields: { title: "Post 0", topics: [tides.instance_id], lead: tides.instance_id } },
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    const memoEntry = await create(token, memo, "memo-1", { title: "Memo", topics: [tides.instance_id] });
    // A language of the item itself linking to it is not "another item" (French topic pointing at its group is impossible here; post in French is another item).
    const french = await manage<EntryBody>(token, "POST", `/entries/${posts[1]?.instance_id}/languages`, { body: { lang: "fr", slug: "post-1-fr", fields: { title: "Billet 1", topics: [reefs.instance_id, tides.instance_id] } } });
    expect(french.status, JSON.stringify(french.body)).toBe(201);

    const pages = await allPages(token, tides.instance_id, "", 2);
    const rows = pages.flat();
    // 5 posts (topics) + post-0 lead + French post-1 + memo = 8 links.
    expect(rows).toHaveLength(8);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2]);
    const keys = rows.map((r) => `${r.instance_id}|${r.field_id}`);
    expect(new Set(keys).size).toBe(8);
    expect([...keys].sort()).toEqual(keys); // key order: source id, then field id
    expect(rows.filter((r) => r.instance_id === posts[0]?.instance_id).map((r) => r.field_key).sort()).toEqual(["lead", "topics"]);
    const memoRow = rows.find((r) => r.instance_id === memoEntry.instance_id);
    expect(memoRow).toMatchObject({ model_id: memo.id, model_slug: "memo", lang: "en", field_key: "topics", label: "Memo", in_trash: false });
    expect(rows.find((r) => r.lang === "fr")).toMatchObject({ instance_id: french.body.instance_id, translation_group_id: posts[1]?.translation_group_id, label: "Billet 1" });

    // The same answer from another language of the target (links name the item, not a language).
    const frTopic = await manage<EntryBody>(token, "POST", `/entries/${tides.instance_id}/languages`, { body: { lang: "fr", slug: "marees", fields: { title: "Marées" } } });
    const viaFrench = (await allPages(token, frTopic.body.instance_id, "", 100)).flat();
    expect(viaFrench).toEqual(rows);

    const lead = (await allPages(token, tides.instance_id, "&field=lead", 10)).flat();
    expect(lead.map((r) => r.instance_id)).toEqual([posts[0]?.instance_id]);
    const memos = (await allPages(token, tides.instance_id, `&model_id=${memo.id}`, 10)).flat();
    expect(memos.map((r) => r.instance_id)).toEqual([memoEntry.instance_id]);
    const none = await related(token, tides.instance_id, "?field=nothing_here");
    expect(none.body).toEqual({ data: [], hidden: 0, page: { limit: 20, has_more: false, next_cursor: null } });
    // reefs: posts 1 to 4 and post-1's French language (post-0 dropped it on save; a relation list is
    // shared by an item's languages unless localized, so the French language repeats the list).
    expect((await allPages(token, reefs.instance_id, "", 100)).flat().map((r) => r.instance_id).sort()).toEqual([...posts.slice(1).map((p) => p.instance_id), french.body.instance_id].sort());
  });

  it("follows current drafts: a save removing a link drops it, Trash flags it, purge deletes it; published versions do not count", async () => {
    const s = await seedSite();
    const { topic, post } = await models(s);
    const token = await credential(s);
    const tides = await create(token, topic, "tides", { title: "Tides" });
    const a = await create(token, post, "a", { title: "A", topics: [tides.instance_id] });
    const b = await create(token, post, "b", { title: "B", lead: tides.instance_id });
    await publish(token, tides);
    await publish(token, a);
    const ids = async () => (await related(token, tides.instance_id)).body.data.map((r) => `${r.instance_id}:${r.in_trash}`).sort();
    expect(await ids()).toEqual([`${a.instance_id}:false`, `${b.instance_id}:false`].sort());

    // a's draft no longer links (its published version still does): the draft head decides.
    const saved = await manage<EntryBody>(token, "PUT", `/entries/${a.instance_id}`, { body: { expected_version_id: a.current_version_id, fields: { title: "A", topics: [] } } });
    expect(saved.status).toBe(200);
    expect(await ids()).toEqual([`${b.instance_id}:false`]);
    // Restoring the old version brings the link back.
    const restored = await manage(token, "POST", `/entries/${a.instance_id}/versions/${a.current_version_id}/restore`, { body: {} });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await ids()).toEqual([`${a.instance_id}:false`, `${b.instance_id}:false`].sort());

    expect((await manage(token, "POST", `/entries/${b.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect(await ids()).toEqual([`${a.instance_id}:false`, `${b.instance_id}:true`].sort());
    expect((await manage(token, "POST", `/entries/${b.instance_id}/purge`, { body: {} })).status).toBe(200);
    expect(await ids()).toEqual([`${a.instance_id}:false`]);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM relation_heads WHERE site_id = ? AND source_instance_id = ?").bind(s.site.id, b.instance_id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("moves with a one_to_many target taken from its holder (replace: true): the holder's new draft drops it", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const photo = await addModel(s.ctx(), { slug: "photo", name: "Photo", fields: [{ key: "title", label: "Title", type: "text", title: true }] });
    const album = await addModel(s.ctx(), {
      slug: "album",
      name: "Album",
      fields: [
        { key: "title", label: "Title", type: "text", title: true },
        { key: "photos", label: "Photos", type: "relation", relation: "one_to_many", targets: [photo.id] },
      ],
    });
    const p1 = await create(token, photo, "p1", { title: "P1" });
    const first = await create(token, album, "first", { title: "First", photos: [p1.instance_id] });
    const second = await create(token, album, "second", { title: "Second" });
    const holders = async () => (await related(token, p1.instance_id)).body.data.map((r) => r.instance_id);
    expect(await holders()).toEqual([first.instance_id]);
    const moved = await manage(token, "PUT", `/entries/${second.instance_id}`, {
      body: { expected_version_id: second.current_version_id, fields: { photos: { connect: [p1.instance_id], replace: true } } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await holders()).toEqual([second.instance_id]);
  });

  it("counts sources the caller may not read as hidden, refuses foreign and forged cursors, and is 404 across sites", async () => {
    const s = await seedSite();
    const { topic, post, memo } = await models(s);
    const token = await credential(s);
    const tides = await create(token, topic, "tides", { title: "Tides" });
    await create(token, post, "p", { title: "P", topics: [tides.instance_id] });
    await create(token, memo, "m", { title: "M", topics: [tides.instance_id] });
    const reefs = await create(token, topic, "reefs", { title: "Reefs" });
    await create(token, post, "q", { title: "Q", topics: [reefs.instance_id] });

    // A credential limited to topic and post: the memo is counted, never named.
    const narrow = await credential(s, undefined, [topic.id, post.id]);
    const seen = await related(narrow, tides.instance_id);
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((r) => r.model_slug)).toEqual(["post"]);
    expect(seen.body.hidden).toBe(1);
    expect(JSON.stringify(seen.body)).not.toContain("memo");
    // A credential that may not read the target: 404 like an unknown id.
    const memoOnly = await credential(s, undefined, [memo.id]);
    expect((await related(memoOnly, tides.instance_id)).status).toBe(404);
    expect((await related(token, "ent_doesnotexist")).status).toBe(404);

    // Cursors continue only their own list.
    const first = await related(token, tides.instance_id, "?limit=1");
    const cursor = first.body.page.next_cursor ?? "";
    expect(cursor).not.toBe("");
    expect((await related(token, tides.instance_id, `?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    const foreign = await related(token, reefs.instance_id, `?cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error?.code).toBe("invalid_request");
    expect((await related(token, tides.instance_id, `?field=topics&cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
    expect((await related(token, tides.instance_id, `?cursor=${encodeURIComponent(`${cursor.slice(0, -2)}AA`)}`)).status).toBe(400);
    for (const bad of ["?limit=0", "?limit=abc", "?field=Bad-Key", "?other=1", "?cursor="]) {
      const res = await related(token, tides.instance_id, bad);
      expect(res.status, bad).toBe(400);
    }

    // Another site's credential cannot read this site's item, even knowing its id.
    const other = await seedSite();
    await models(other);
    const otherToken = await credential(other);
    expect((await related(otherToken, tides.instance_id)).status).toBe(404);
    expect((await manage(null, "GET", `/entries/${tides.instance_id}/related-from`)).status).toBe(401);
  });
});

describe("related from: public API (published, served links)", () => {
  async function published(s: SeededSite) {
    const m = await models(s);
    const token = await credential(s);
    const tides = await create(token, m.topic, "tides", { title: "Tides" });
    const marees = await manage<EntryBody>(token, "POST", `/entries/${tides.instance_id}/languages`, { body: { lang: "fr", slug: "marees", fields: { title: "Marées" } } });
    await publish(token, tides);
    await publish(token, marees.body);
    const posts: EntryBody[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await create(token, m.post, `post-${i}`, { title: `Post ${i}`, topics: [tides.instance_id] });
      await publish(token, p);
      posts.push(p);
    }
    const secret = await create(token, m.post, "secret", { title: "Secret", secret_topic: tides.instance_id });
    await publish(token, secret);
    const memoEntry = await create(token, m.memo, "memo", { title: "Memo", topics: [tides.instance_id] });
    await publish(token, memoEntry);
    const draft = await create(token, m.post, "draft-only", { title: "Draft", topics: [tides.instance_id] });
    return { ...m, token, tides, posts, secret, memoEntry, draft };
  }

  it("serves published sources newest first, paged, never private fields, private models or drafts", async () => {
    const s = await seedSite();
    const w = await published(s);
    const all = await publicGet<PublicRelated>(s.host, "/v1/topic/tides/related-from");
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.map((d) => d.slug)).toEqual(["post-2", "post-1", "post-0"]);
    expect(all.body.data[0]).toEqual({ id: w.posts[2]?.instance_id, model: "post", locale: "en", slug: "post-2", display: "Post 2", field: "topics", first_published_at: all.body.data[0]?.first_published_at });
    const text = JSON.stringify(all.body);
    for (const hidden of ["secret", "memo", "draft-only", "secret_topic"]) expect(text).not.toContain(hidden);

    const first = await publicGet<PublicRelated>(s.host, "/v1/topic/tides/related-from?limit=2");
    expect(first.body.data.map((d) => d.slug)).toEqual(["post-2", "post-1"]);
    expect(first.body.page.has_more).toBe(true);
    const second = await publicGet<PublicRelated>(s.host, `/v1/topic/tides/related-from?limit=2&cursor=${encodeURIComponent(first.body.page.next_cursor ?? "")}`);
    expect(second.body.data.map((d) => d.slug)).toEqual(["post-0"]);
    expect(second.body.page).toEqual({ limit: 2, has_more: false, next_cursor: null });
    // The French slug names the same item; sources are served in the chain's first language they have.
    const fr = await publicGet<PublicRelated>(s.host, "/v1/topic/marees/related-from?locale=fr");
    expect(fr.body.data.map((d) => [d.slug, d.locale])).toEqual([["post-2", "en"], ["post-1", "en"], ["post-0", "en"]]);

    // A private field, an unknown field and a malformed one are refused alike; a cursor of another list too.
    const priv = await publicGet<{ error: { code: string } }>(s.host, "/v1/topic/tides/related-from?field=secret_topic");
    const unknown = await publicGet<{ error: { code: string } }>(s.host, "/v1/topic/tides/related-from?field=nothing_here");
    expect(priv.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(priv.body.error.code).toBe(unknown.body.error.code);
    expect((await publicGet(s.host, "/v1/topic/tides/related-from?field=topics")).status).toBe(200);
    expect((await publicGet(s.host, `/v1/topic/tides/related-from?field=topics&cursor=${encodeURIComponent(first.body.page.next_cursor ?? "")}`)).status).toBe(400);
    expect((await publicGet(s.host, "/v1/topic/tides/related-from?limit=0")).status).toBe(400);
    expect((await publicGet(s.host, "/v1/topic/tides/related-from?foo=1")).status).toBe(400);
    // Unknown items, drafts and private models answer the public 404.
    expect((await publicGet(s.host, "/v1/topic/nope/related-from")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/post/draft-only/related-from")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/memo/memo/related-from")).status).toBe(404);

    // A site token naming the private model reads its sources too (never cached).
    const siteToken = await createSiteToken(s.ctx(), { name: "memo reader", model_ids: [w.memo.id] });
    const withToken = await publicGet<PublicRelated>(s.host, "/v1/topic/tides/related-from", { authorization: `Bearer ${siteToken.token}` });
    expect(withToken.body.data.map((d) => d.slug)).toContain("memo");
    expect(withToken.headers.get("cache-control")).toContain("no-store");

    // Unpublishing a source takes it away at once.
    expect((await manage(w.token, "POST", `/entries/${w.posts[1]?.instance_id}/unpublish`, { body: {} })).status).toBe(200);
    expect((await publicGet<PublicRelated>(s.host, "/v1/topic/tides/related-from")).body.data.map((d) => d.slug)).toEqual(["post-2", "post-0"]);
  });

  it("is isolated per site: another host never sees these sources", async () => {
    const a = await seedSite();
    await published(a);
    const b = await seedSite();
    const bm = await models(b);
    const bToken = await credential(b);
    const tides = await create(bToken, bm.topic, "tides", { title: "Tides B" });
    await publish(bToken, tides);
    const answer = await publicGet<PublicRelated>(b.host, "/v1/topic/tides/related-from");
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    // Site A's cursor is not valid on site B.
    const aFirst = await publicGet<PublicRelated>(a.host, "/v1/topic/tides/related-from?limit=1");
    expect((await publicGet(b.host, `/v1/topic/tides/related-from?limit=1&cursor=${encodeURIComponent(aFirst.body.page.next_cursor ?? "")}`)).status).toBe(400);
  });

  it("tags cached answers so a new source's publication, a source's unpublication and model changes purge them", async () => {
    const s = await seedSite();
    const w = await published(s);
    const runEnv: Env = { ...env, PUBLIC_CACHE_MAX_AGE: "60" };
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`http://${s.host}/v1/topic/tides/related-from`), runEnv, ctx);
    await response.text();
    await waitOnExecutionContext(ctx);
    expect(response.headers.get("cache-control")).toContain("public");
    const tags = (response.headers.get("cache-tag") ?? "").split(",");
    // publish of a new post purges l:post; unpublish of a post purges i:<its group>; the topic's own changes i:<topic>.
    expect(tags).toEqual(expect.arrayContaining([`s:${s.site.id}`, `l:${w.post.id}`, `m:${w.post.id}`, `i:${w.tides.translation_group_id}`, `m:${w.topic.id}`, ...w.posts.map((p) => `i:${p.translation_group_id}`)]));
    // A model that cannot be read publicly is not named.
    expect(tags).not.toContain(`l:${w.memo.id}`);
  });

  it("the generated public client has relatedFrom, calling the same path and parameters", async () => {
    const s = await seedSite();
    await models(s);
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": s.site.id } });
    expect(res.status).toBe(200);
    const source = await res.text();
    expect(source).toContain("export interface RelatedFromItem {");
    expect(source).toContain("relatedFrom(model: ModelSlug, slug: string, opts: { locale?: Locale; field?: string; limit?: number; cursor?: string } = {})");
    expect(source).toContain('"/related-from"');
  });
});
