import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

type Err = { error: { code: string; [k: string]: unknown } };

describe("management API: every request", () => {
  it("refuses a missing, malformed or revoked credential with 401, and a request naming a site with 400", async () => {
    const s = await seedSite();
    const token = await credential(s);
    expect((await manage(null, "GET", "/site")).status).toBe(401);
    expect((await manage("dwm_nope", "GET", "/site")).status).toBe(401);
    expect((await manage(`dwm_${"A".repeat(43)}`, "GET", "/site")).status).toBe(401);
    const site = await manage<{ id: string; credential: { scopes: string[] } }>(token, "GET", "/site");
    expect(site.status).toBe(200);
    expect(site.body.id).toBe(s.site.id);
    expect((await manage<Err>(token, "GET", "/site", { headers: { "x-site-id": s.site.id } })).body.error.code).toBe("invalid_request");
    expect((await manage(token, "GET", "/site?database=x")).status).toBe(400);
  });

  it("needs the route's scope, an Idempotency-Key on writes, and closed bodies", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const readOnly = await credential(s, ["content:read"]);
    const refused = await manage<Err>(readOnly, "POST", "/entries", { body: { model_id: author.id, fields: { name: "A" } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "insufficient_scope", scope: "content:write" });
    const token = await credential(s);
    const noKey = await manage<Err>(token, "POST", "/entries", { key: null, body: { model_id: author.id, fields: { name: "A" } } });
    expect(noKey.status).toBe(400);
    for (const bad of ["", "has space", "x".repeat(129), "é"]) {
      const res = await manage<Err>(token, "POST", "/entries", { key: bad, body: { model_id: author.id, fields: { name: "A" } } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const unknownKey = await manage<Err>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "A" }, extra: 1 } });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.error.code).toBe("invalid_request");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});

