import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { ADMIN, signIn } from "../helpers/admin-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/*
 * Spec 3, "Private fields": never served by the public list, item, search, client or preview; a
 * public filter, sort, selection or expansion naming one is refused exactly like an unknown field.
 * docs/public-api.md, "Field selection".
 */

interface Item {
  id: string;
  slug: string;
  model: string;
  locale: string;
  version: string;
  published_at: string;
  first_published_at: string;
  fields: Record<string, unknown>;
  relations: Record<string, { slug: string | null }[]>;
  media: Record<string, unknown[]>;
}
type Refusal = { error: { code: string; message: string; parameter?: string } };

const SECRET_WORD = "zebracorn";

async function world() {
  const s = await seedSite();
  const topic = await addModel(s.ctx(), { slug: "topic", name: "Topic", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const post = await addModel(s.ctx(), {
    slug: "post",
    name: "Post",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "summary", label: "Summary", type: "long_text" },
      { key: "notes", label: "Notes", type: "long_text", private: true },
      { key: "reviewer", label: "Reviewer", type: "relation", targets: [topic.id], private: true },
      { key: "topics", label: "Topics", type: "relation", multiple: true, targets: [topic.id] },
    ],
  });
  const token = await credential(s);
  expect((await manage(token, "PUT", "/settings", { body: { search: { enabled: true, models: [post.id] } } })).status).toBe(200);
  const publish = async (modelId: string, slug: string, fields: Record<string, unknown>) => {
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: modelId, slug, fields } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const published = await manage<EntryView>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return published.body;
  };
  const tides = await publish(topic.id, "tides", { title: "Tides" });
  const hello = await publish(post.id, "hello", {
    title: "Hello harbour",
    summary: "Boats",
    notes: `Only editors know the ${SECRET_WORD}`,
    reviewer: tides.instance_id,
    topics: [tides.instance_id],
  });
  return { s, token, post, topic, tides, hello };
}

/** A refusal with the named key written as <key>, so refusals of different keys compare. */
function shape(body: unknown, key: string): string {
  return JSON.stringify(body).split(key).join("<key>");
}

