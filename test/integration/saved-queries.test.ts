import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSiteToken } from "../../shared/services/credentials/site-tokens";
import * as lifecycle from "../../shared/services/lifecycle";
import { addModel, apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet, type ListBody } from "../helpers/public-api";

/** Saved queries (issue #29 item 6; docs/saved-queries.md), through the management and public APIs. */

type Err = { error: { code: string; issues?: { path: string }[]; queries?: string[] } };
interface Query {
  id: string;
  name: string;
  model_slug: string;
  revision: number;
  fields: string[] | null;
  replayed?: boolean;
}

async function publishNew(s: SeededSite, modelId: string, fields: Record<string, unknown>) {
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields }));
  return apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
}

async function queryCount(s: SeededSite): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM saved_queries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n ?? -1;
}

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const wood = await publishNew(s, models.category.id, { title: "Woodcraft" });
  for (const title of ["One", "Two", "Three"]) await publishNew(s, models.article.id, { title, summary: `About ${title}`, categories: [wood.instance_id] });
  await publishNew(s, models.article.id, { title: "Elsewhere" });
  const token = await credential(s);
  return { s, models, wood, token };
}

describe("saved queries", () => {
  it("are created, replayed, listed and served publicly with their filters, order, fields and page size", async () => {
    const { s, models, wood, token } = await setup();
    const key = newKey();
    const body = { name: "wood-articles", model_id: models.article.id, filters: [{ kind: "tag", field: "categories", value: wood.slug }], order: "asc", fields: ["title"], limit: 2 };
    const created = await manage<Query>(token, "POST", "/saved-queries", { key, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "wood-articles", model_slug: "article", fields: ["title"], revision: 1 });
    const replay = await manage<Query>(token, "POST", "/saved-queries", { key, body });
    expect(replay.body).toEqual({ ...created.body, replayed: true });
    expect(await queryCount(s)).toBe(1);
    expect((await manage<{ data: Query[] }>(token, "GET", "/saved-queries")).body.data.map((q) => q.name)).toEqual(["wood-articles"]);

    const first = await publicGet<ListBody>(s.host, "/v1/_queries/wood-articles");
    expect(first.status).toBe(200);
    expect(first.body.data.map((i) => i.fields.title)).toEqual(["One", "Two"]);
    expect(Object.keys(first.body.data[0]?.fields ?? {})).toEqual(["title"]);
    expect(first.body.page).toMatchObject({ limit: 2, has_more: true });
    const second = await publicGet<ListBody>(s.host, `/v1/_queries/wood-articles?cursor=${encodeURIComponent(first.body.page.next_cursor ?? "")}`);
    expect(second.body.data.map((i) => i.fields.title)).toEqual(["Three"]);
    expect((await publicGet(s.host, "/v1/_queries/wood-articles?locale=fr")).status).toBe(200);
    // The request chooses only locale and cursor; unknown names are the public 404.
    expect((await publicGet(s.host, "/v1/_queries/wood-articles?limit=50")).status).toBe(400);
    expect((await publicGet(s.host, "/v1/_queries/no-such-query")).status).toBe(404);
  });

  it("refuses private fields on the public route (422 private_field_on_public_route), unknown names, taken names and a missing scope, writing nothing", async () => {
    const { s, models, token } = await setup();
    const privateSelection = await manage<Err>(token, "POST", "/saved-queries", { body: { name: "leaky", model_id: models.article.id, fields: ["title", "internal_note"] } });
    expect(privateSelection.status).toBe(422);
    expect(privateSelection.body.error.code).toBe("private_field_on_public_route");
    expect(privateSelection.body.error.issues?.map((i) => i.path)).toEqual(["fields[1]"]);
    const privateFilter = await manage<Err>(token, "POST", "/saved-queries", { body: { name: "leaky", model_id: models.article.id, filters: [{ kind: "tag", field: "internal_note", value: "x" }] } });
    expect([privateFilter.status, privateFilter.body.error.code]).toEqual([422, "private_field_on_public_route"]);
    const unknown = await manage<Err>(token, "POST", "/saved-queries", { body: { name: "bad", model_id: models.article.id, fields: ["nope"], filters: [{ kind: "relation", field: "title", value: "x" }] } });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "invalid_request"]);
    expect(unknown.body.error.issues?.map((i) => i.path)).toEqual(["filters[0].field", "fields[0]"]);
    expect((await manage<Err>(token, "POST", "/saved-queries", { body: { name: "bad", model_id: "mdl_nope" } })).status).toBe(400);
    expect((await manage<Err>(token, "POST", "/saved-queries", { body: { name: "Bad Name", model_id: models.article.id } })).status).toBe(400);
    expect(await queryCount(s)).toBe(0);
    expect((await manage(token, "POST", "/saved-queries", { body: { name: "taken", model_id: models.article.id } })).status).toBe(201);
    const taken = await manage<Err>(token, "POST", "/saved-queries", { body: { name: "taken", model_id: models.author.id } });
    expect([taken.status, taken.body.error.code]).toEqual([409, "saved_query_name_taken"]);
    const reader = await credential(s, ["content:read"]);
    expect((await manage<Err>(reader, "POST", "/saved-queries", { body: { name: "mine", model_id: models.article.id } })).body.error.code).toBe("insufficient_scope");
    expect(await queryCount(s)).toBe(1);
  });

  it("updates with a revision, deletes (then 404 twice over), and refuses a private field on update", async () => {
    const { s, models, token } = await setup();
    const created = await manage<Query>(token, "POST", "/saved-queries", { body: { name: "latest", model_id: models.article.id, limit: 1 } });
    const stale = await manage<Err>(token, "PUT", `/saved-queries/${created.body.id}`, { body: { expected_revision: 0, limit: 3 } });
    expect([stale.status, stale.body.error.code]).toEqual([409, "saved_query_changed"]);
    const leaky = await manage<Err>(token, "PUT", `/saved-queries/${created.body.id}`, { body: { expected_revision: 1, fields: ["internal_note"] } });
    expect([leaky.status, leaky.body.error.code]).toEqual([422, "private_field_on_public_route"]);
    const updated = await manage<Query>(token, "PUT", `/saved-queries/${created.body.id}`, { body: { expected_revision: 1, name: "newest", limit: 3 } });
    expect(updated.body).toMatchObject({ name: "newest", revision: 2 });
    expect((await publicGet<ListBody>(s.host, "/v1/_queries/newest")).body.data).toHaveLength(3);
    expect((await publicGet(s.host, "/v1/_queries/latest")).status).toBe(404);
    const removed = await manage(token, "DELETE", `/saved-queries/${created.body.id}`);
    expect(removed.body).toEqual({ id: created.body.id, name: "newest", deleted: true });
    expect((await publicGet(s.host, "/v1/_queries/newest")).status).toBe(404);
    const again = await manage<Err>(token, "DELETE", `/saved-queries/${created.body.id}`);
    expect([again.status, again.body.error.code]).toEqual([404, "saved_query_not_found"]);
  });

  it("a model change that would break a bound query is 409 model_has_bound_queries naming the queries", async () => {
    const { s, models, token } = await setup();
    await manage(token, "POST", "/saved-queries", { body: { name: "by-summary", model_id: models.article.id, fields: ["title", "summary"] } });
    await manage(token, "POST", "/saved-queries", { body: { name: "by-category", model_id: models.article.id, filters: [{ kind: "tag", field: "categories", value: "x" }] } });
    type Field = { key: string; private?: boolean };
    const read = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Field[] } }>(token, "GET", `/models/${models.article.id}`);
    const apply = (fields: Field[]) => manage<Err>(token, "PUT", `/models/${models.article.id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: read.body.definition.model, fields } } });
    const removed = await apply(read.body.definition.fields.filter((f) => f.key !== "summary"));
    expect([removed.status, removed.body.error.code]).toEqual([409, "model_has_bound_queries"]);
    expect(removed.body.error.queries).toEqual(["by-summary"]);
    const hidden = await apply(read.body.definition.fields.map((f) => (f.key === "summary" || f.key === "categories" ? { ...f, private: true } : f)));
    expect(hidden.body.error.queries).toEqual(["by-category", "by-summary"]);
    expect((await manage<{ revision: number }>(token, "GET", `/models/${models.article.id}`)).body.revision).toBe(read.body.revision);
    // A change the queries survive is applied.
    const fine = await apply(read.body.definition.fields.filter((f) => f.key !== "body"));
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    // A model a query is bound to cannot be removed.
    const empty = await addModel(s.ctx(), { slug: "empty", name: "Empty", fields: [{ key: "title", label: "Title", type: "text" }] });
    await manage(token, "POST", "/saved-queries", { body: { name: "on-empty", model_id: empty.id } });
    const gone = await manage<Err>(token, "POST", `/models/${empty.id}/remove`, { body: { expected_revision: empty.revision, confirm: empty.id } });
    expect([gone.status, gone.body.error.code, gone.body.error.queries]).toEqual([409, "model_has_bound_queries", ["on-empty"]]);
  });

  it("a query of a private model is served only with a token naming it", async () => {
    const { s, models, token } = await setup();
    await publishNew(s, models.note.id, { title: "Hidden" });
    await manage(token, "POST", "/saved-queries", { body: { name: "notes", model_id: models.note.id } });
    expect((await publicGet(s.host, "/v1/_queries/notes")).status).toBe(404);
    const siteToken = (await createSiteToken(s.ctx(), { name: "q", model_ids: [models.note.id] })).token;
    const read = await publicGet<ListBody>(s.host, "/v1/_queries/notes", { authorization: `Bearer ${siteToken}` });
    expect(read.status).toBe(200);
    expect(read.body.data.map((i) => i.fields.title)).toEqual(["Hidden"]);
  });
});
