import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { ADMIN, adminCall, signIn } from "../helpers/admin-api";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/*
 * docs/private-data.md: nothing of a private field or of a private model's item reaches an
 * anonymous reader — not in the item, its list, search, filters or the generated client.
 */

interface Ref {
  instance_id: string;
  model: string;
  slug: string | null;
  display: string | null;
}
interface Item {
  id: string;
  slug: string;
  relations: Record<string, Ref[]>;
}
type Err = { error: { code: string } };

async function publishNew(token: string, modelId: string, slug: string, fields: Record<string, unknown>): Promise<EntryView> {
  const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: modelId, slug, fields } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await manage<EntryView>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return published.body;
}

/**
 * Site with search on over `post`: a private model `memo` (item "secret-plan", title "Secret plan"),
 * a public `person` whose title field is private ("Jane Hidden"), a public `topic`, and post "hello"
 * linking to all three.
 */
async function privateLinksSite() {
  const s: SeededSite = await seedSite();
  const memo = await addModel(s.ctx(), { slug: "memo", name: "Memo", is_public: false, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const person = await addModel(s.ctx(), {
    slug: "person",
    name: "Person",
    fields: [
      { key: "name", label: "Name", type: "text", required: true, title: true, private: true },
      { key: "role", label: "Role", type: "text" },
    ],
  });
  const topic = await addModel(s.ctx(), { slug: "topic", name: "Topic", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const post = await addModel(s.ctx(), {
    slug: "post",
    name: "Post",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "memos", label: "Memos", type: "relation", multiple: true, targets: [memo.id] },
      { key: "people", label: "People", type: "relation", multiple: true, targets: [person.id] },
      { key: "topics", label: "Topics", type: "relation", multiple: true, targets: [topic.id] },
    ],
  });
  const token = await credential(s);
  const settings = await manage(token, "PUT", "/settings", { body: { search: { enabled: true, models: [post.id] } } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const secret = await publishNew(token, memo.id, "secret-plan", { title: "Secret plan" });
  const jane = await publishNew(token, person.id, "jane", { name: "Jane Hidden", role: "Editor" });
  const tides = await publishNew(token, topic.id, "tides", { title: "Tides" });
  const hello = await publishNew(token, post.id, "hello", {
    title: "Hello harbour",
    memos: [secret.instance_id],
    people: [jane.instance_id],
    topics: [tides.instance_id],
  });
  return { s, token, memo, person, topic, post, secret, jane, tides, hello };
}

/** The body must not hold anything of the memo (its id, group, slug or title) nor Jane's private name. */
function expectNothingPrivate(text: string, world: Awaited<ReturnType<typeof privateLinksSite>>) {
  for (const leak of [world.secret.instance_id, world.secret.translation_group_id, "secret-plan", "Secret plan", "Jane Hidden", '"memo"']) {
    expect(text).not.toContain(leak);
  }
}

describe("public snapshots and private data", () => {
  it("leaves a link to a private model's item out of the item, its list and search, and shows no private title", async () => {
    const world = await privateLinksSite();
    const { s } = world;
    const item = await publicGet<{ data: Item }>(s.host, "/v1/post/hello");
    expect(item.status).toBe(200);
    expect(item.body.data.relations.memos).toEqual([]);
    // A public target with a private title: linked (its slug is public), never displayed by that title.
    expect(item.body.data.relations.people).toEqual([{ instance_id: world.jane.instance_id, model: "person", slug: "jane", display: null }]);
    expect(item.body.data.relations.topics).toEqual([{ instance_id: world.tides.instance_id, model: "topic", slug: "tides", display: "Tides" }]);
    expectNothingPrivate(JSON.stringify(item.body), world);

    const list = await publicGet<{ data: Item[] }>(s.host, "/v1/post");
    expect(list.body.data.map((d) => d.slug)).toEqual(["hello"]);
    expectNothingPrivate(JSON.stringify(list.body), world);

    const hits = await publicGet<{ data: { item: Item }[] }>(s.host, "/v1/_search?q=harbour");
    expect(hits.status).toBe(200);
    expect(hits.body.data.map((h) => h.item.slug)).toEqual(["hello"]);
    expectNothingPrivate(JSON.stringify(hits.body), world);

    const person = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/person/jane");
    expect(person.body.data.fields).toEqual({ role: "Editor" });
  });

  it("answers a relation or tag filter naming a private model's item exactly like one naming nothing", async () => {
    const world = await privateLinksSite();
    const { s } = world;
    const nothing = await publicGet(s.host, "/v1/post?tag=memos:no-such-memo");
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual({ data: [], page: { limit: 20, has_more: false, next_cursor: null } });
    for (const query of [
      "tag=memos:secret-plan",
      `relation=memos:${world.secret.instance_id}`,
      `relation=memos:${world.secret.translation_group_id}`,
    ]) {
      const res = await publicGet(s.host, `/v1/post?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toEqual(nothing.body);
    }
    // The public relation filters still work.
    const byTopic = await publicGet<{ data: Item[] }>(s.host, "/v1/post?tag=topics:tides");
    expect(byTopic.body.data.map((d) => d.slug)).toEqual(["hello"]);
    const byPerson = await publicGet<{ data: Item[] }>(s.host, `/v1/post?relation=people:${world.jane.instance_id}`);
    expect(byPerson.body.data.map((d) => d.slug)).toEqual(["hello"]);
  });

  it("never names the private model in the generated client", async () => {
    const world = await privateLinksSite();
    const session = await signIn(`${world.s.site.slug}@example.test`);
    const res = await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": world.s.site.id } });
    const source = await res.text();
    expect(res.status).toBe(200);
    expect(source).toContain("export interface PostRelations");
    expect(source).not.toMatch(/memo"|Memo\b|MemoFields/);
    expect(source).not.toContain('"name"');
  });

  it("follows the target model: links appear when it becomes public and go when it becomes private again", async () => {
    const world = await privateLinksSite();
    const { s, token, memo } = world;
    const read = async () => (await publicGet<{ data: Item }>(s.host, "/v1/post/hello")).body.data.relations.memos;
    const current = await manage<{ revision: number }>(token, "GET", `/models/${memo.id}`);
    const opened = await manage<{ revision: number }>(token, "PUT", `/models/${memo.id}`, { body: { expected_revision: current.body.revision, model: { is_public: true } } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(await read()).toEqual([{ instance_id: world.secret.instance_id, model: "memo", slug: "secret-plan", display: "Secret plan" }]);
    const filtered = await publicGet<{ data: Item[] }>(s.host, "/v1/post?tag=memos:secret-plan");
    expect(filtered.body.data.map((d) => d.slug)).toEqual(["hello"]);

    const closed = await manage<Err>(token, "PUT", `/models/${memo.id}`, { body: { expected_revision: opened.body.revision, model: { is_public: false } } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await read()).toEqual([]);
    expect((await publicGet(s.host, "/v1/post?tag=memos:secret-plan")).body).toMatchObject({ data: [] });
  });

  it("keeps a private model's links to items of its own model for the readers of that model", async () => {
    const world = await privateLinksSite();
    const { s, token, memo } = world;
    const current = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Record<string, unknown>[] } }>(token, "GET", `/models/${memo.id}`);
    const replaced = await manage(token, "PUT", `/models/${memo.id}/definition`, {
      body: {
        expected_revision: current.body.revision,
        definition: { model: current.body.definition.model, fields: [...current.body.definition.fields, { key: "see_also", label: "See also", type: "relation", multiple: true, targets: [memo.id] }] },
      },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const linked = await publishNew(token, memo.id, "follow-up", { title: "Follow-up", see_also: [world.secret.instance_id] });
    const session = await signIn(`${s.site.slug}@example.test`);
    const siteToken = (await adminCall<{ token: string }>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Memos", model_ids: [memo.id] } })).body.token;

    const read = await publicGet<{ data: Item }>(s.host, "/v1/memo/follow-up", { authorization: `Bearer ${siteToken}` });
    expect(read.status).toBe(200);
    expect(read.body.data.relations.see_also).toEqual([{ instance_id: world.secret.instance_id, model: "memo", slug: "secret-plan", display: "Secret plan" }]);
    expect((await publicGet(s.host, "/v1/memo/follow-up")).status).toBe(404);
    expect(linked.instance_id).toBe(read.body.data.id);
    // The public post still does not name the memo.
    expectNothingPrivate(JSON.stringify((await publicGet(s.host, "/v1/post/hello")).body), world);
  });

  it("the D1 migration brings snapshots written before these rules to the same answers", async () => {
    const world = await privateLinksSite();
    const { s } = world;
    const expected = (await publicGet<{ data: Item }>(s.host, "/v1/post/hello")).body;
    // A row as the renderer wrote it before: no first_published_at, the memo linked, Jane's name shown, the memo indexed.
    const memoRef = { instance_id: world.secret.instance_id, model: "memo", slug: "secret-plan", display: "Secret plan" };
    await env.DB.prepare(
      `UPDATE published_items SET body = json_set(json_remove(body, '$.first_published_at'), '$.relations.memos', json(?), '$.relations.people[0].display', 'Jane Hidden')
       WHERE site_id = ? AND instance_id = ?`,
    ).bind(JSON.stringify([memoRef]), s.site.id, world.hello.instance_id).run();
    await env.DB.prepare(
      `INSERT INTO published_relations (site_id, instance_id, model_id, lang, field, target_group_id, target_slug, translation_group_id, sort_at)
       SELECT site_id, instance_id, model_id, lang, 'memos', ?, 'secret-plan', translation_group_id, sort_at FROM published_items WHERE site_id = ? AND instance_id = ?`,
    ).bind(world.secret.translation_group_id, s.site.id, world.hello.instance_id).run();
    const legacy = await publicGet(s.host, "/v1/post/hello");
    expect(JSON.stringify(legacy.body)).toContain("Secret plan");

    // The migration's data statements (its index statements are not re-run beside other test files).
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0012_"));
    const statements = (migration?.queries ?? []).filter((q) => /^\s*(UPDATE|DELETE)\b/i.test(q.replace(/^\s*--.*$/gm, "")));
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const sql of statements) await env.DB.prepare(sql).run();

    expect((await publicGet(s.host, "/v1/post/hello")).body).toEqual(expected);
    const filtered = await publicGet(s.host, "/v1/post?tag=memos:secret-plan");
    expect(filtered.body).toMatchObject({ data: [] });
  });
});