describe("public field selection (fields=)", () => {
  it("keeps only the selected keys in fields, relations and media, and every item key", async () => {
    const { s, tides } = await world();
    const item = await publicGet<{ data: Item }>(s.host, "/v1/post/hello?fields=title,topics");
    expect(item.status).toBe(200);
    expect(item.body.data.fields).toEqual({ title: "Hello harbour" });
    expect(item.body.data.relations).toEqual({ topics: [{ instance_id: tides.instance_id, model: "topic", slug: "tides", display: "Tides" }] });
    expect(item.body.data.media).toEqual({});
    for (const key of ["id", "slug", "model", "locale", "version", "published_at", "first_published_at"] as const) expect(item.body.data[key]).toBeTruthy();

    const list = await publicGet<{ data: Item[] }>(s.host, "/v1/post?fields=summary");
    expect(list.status).toBe(200);
    expect(list.body.data.map((d) => d.fields)).toEqual([{ summary: "Boats" }]);
    expect(list.body.data[0]?.relations).toEqual({});

    // Without a selection every public field is served, and never a private one.
    const full = await publicGet<{ data: Item }>(s.host, "/v1/post/hello");
    expect(Object.keys(full.body.data.fields).sort()).toEqual(["summary", "title"]);
    expect(Object.keys(full.body.data.relations)).toEqual(["topics"]);
    expect(JSON.stringify(full.body)).not.toContain(SECRET_WORD);
  });

  it("refuses a private field exactly like an unknown one, on the item, the list and the preview", async () => {
    const { s, token, hello } = await world();
    const minted = await manage<{ url: string }>(token, "POST", `/entries/${hello.instance_id}/preview`, { body: {} });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    const previewPath = minted.body.url;
    for (const path of ["/v1/post/hello?fields=", "/v1/post?fields=", "/v1/post/no-such-slug?fields=", `${previewPath}&fields=`]) {
      for (const privateKey of ["notes", "reviewer"]) {
        const refusedPrivate = await publicGet<Refusal>(s.host, path + privateKey);
        const refusedUnknown = await publicGet<Refusal>(s.host, path + "nosuchfield");
        expect(refusedPrivate.status, path + privateKey).toBe(400);
        expect(refusedUnknown.status).toBe(400);
        expect(refusedPrivate.body.error.code).toBe("invalid_request");
        expect(refusedPrivate.body.error.parameter).toBe("fields");
        expect(shape(refusedPrivate.body, privateKey), path).toBe(shape(refusedUnknown.body, "nosuchfield"));
        expect(refusedPrivate.headers.get("cache-control")).toBe(refusedUnknown.headers.get("cache-control"));
      }
    }
  });

  it("refuses malformed and oversized selections", async () => {
    const { s } = await world();
    for (const bad of ["", ",", "title,", "Title", "ti tle", "title;summary", "__proto__", Array.from({ length: 51 }, (_, i) => `f${i}`).join(",")]) {
      const res = await publicGet<Refusal>(s.host, `/v1/post/hello?fields=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const twice = await publicGet<Refusal>(s.host, "/v1/post/hello?fields=title&fields=summary");
    expect(twice.status).toBe(400);
  });
});

describe("private fields on every other public path", () => {
  it("answers filters naming a private field like filters naming an unknown one", async () => {
    const { s, tides } = await world();
    for (const kind of ["relation", "tag"]) {
      const value = kind === "relation" ? tides.instance_id : "tides";
      const refusedPrivate = await publicGet<Refusal>(s.host, `/v1/post?${kind}=reviewer:${value}`);
      const refusedUnknown = await publicGet<Refusal>(s.host, `/v1/post?${kind}=nosuchfield:${value}`);
      expect(refusedPrivate.status).toBe(400);
      expect(shape(refusedPrivate.body, "reviewer")).toBe(shape(refusedUnknown.body, "nosuchfield"));
    }
    // The public relation field filters as before.
    const byTopic = await publicGet<{ data: Item[] }>(s.host, "/v1/post?tag=topics:tides");
    expect(byTopic.body.data.map((d) => d.slug)).toEqual(["hello"]);
  });

  it("has no sort or expansion that could name a private field: any value is the same unknown-parameter refusal", async () => {
    const { s } = await world();
    for (const name of ["sort", "expand", "populate", "select", "include"]) {
      const byPrivate = await publicGet<Refusal>(s.host, `/v1/post?${name}=notes`);
      const byUnknown = await publicGet<Refusal>(s.host, `/v1/post?${name}=nosuchfield`);
      const byPublic = await publicGet<Refusal>(s.host, `/v1/post?${name}=title`);
      expect(byPrivate.status, name).toBe(400);
      expect(byPrivate.body).toEqual(byUnknown.body);
      expect(byPrivate.body).toEqual(byPublic.body);
      const onItem = await publicGet<Refusal>(s.host, `/v1/post/hello?${name}=notes`);
      expect(onItem.status).toBe(400);
      expect(onItem.body).toEqual((await publicGet<Refusal>(s.host, `/v1/post/hello?${name}=nosuchfield`)).body);
    }
  });

  it("never finds or suggests an item by a private field's words", async () => {
    const { s } = await world();
    const hits = await publicGet<{ data: unknown[] }>(s.host, `/v1/_search?q=${SECRET_WORD}`);
    expect(hits.status).toBe(200);
    expect(hits.body.data).toEqual([]);
    const suggestions = await publicGet<{ data: unknown[] }>(s.host, `/v1/_search/suggest?q=${SECRET_WORD.slice(0, 5)}`);
    expect(suggestions.status).toBe(200);
    expect(suggestions.body.data).toEqual([]);
    const found = await publicGet<{ data: { item: Item }[] }>(s.host, "/v1/_search?q=harbour");
    expect(found.body.data.map((h) => h.item.slug)).toEqual(["hello"]);
    expect(JSON.stringify(found.body)).not.toContain(SECRET_WORD);
  });

  it("types the generated client's selection with public field keys only", async () => {
    const { s } = await world();
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": s.site.id } });
    const source = await res.text();
    expect(res.status).toBe(200);
    expect(source).toContain("export type PostFieldKey = keyof PostFields | keyof PostRelations | keyof PostMedia;");
    expect(source).toContain("fields?: Array<FieldKeys[M]>;");
    expect(source).not.toContain('"notes"');
    expect(source).not.toContain('"reviewer"');
  });
});
