import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import { RECORD_TABLES, SITE_TABLES } from "../../shared/db/tables";
import type { EntryView } from "../../shared/services/lifecycle";
import { ADMIN, adminCall, signIn } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet, type ListBody } from "../helpers/public-api";
import { createEntry, mediaModel, uploadPng } from "../helpers/media-usage";
import { workerFetch } from "../helpers/worker";

/** Moving a site between databases (docs/scale.md, "Moving a site"): POST /api/ops/sites/{id}/database. */

type Err = { error: { code: string } };
interface Moved {
  site_id: string;
  from: string;
  to: string;
  moved: boolean;
  rows: Record<string, number>;
}

const OPS = "test-ops-token";

async function moveCall<T = Moved>(siteId: string, body: unknown, token: string | null = OPS, fetcher: (r: Request) => Promise<Response> = (r) => workerFetch(r)) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetcher(new Request(`${ADMIN}/api/ops/sites/${siteId}/database`, { method: "POST", headers, body: JSON.stringify(body) }));
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function countIn(db: D1Database, table: string, siteId: string): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`).bind(siteId).first<{ n: number }>())?.n ?? -1;
}

/** A site on DB with a published post (cover image), a draft, search on. */
async function siteWithContent() {
  const s = await seedSite({ settings: { search: { enabled: true } } });
  const post = await mediaModel(s, "post");
  await env.DB.prepare("UPDATE sites SET settings = json_set(settings, '$.search.models', json(?)) WHERE id = ?").bind(JSON.stringify([post.id]), s.site.id).run();
  const token = await credential(s);
  const image = await uploadPng(token, "tide");
  const published = await createEntry(token, post, { title: "Driftwood harbour", cover: image.id });
  expect((await manage(token, "POST", `/entries/${published.instance_id}/publish`, { body: {} })).status).toBe(200);
  const draft = await createEntry(token, post, { title: "Unfinished note" });
  // A webhook (content written outside the site's object) and a delivery row (a record).
  const session = await signIn(`${s.site.slug}@example.test`);
  const hook = await adminCall<{ id: string }>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "https://hooks.example.test/move", events: ["*"] } });
  expect(hook.status).toBe(201);
  await env.DB.prepare("INSERT INTO event_deliveries (id, site_id, event_id, webhook_id, attempts, next_attempt_at, state, created_at, updated_at) VALUES (?, ?, 'evt_x', ?, 1, 'x', 'dead', 'x', 'x')")
    .bind(`dlv_${s.site.id}`, s.site.id, hook.body.id)
    .run();
  return { s, post, token, image, published, draft };
}

async function slugOf(token: string, instanceId: string): Promise<string> {
  return (await manage<EntryView>(token, "GET", `/entries/${instanceId}`)).body.slug ?? "";
}

interface Item {
  data: { slug: string; fields: { title: string }; media: { cover: { url: string }[] } };
}

async function readable(host: string, slug: string) {
  const item = await publicGet<Item>(host, `/v1/post/${slug}`);
  expect(item.status).toBe(200);
  expect(item.body.data.fields.title).toBe("Driftwood harbour");
  const list = await publicGet<ListBody>(host, "/v1/post");
  expect(list.body.data.map((d) => d.slug)).toEqual([slug]);
  const found = await publicGet<{ data: { item: { slug: string } }[] }>(host, "/v1/_search?q=harbour");
  expect(found.body.data.map((d) => d.item.slug)).toEqual([slug]);
  const cover = item.body.data.media.cover[0]?.url ?? "";
  expect(cover).toMatch(/^\/media\//);
  const file = await workerFetch(`http://${host}${cover}`);
  expect(file.status).toBe(200);
  expect(file.headers.get("content-type")).toBe("image/png");
  await file.arrayBuffer();
}