describe("management API: entries end to end", () => {
  it("creates, translates, publishes (seen publicly), and replays every write safely", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const createKey = newKey();
    const created = await manage<EntryView>(token, "POST", "/entries", { key: createKey, body: { model_id: article.id, fields: { title: "Hello API" } } });
    expect(created.status).toBe(201);
    const replay = await manage<EntryView & { replayed?: boolean }>(token, "POST", "/entries", { key: createKey, body: { fields: { title: "Hello API" }, model_id: article.id } });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...created.body, replayed: true });
    const reused = await manage<Err>(token, "POST", "/entries", { key: createKey, body: { model_id: article.id, fields: { title: "Other" } } });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");

    const id = created.body.instance_id;
    const saved = await manage<EntryView>(token, "PUT", `/entries/${id}`, { body: { expected_version_id: created.body.current_version_id, fields: { summary: "S" } } });
    expect(saved.status).toBe(200);
    const stale = await manage<Err>(token, "PUT", `/entries/${id}`, { body: { expected_version_id: created.body.current_version_id, fields: { summary: "T" } } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");

    const fr = await manage<EntryView>(token, "POST", `/entries/${id}/languages`, { body: { lang: "fr", slug: "bonjour-api", fields: { title: "Bonjour API" } } });
    expect(fr.status).toBe(201);
    expect(fr.body.translation_group_id).toBe(created.body.translation_group_id);

    const publishKey = newKey();
    const published = await manage<EntryView>(token, "POST", `/entries/${id}/publish`, { key: publishKey, body: { expected_version_id: saved.body.current_version_id, expected_workflow_revision: 0 } });
    expect(published.status).toBe(200);
    expect(published.body.workflow.state).toBe("published");
    const again = await manage<EntryView & { replayed?: boolean }>(token, "POST", `/entries/${id}/publish`, { key: publishKey, body: { expected_version_id: saved.body.current_version_id, expected_workflow_revision: 0 } });
    expect(again.body.replayed).toBe(true);
    expect(again.body.workflow).toEqual(published.body.workflow);
    const retention = await env.DB.prepare("SELECT created_at, expires_at FROM idempotency_results WHERE site_id = ? AND key = ?").bind(s.site.id, publishKey).first<{ created_at: string; expires_at: string }>();
    expect(Date.parse(retention?.expires_at ?? "") - Date.parse(retention?.created_at ?? "")).toBe(30 * 24 * 3600 * 1000);
    const publicItem = await publicGet<{ data: { fields: { title: string; summary: string } } }>(s.host, "/v1/article/hello-api");
    expect(publicItem.body.data.fields).toMatchObject({ title: "Hello API", summary: "S" });

    const read = await manage<EntryView>(token, "GET", `/entries/${id}`);
    expect(read.body.published_version_id).toBe(saved.body.current_version_id);
    const versions = await manage<{ data: { id: string }[] }>(token, "GET", `/entries/${id}/versions`);
    expect(versions.body.data).toHaveLength(2);
    const list = await manage<{ data: EntryView[] }>(token, "GET", `/entries?model_id=${article.id}&lang=fr`);
    expect(list.body.data.map((e) => e.instance_id)).toEqual([fr.body.instance_id]);

    const unpublished = await manage<EntryView>(token, "POST", `/entries/${id}/unpublish`, { body: {} });
    expect(unpublished.body.workflow.state).toBe("unpublished");
    expect((await publicGet(s.host, "/v1/article/hello-api")).status).toBe(404);
    const trashKey = newKey();
    const trashed = await manage<{ instance_ids: string[] }>(token, "POST", `/entries/${id}/trash`, { key: trashKey, body: {} });
    expect(trashed.body.instance_ids.sort()).toEqual([id, fr.body.instance_id].sort());
    const purgeKey = newKey();
    const purged = await manage<{ purged_instance_ids: string[] }>(token, "POST", `/entries/${id}/purge`, { key: purgeKey, body: {} });
    expect(purged.status).toBe(200);
    // A purge retry replays although the entry is gone.
    const purgeAgain = await manage<{ replayed?: boolean; purged_instance_ids: string[] }>(token, "POST", `/entries/${id}/purge`, { key: purgeKey, body: {} });
    expect(purgeAgain.body).toEqual({ ...purged.body, replayed: true });
  });

  it("runs concurrent identical requests once", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const token = await credential(s);
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 6 }, () => manage<EntryView & { replayed?: boolean }>(token, "POST", "/entries", { key, body: { model_id: author.id, fields: { name: "Once" } } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.every((st) => st === 201 || st === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201 && !r.body.replayed)).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.headers.get("retry-after")).toBe("1");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("keys belong to the credential: another credential's same key is another request", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const one = await credential(s);
    const two = await credential(s);
    const a = await manage<EntryView>(one, "POST", "/entries", { key: "shared-key", body: { model_id: author.id, fields: { name: "One" } } });
    const b = await manage<EntryView & { replayed?: boolean }>(two, "POST", "/entries", { key: "shared-key", body: { model_id: author.id, fields: { name: "Two" } } });
    expect(b.status).toBe(201);
    expect(b.body.replayed).toBeUndefined();
    expect(b.body.instance_id).not.toBe(a.body.instance_id);
  });

  it("applies the creator's current role: ownership, field and language limits, with nothing written", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const other = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Mine" } } });
    const titleId = article.fields.find((f) => f.key === "title")?.id;
    const admin = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(s.adminId, s.site.id).first<{ id: string; permissions: string }>();
    const limited = { ...JSON.parse(admin?.permissions ?? "{}"), limits: { fields: { [article.id]: { write: [titleId], read: [titleId] } }, languages: { create: ["en"] } } };
    await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = ?").bind(JSON.stringify(limited), admin?.id).run();
    const denied = await manage<Err>(token, "PUT", `/entries/${other.body.instance_id}`, { body: { expected_version_id: other.body.current_version_id, fields: { summary: "no" } } });
    expect(denied.body.error.code).toBe("field_denied");
    const locale = await manage<Err>(token, "POST", `/entries/${other.body.instance_id}/languages`, { body: { lang: "fr", slug: "x-fr" } });
    expect(locale.body.error.code).toBe("locale_denied");
    const read = await manage<EntryView>(token, "GET", `/entries/${other.body.instance_id}`);
    expect(Object.keys(read.body.fields)).toEqual(["title"]);
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(other.body.instance_id).first<{ n: number }>();
    expect(versions?.n).toBe(1);
  });

  it("answers 429 with Retry-After past the credential's rate limit", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    // vitest.config.ts sets MANAGE_RATE_LIMIT to 40 per minute for tests (default 600).
    for (let batch = 0; batch < 5; batch++) {
      const results = await Promise.all(Array.from({ length: 10 }, () => manage(token, "GET", "/site")));
      for (const r of results) {
        statuses.push(r.status);
        if (r.status === 429) retryAfter = r.headers.get("retry-after");
      }
    }
    expect(statuses.filter((st) => st === 200)).toHaveLength(40);
    expect(statuses.filter((st) => st === 429)).toHaveLength(10);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
