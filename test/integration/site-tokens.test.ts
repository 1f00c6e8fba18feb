import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import * as lifecycle from "../../shared/services/lifecycle";
import { adminCall, signIn, withoutRequestId, type AdminSession, type ErrorBody } from "../helpers/admin-api";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

interface CreatedToken {
  id: string;
  name: string;
  model_ids: string[];
  created_at: string;
  token: string;
}

interface TokenView {
  id: string;
  name: string;
  model_ids: string[];
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** A site with the blog models, one published note (private) and one published article (public). */
async function siteWithContent() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const note = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.note.id, slug: "hello", fields: { title: "Hello" } }));
  await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: note.instance_id }));
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Public article" } }));
  await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: article.instance_id }));
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, session };
}

async function createToken(session: AdminSession, s: SeededSite, body: unknown) {
  return adminCall<CreatedToken>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("POST /api/site-tokens", () => {
  it("creates a dw_site_ token shown once that reads the private model, never cached", async () => {
    const { s, models, session } = await siteWithContent();
    const res = await createToken(session, s, { name: "Frontend", model_ids: [models.note.id, models.note.id] });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^dw_site_[A-Za-z0-9_-]{43}$/);
    expect(res.body.id).toMatch(/^tok_/);
    expect(res.body).toEqual({ id: res.body.id, name: "Frontend", model_ids: [models.note.id], created_at: res.body.created_at, token: res.body.token });

    const list = await publicGet<{ data: { slug: string }[] }>(s.host, "/v1/note", bearer(res.body.token));
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("private, no-store");
    expect(list.body.data.map((d) => d.slug)).toEqual(["hello"]);
    const item = await publicGet(s.host, "/v1/note/hello", bearer(res.body.token));
    expect(item.status).toBe(200);
    expect(item.headers.get("cache-control")).toBe("private, no-store");
  });

  it("stores the digest, never the secret, and audits without it", async () => {
    const { s, models, session } = await siteWithContent();
    const res = await createToken(session, s, { name: "Frontend", model_ids: [models.note.id] });
    const row = await env.DB.prepare("SELECT * FROM site_api_tokens WHERE id = ?").bind(res.body.id).first<Record<string, unknown>>();
    expect(row?.digest).toBe(await sha256Hex(res.body.token));
    expect(row?.created_by).toBe(s.adminId);
    expect(JSON.stringify(row)).not.toContain(res.body.token);
    expect(JSON.stringify(row)).not.toContain(res.body.token.slice("dw_site_".length));

    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE site_id = ? AND action = 'site_token.create'").bind(s.site.id).all<Record<string, unknown>>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor_kind: "person", actor_id: s.adminId, target_kind: "site_api_token", target_id: res.body.id });
    expect(JSON.stringify(audit.results)).not.toContain(res.body.token);
  });

  it("refuses model ids that are not this site's models with 422 and writes nothing", async () => {
    const { s, models, session } = await siteWithContent();
    const other = await seedSite();
    const otherModels = await blogModels(other.ctx());
    for (const ids of [["mdl_nope"], [models.note.id, otherModels.note.id]]) {
      const res = await adminCall<ErrorBody & { error: { model_ids: string[] } }>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "x", model_ids: ids } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("unknown_model");
      expect(res.body.error.model_ids).toEqual(ids.filter((id) => id !== models.note.id));
    }
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM site_api_tokens WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("refuses malformed bodies with 400", async () => {
    const { s, models, session } = await siteWithContent();
    for (const body of [
      { name: "", model_ids: [models.note.id] },
      { name: "x".repeat(81), model_ids: [models.note.id] },
      { name: "x", model_ids: [] },
      { name: "x", model_ids: Array.from({ length: 51 }, (_, i) => `mdl_${i}`) },
      { name: "x", model_ids: [models.note.id], scope: "all" },
      { model_ids: [models.note.id] },
    ]) {
      const res = await adminCall<ErrorBody>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });
});

describe("public reads with site API tokens", () => {
  it("answers no, wrong, revoked, foreign and out-of-scope tokens with one identical 404", async () => {
    const { s, models, session } = await siteWithContent();
    const other = await siteWithContent();
    const revoked = (await createToken(session, s, { name: "Old", model_ids: [models.note.id] })).body;
    expect((await adminCall(session, "DELETE", `/api/site-tokens/${revoked.id}`, { siteId: s.site.id })).status).toBe(200);
    const foreign = (await createToken(other.session, other.s, { name: "Theirs", model_ids: [other.models.note.id] })).body;
    const articleOnly = (await createToken(session, s, { name: "Articles", model_ids: [models.article.id] })).body;

    const attempts: Record<string, string>[] = [
      {},
      bearer(`dw_site_${"A".repeat(43)}`),
      bearer("not-a-token"),
      bearer(revoked.token),
      bearer(foreign.token),
      bearer(articleOnly.token),
    ];
    for (const path of ["/v1/note", "/v1/note/hello"]) {
      const bodies = [];
      for (const headers of attempts) {
        const res = await publicGet(s.host, path, headers);
        expect(res.status).toBe(404);
        bodies.push(withoutRequestId(res.body));
      }
      const unknownModel = await publicGet(s.host, "/v1/nothing-here");
      for (const body of bodies) expect(body).toEqual(withoutRequestId(unknownModel.body));
    }
    // The foreign token does read its own site.
    expect((await publicGet(other.s.host, "/v1/note", bearer(foreign.token))).status).toBe(200);
  });

  it("serves a public model to a token-carrying request as private, no-store", async () => {
    const { s, models, session } = await siteWithContent();
    const token = (await createToken(session, s, { name: "Frontend", model_ids: [models.note.id] })).body.token;
    const withToken = await publicGet(s.host, "/v1/article", bearer(token));
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("cache-control")).toBe("private, no-store");
    const anonymous = await publicGet(s.host, "/v1/article");
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /api/site-tokens", () => {
  it("lists the site's tokens without secrets or digests, revoked ones with revoked_at", async () => {
    const { s, models, session } = await siteWithContent();
    const a = (await createToken(session, s, { name: "A", model_ids: [models.note.id] })).body;
    const b = (await createToken(session, s, { name: "B", model_ids: [models.note.id, models.article.id] })).body;
    await adminCall(session, "DELETE", `/api/site-tokens/${a.id}`, { siteId: s.site.id });
    const other = await siteWithContent();
    await createToken(other.session, other.s, { name: "Elsewhere", model_ids: [other.models.note.id] });

    const res = await adminCall<{ data: TokenView[] }>(session, "GET", "/api/site-tokens", { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t) => t.name).sort()).toEqual(["A", "B"]);
    for (const t of res.body.data) expect(Object.keys(t).sort()).toEqual(["created_at", "created_by", "id", "model_ids", "name", "revoked_at"]);
    expect(res.body.data.find((t) => t.id === a.id)?.revoked_at).toEqual(expect.any(String));
    expect(res.body.data.find((t) => t.id === b.id)).toMatchObject({ revoked_at: null, model_ids: [models.note.id, models.article.id] });
    const text = JSON.stringify(res.body);
    for (const secret of [a.token, b.token]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(await sha256Hex(secret));
    }
  });
});

describe("DELETE /api/site-tokens/{id}", () => {
  it("revokes on the next request, audits once, and does not reach other sites' tokens", async () => {
    const { s, models, session } = await siteWithContent();
    const created = (await createToken(session, s, { name: "Frontend", model_ids: [models.note.id] })).body;
    expect((await publicGet(s.host, "/v1/note", bearer(created.token))).status).toBe(200);

    const revoked = await adminCall<TokenView>(session, "DELETE", `/api/site-tokens/${created.id}`, { siteId: s.site.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    expect((await publicGet(s.host, "/v1/note", bearer(created.token))).status).toBe(404);

    const again = await adminCall<TokenView>(session, "DELETE", `/api/site-tokens/${created.id}`, { siteId: s.site.id });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND action = 'site_token.revoke' AND target_id = ?").bind(s.site.id, created.id).first<{ n: number }>();
    expect(audit?.n).toBe(1);

    const other = await siteWithContent();
    const theirs = (await createToken(other.session, other.s, { name: "Theirs", model_ids: [other.models.note.id] })).body;
    const cross = await adminCall<ErrorBody>(session, "DELETE", `/api/site-tokens/${theirs.id}`, { siteId: s.site.id });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe("not_found");
    expect((await publicGet(other.s.host, "/v1/note", bearer(theirs.token))).status).toBe(200);
  });
});