describe("POST /api/ops/sites/{id}/database", () => {
  it("moves a site's content to DB_2 and back: every row copied, readable on the public API, the source emptied", async () => {
    const { s, token, image, published, draft } = await siteWithContent();
    const slug = await slugOf(token, published.instance_id);
    await readable(s.host, slug);
    const before: Record<string, number> = {};
    for (const table of SITE_TABLES) before[table] = await countIn(env.DB, table, s.site.id);
    expect(before.media).toBe(1);
    expect(before.published_media).toBeGreaterThan(0);
    expect(before.search_documents).toBe(1);
    expect(before.webhooks).toBe(1);

    const moved = await moveCall(s.site.id, { binding: "DB_2" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ site_id: s.site.id, from: "DB", to: "DB_2", moved: true });
    for (const table of SITE_TABLES) {
      expect(moved.body.rows[table], table).toBe(before[table]);
      expect(await countIn(env.DB_2, table, s.site.id), `${table} in DB_2`).toBe(before[table]);
      expect(await countIn(env.DB, table, s.site.id), `${table} left in DB`).toBe(0);
    }
    // The content writes' records moved with the content.
    for (const table of RECORD_TABLES) {
      expect(await countIn(env.DB_2, table, s.site.id), `${table} in DB_2`).toBeGreaterThan(0);
      expect(await countIn(env.DB, table, s.site.id), `${table} left in DB`).toBe(0);
    }
    expect(await countIn(env.DB_2, "audit_log", s.site.id)).toBeGreaterThan(0);
    // The map names DB_2; the directory stays in DB, DB_2 holds only the anchor.
    expect(await env.DB.prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(s.site.id).first("binding")).toBe("DB_2");
    expect(await env.DB_2.prepare("SELECT name FROM sites WHERE id = ?").bind(s.site.id).first("name")).toBe("");
    expect(await countIn(env.DB, "management_credentials", s.site.id)).toBe(1);

    // Public reads (item, list, search, the cover's file) after the move, from DB_2.
    await readable(s.host, slug);
    // Writes after the move land in DB_2; the draft is there, media still known.
    const got = await manage<EntryView>(token, "GET", `/entries/${draft.instance_id}`);
    expect(got.status).toBe(200);
    const saved = await manage<EntryView>(token, "PUT", `/entries/${draft.instance_id}`, { body: { expected_version_id: got.body.current_version_id, fields: { title: "Finished note" } } });
    expect(saved.status).toBe(200);
    expect((await manage(token, "GET", `/media/${image.id}`)).status).toBe(200);
    expect(await countIn(env.DB, "versions", s.site.id)).toBe(0);
    expect(await countIn(env.DB_2, "versions", s.site.id)).toBe(before.versions! + 1);

    // Moving to where it is already: nothing to do.
    const again = await moveCall(s.site.id, { binding: "DB_2" });
    expect(again.body).toMatchObject({ from: "DB_2", to: "DB_2", moved: false, rows: {} });

    // And back, with a write sent at the same time: the site's object runs it before the copy or
    // after the flip, never between, so it is not lost. DB_2 emptied, its anchor gone.
    const latest = await manage<EntryView>(token, "GET", `/entries/${draft.instance_id}`);
    const [back, concurrent] = await Promise.all([
      moveCall(s.site.id, { binding: "DB" }),
      manage<EntryView>(token, "PUT", `/entries/${draft.instance_id}`, { body: { expected_version_id: latest.body.current_version_id, fields: { title: "Written during the move" } } }),
    ]);
    expect(concurrent.status).toBe(200);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ from: "DB_2", to: "DB", moved: true });
    for (const table of SITE_TABLES) expect(await countIn(env.DB_2, table, s.site.id), `${table} left in DB_2`).toBe(0);
    expect(await env.DB_2.prepare("SELECT id FROM sites WHERE id = ?").bind(s.site.id).first()).toBeNull();
    await readable(s.host, slug);
    expect((await manage<EntryView>(token, "GET", `/entries/${draft.instance_id}`)).body.label).toBe("Written during the move");
    expect(await countIn(env.DB, "versions", s.site.id)).toBe(before.versions! + 2);
  });

  it("refuses an unknown binding, a wrong or missing token, an unknown site and a malformed body, moving nothing", async () => {
    const { s, token, published } = await siteWithContent();
    const unknown = await moveCall<Err>(s.site.id, { binding: "DB_9" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe("unknown_database");
    for (const hostile of ["DB_2; DROP TABLE sites", "__proto__", "db_2", "MEDIA", "SITE"]) {
      const refused = await moveCall<Err>(s.site.id, { binding: hostile });
      expect(refused.status, hostile).toBe(422);
      expect(refused.body.error.code).toBe("unknown_database");
    }
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2" }, "wrong")).status).toBe(401);
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2" }, null)).status).toBe(401);
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2" }, `${OPS}x`)).status).toBe(401);
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2" }, OPS.slice(0, -1))).status).toBe(401);
    expect((await moveCall<Err>("site_doesnotexist", { binding: "DB_2" })).body.error.code).toBe("not_found");
    // Named by slug like every operators' site route (docs/operations-api.md): an unknown slug is 404, a malformed name 400.
    expect((await moveCall<Err>("not-a-site", { binding: "DB_2" })).body.error.code).toBe("not_found");
    expect((await moveCall<Err>("Not A Site!", { binding: "DB_2" })).status).toBe(400);
    expect((await moveCall<Err>(s.site.slug, { binding: "DB_9" })).body.error.code).toBe("unknown_database");
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2", extra: 1 })).status).toBe(400);
    expect((await moveCall<Err>(s.site.id, {})).status).toBe(400);
    // A wrong token never reaches the path: the same 401 for a route that does not exist.
    expect((await moveCall<Err>(s.site.id, { binding: "DB_2" }, "wrong", (r) => workerFetch(new Request(r.url.replace("/database", "/nope"), r)))).status).toBe(401);
    // Nothing moved.
    expect(await env.DB.prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(s.site.id).first()).toBeNull();
    expect(await countIn(env.DB_2, "entries", s.site.id)).toBe(0);
    expect((await publicGet(s.host, `/v1/post/${await slugOf(token, published.instance_id)}`)).status).toBe(200);
  });

  it("names the site by its slug as well as its id", async () => {
    const s = await seedSite();
    const moved = await moveCall(s.site.slug, { binding: "DB_2" });
    expect([moved.status, moved.body.site_id, moved.body.to, moved.body.moved], JSON.stringify(moved.body)).toEqual([200, s.site.id, "DB_2", true]);
    expect(await env.DB.prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(s.site.id).first("binding")).toBe("DB_2");
    expect((await moveCall(s.site.slug, { binding: "DB_2" })).body.moved).toBe(false);
  });

  it("does not exist without an OPS_TOKEN secret: 404 whatever the request says", async () => {
    const { s } = await siteWithContent();
    const withoutSecret = { ...env, OPS_TOKEN: undefined };
    const through = async (request: Request) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, withoutSecret, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    for (const token of [OPS, "", null]) {
      const res = await moveCall<Err>(s.site.id, { binding: "DB_2" }, token, through);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect(await env.DB.prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(s.site.id).first()).toBeNull();
  });
});
