import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import * as lifecycle from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { apply, blogModels, roleActor, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { member } from "../helpers/people-api";
import { publicGet } from "../helpers/public-api";

/**
 * Spec 3, "Bulk actions" and "Publication by language" (docs/bulk-actions.md): seven named routes,
 * at most 25 ids, one result per id in input order, every language for publish and unpublish,
 * Idempotency-Keys per person, the lease guard for each id, 410 on the generic routes.
 */

type Err = { error: { code: string; message: string; [k: string]: unknown } };
type Result = { id: string; status: number; code?: string; changed: { instance_id: string; lang: string }[] };
type Bulk = { action: string; results: Result[]; replayed?: boolean };

interface Fixture {
  s: SeededSite;
  article: string;
  category: string;
  token: string;
}

async function fixture(): Promise<Fixture> {
  const s = await seedSite();
  const { article, category } = await blogModels(s.ctx());
  return { s, article: article.id, category: category.id, token: await credential(s) };
}

let n = 0;
/** An article written directly (no request), in English and optionally French. */
async function article(f: Fixture, options: { title?: string | null; fr?: string | null } = {}): Promise<{ en: string; fr?: string }> {
  const ctx = f.s.ctx();
  const title = options.title === undefined ? `Bulk ${n}` : options.title;
  const en = await apply(ctx, lifecycle.createEntry(ctx, { model_id: f.article, lang: "en", slug: `bulk-${n++}`, fields: title === null ? {} : { title } }));
  if (options.fr === undefined) return { en: en.instance_id };
  const fr = await apply(ctx, lifecycle.addLanguage(ctx, { instance_id: en.instance_id, lang: "fr", slug: `bulk-fr-${n++}`, fields: { title: options.fr } }));
  return { en: en.instance_id, fr: fr.instance_id };
}

async function row(instanceId: string): Promise<{ workflow_state: string; published_version_id: string | null; trashed_at: string | null; assignee_ids: string | null } | null> {
  return env.DB.prepare("SELECT workflow_state, published_version_id, trashed_at, assignee_ids FROM entries WHERE instance_id = ?").bind(instanceId).first();
}

describe("bulk actions: the cap, the order, every language", () => {
  it("publishes 25 items (every language) and refuses 26 ids with 400 naming the cap, writing nothing", async () => {
    const f = await fixture();
    const items = [];
    for (let i = 0; i < 26; i++) items.push(await article(f, i % 5 === 0 ? { fr: `Français ${i}` } : {}));
    const ids = items.map((i) => i.en);

    const over = await manage<Err>(f.token, "POST", "/entries/bulk-publish", { body: { ids } });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: "bulk_limit_exceeded", limit: 25, count: 26 });
    expect(over.body.error.message).toContain("25");
    const published = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND published_version_id IS NOT NULL").bind(f.s.site.id).first<{ n: number }>();
    expect(published?.n).toBe(0);

    const done = await manage<Bulk>(f.token, "POST", "/entries/bulk-publish", { body: { ids: ids.slice(0, 25) } });
    expect(done.status).toBe(200);
    expect(done.body.action).toBe("publish");
    expect(done.body.results.map((r) => r.id)).toEqual(ids.slice(0, 25));
    expect(done.body.results.every((r) => r.status === 200)).toBe(true);
    // Items with a French version: both languages published by the one id.
    expect(done.body.results[0]?.changed.map((c) => c.lang).sort()).toEqual(["en", "fr"]);
    expect(done.body.results[1]?.changed.map((c) => c.lang)).toEqual(["en"]);
    expect((await row(items[0]?.fr ?? ""))?.workflow_state).toBe("published");
    const served = await publicGet<{ data: unknown[] }>(f.s.host, "/v1/article?limit=50");
    expect(served.body.data).toHaveLength(25);
  });

  it("answers each id in input order with its own status and code; a refused language keeps the whole item unpublished", async () => {
    const f = await fixture();
    const good = await article(f);
    const trashed = await article(f);
    await apply(f.s.ctx(), lifecycle.trashEntry(f.s.ctx(), { instance_id: trashed.en }));
    const invalid = await article(f, { title: null });
    const halfInvalid = await article(f, { fr: null });
    const locked = await article(f);
    // Another person edits `locked`: the bulk write of it is 423, the others go on.
    const other = await member(f.s, "admin");
    const theirs = await createManagementCredential(f.s.ctx(roleActor(other.id, "admin")), { name: "b", scopes: [...ALL_SCOPES] });
    expect((await manage(theirs.token, "POST", `/entries/${locked.en}/editing`, { body: {}, key: null })).status).toBe(201);

    const ids = [good.en, "ent_nope", trashed.en, invalid.en, halfInvalid.en, locked.en];
    const res = await manage<Bulk>(f.token, "POST", "/entries/bulk-publish", { body: { ids } });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => [r.id, r.status, r.code ?? null])).toEqual([
      [good.en, 200, null],
      ["ent_nope", 404, "not_found"],
      [trashed.en, 409, "entry_in_trash"],
      [invalid.en, 422, "field_validation_failed"],
      [halfInvalid.en, 422, "field_validation_failed"],
      [locked.en, 423, "locked"],
    ]);
    expect((await row(good.en))?.workflow_state).toBe("published");
    // The English language was valid, the French not: neither is published.
    expect((await row(halfInvalid.en))?.published_version_id).toBeNull();
    expect((await row(halfInvalid.fr ?? ""))?.published_version_id).toBeNull();
    expect((await row(locked.en))?.published_version_id).toBeNull();
    // Only the written id has events and audit rows.
    const events = await env.DB.prepare("SELECT name FROM outbox_events WHERE site_id = ? AND name = 'entry.published'").bind(f.s.site.id).all();
    expect(events.results).toHaveLength(1);
  });

  it("unpublishes every language; moves to Trash and restores whole items; refuses Trash of a published item per id", async () => {
    const f = await fixture();
    const a = await article(f, { fr: "Un" });
    const b = await article(f);
    expect((await manage<Bulk>(f.token, "POST", "/entries/bulk-publish", { body: { ids: [a.en, b.en] } })).body.results.map((r) => r.status)).toEqual([200, 200]);

    const trashPublished = await manage<Bulk>(f.token, "POST", "/entries/bulk-trash", { body: { ids: [a.fr, b.en] } });
    expect(trashPublished.body.results.map((r) => r.code)).toEqual(["entry_published", "entry_published"]);

    const down = await manage<Bulk>(f.token, "POST", "/entries/bulk-unpublish", { body: { ids: [a.fr, b.en] } });
    expect(down.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect(down.body.results[0]?.changed.map((c) => c.lang).sort()).toEqual(["en", "fr"]);
    expect((await row(a.en))?.published_version_id).toBeNull();
    const again = await manage<Bulk>(f.token, "POST", "/entries/bulk-unpublish", { body: { ids: [b.en] } });
    expect(again.body.results[0]).toMatchObject({ status: 422, code: "transition_unavailable", changed: [] });

    const trashed = await manage<Bulk>(f.token, "POST", "/entries/bulk-trash", { body: { ids: [a.en, b.en] } });
    expect(trashed.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect((await row(a.fr ?? ""))?.trashed_at).not.toBeNull();
    const restored = await manage<Bulk>(f.token, "POST", "/entries/bulk-restore", { body: { ids: [a.en, b.en, a.fr] } });
    expect(restored.body.results.map((r) => [r.status, r.code ?? null])).toEqual([[200, null], [200, null], [409, "entry_not_in_trash"]]);
    expect((await row(a.fr ?? ""))?.trashed_at).toBeNull();
  });

  it("moves, assigns and relates per entry language, with the single routes' refusals", async () => {
    const f = await fixture();
    const a = await article(f);
    const b = await article(f);
    const ctx = f.s.ctx();
    const cats = [];
    for (let i = 0; i < 11; i++) cats.push((await apply(ctx, lifecycle.createEntry(ctx, { model_id: f.category, lang: "en", slug: `cat-${n++}`, fields: { title: `C${i}` } }))).instance_id);

    const moved = await manage<Bulk>(f.token, "POST", "/entries/bulk-move", { body: { ids: [a.en, b.en], to: "in_review" } });
    expect(moved.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect((await row(a.en))?.workflow_state).toBe("in_review");
    const badMove = await manage<Bulk>(f.token, "POST", "/entries/bulk-move", { body: { ids: [a.en], to: "in_review" } });
    expect(badMove.body.results[0]).toMatchObject({ status: 422, code: "transition_unavailable" });

    const assigned = await manage<Bulk>(f.token, "POST", "/entries/bulk-assign", { body: { ids: [a.en, b.en], assignee_ids: [f.s.adminId] } });
    expect(assigned.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse((await row(b.en))?.assignee_ids ?? "[]")).toEqual([f.s.adminId]);
    const notEligible = await manage<Bulk>(f.token, "POST", "/entries/bulk-assign", { body: { ids: [a.en], assignee_ids: ["per_nobody"] } });
    expect(notEligible.body.results[0]).toMatchObject({ status: 422, code: "assignee_not_eligible" });

    const related = await manage<Bulk>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en, b.en], field: "categories", add: cats.slice(0, 3) } });
    expect(related.body.results.map((r) => r.status)).toEqual([200, 200]);
    const links = async (id: string) => (await manage<{ fields: { categories: unknown } }>(f.token, "GET", `/entries/${id}`)).body.fields.categories;
    expect(await links(b.en)).toEqual(cats.slice(0, 3));
    const removed = await manage<Bulk>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "categories", remove: [cats[1]] } });
    expect(removed.body.results[0]?.status).toBe(200);
    expect(await links(a.en)).toEqual([cats[0], cats[2]]);
    const notRelation = await manage<Bulk>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "title", add: [cats[0]] } });
    expect(notRelation.body.results[0]).toMatchObject({ status: 400, code: "invalid_request" });
    const missing = await manage<Bulk>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "categories", add: ["ent_missing"] } });
    expect(missing.body.results[0]).toMatchObject({ status: 422, code: "relation_target_not_found" });
    const tooMany = await manage<Err>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "categories", add: cats } });
    // 11 related entries (or 6 added + 5 removed): 400 naming the cap, as 26 ids do.
    expect([tooMany.status, tooMany.body.error.code, tooMany.body.error.limit, tooMany.body.error.count]).toEqual([400, "bulk_limit_exceeded", 10, 11]);
    const tooManyTogether = await manage<Err>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "categories", add: cats.slice(0, 6), remove: cats.slice(6) } });
    expect([tooManyTogether.status, tooManyTogether.body.error.code, tooManyTogether.body.error.limit]).toEqual([400, "bulk_limit_exceeded", 10]);
    const both = await manage<Err>(f.token, "POST", "/entries/bulk-relate", { body: { ids: [a.en], field: "categories", add: [cats[3]], remove: [cats[3]] } });
    expect([both.status, both.body.error.code]).toEqual([400, "invalid_request"]);
    expect(await links(a.en)).toEqual([cats[0], cats[2]]);
    const repeated = await manage<Err>(f.token, "POST", "/entries/bulk-trash", { body: { ids: [a.en, a.en] } });
    expect(repeated.status).toBe(400);
  });
});

describe("bulk actions: keys, scopes and the retired routes", () => {
  it("replays a key for its person, treats the same key from another person as another request, and refuses a reused key", async () => {
    const f = await fixture();
    const a = await article(f);
    const key = newKey();
    const first = await manage<Bulk>(f.token, "POST", "/entries/bulk-publish", { key, body: { ids: [a.en] } });
    expect(first.body.results[0]?.status).toBe(200);
    const replay = await manage<Bulk>(f.token, "POST", "/entries/bulk-publish", { key, body: { ids: [a.en] } });
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    const reused = await manage<Err>(f.token, "POST", "/entries/bulk-publish", { key, body: { ids: [a.en, "ent_x"] } });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    // Another person, same key and body: a request of its own, which finds the item published.
    const other = await member(f.s, "admin");
    const theirs = await createManagementCredential(f.s.ctx(roleActor(other.id, "admin")), { name: "b", scopes: [...ALL_SCOPES] });
    const second = await manage<Bulk>(theirs.token, "POST", "/entries/bulk-publish", { key, body: { ids: [a.en] } });
    expect(second.body.replayed).toBeUndefined();
    expect(second.body.results[0]).toMatchObject({ status: 422, code: "transition_unavailable" });
  });

  it("needs each action's scope and the role's permission for each id", async () => {
    const f = await fixture();
    const a = await article(f);
    const readOnly = await credential(f.s, ["content:read"]);
    const refused = await manage<Err>(readOnly, "POST", "/entries/bulk-publish", { body: { ids: [a.en] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    // A credential limited to categories: the article is not there for it, id by id.
    const categoriesOnly = await credential(f.s, ["content:read", "content:trash"], [f.category]);
    const denied = await manage<Bulk>(categoriesOnly, "POST", "/entries/bulk-trash", { body: { ids: [a.en] } });
    expect(denied.body.results[0]).toMatchObject({ status: 404, code: "not_found" });
    expect((await row(a.en))?.trashed_at).toBeNull();
  });

  it("answers 410 on the generic /many and /bulk routes of every collection, naming the bulk routes", async () => {
    const f = await fixture();
    for (const [method, path] of [["POST", "/entries/bulk"], ["GET", "/entries/many"], ["PATCH", "/entries/many"], ["DELETE", "/entries/bulk"], ["POST", "/models/bulk"], ["POST", "/media/many"], ["PUT", "/roles/bulk"], ["POST", "/media/folders/many"], ["POST", "/plugins/bulk"], ["GET", "/entries/bulk/"], ["POST", "/entries/ent_any/versions/many"], ["GET", "/imports/imp_any/findings/bulk"], ["POST", "/imports/many"], ["POST", "/exports/bulk"], ["GET", "/media/med_any/originals/many"]] as const) {
      const res = await manage<Err & { error: { routes: { operation: string; path: string }[] } }>(f.token, method, path, method === "GET" ? {} : { body: { ids: ["x"] } });
      expect(res.status, `${method} ${path}`).toBe(410);
      expect(res.body.error.code).toBe("bulk_route_gone");
      expect(res.body.error.routes.map((r) => r.operation)).toContain("bulkPublishEntries");
      expect(res.body.error.routes.map((r) => r.path)).toContain("/entries/bulk-publish");
    }
    // A path no route matches still asks for the credential first; an item's own path stays the item's.
    expect((await manage<Err>(null, "POST", "/plugins/bulk", { body: {} })).status).toBe(401);
    expect((await manage<Err>(f.token, "GET", "/entries/ent_any/bulk")).status).toBe(404);
  });
});
