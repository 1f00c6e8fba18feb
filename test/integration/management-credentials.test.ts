import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PermissionSet } from "../../schema/permissions";
import { ALL_SCOPES, type Scope } from "../../schema/scopes";
import { ensureDemoCredentials } from "../../scripts/seed/credentials";
import { authenticateManagement, hasScope, type ManagementAuth } from "../../shared/auth/management-authority";
import { intersectPermissionSets } from "../../shared/auth/permissions";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { scopeCeiling } from "../../shared/auth/scope-ceiling";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { sha256Hex } from "../../shared/crypto/digest";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { grantMembership, provisionPerson } from "../../shared/services/sites/provision";
import { adminCall, roleId, signIn, type AdminSession, type ErrorBody } from "../helpers/admin-api";
import { blogModels, fixturePasswordHash, seedSite, type SeededSite } from "../helpers/fixtures";

interface Created {
  id: string;
  name: string;
  scopes: Scope[];
  model_ids: string[] | null;
  created_at: string;
  token: string;
}

interface View {
  id: string;
  name: string;
  scopes: Scope[];
  model_ids: string[] | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

type GrantRefusal = ErrorBody & { error: { scopes?: string[]; model_ids?: string[] } };

const PATH = "/api/management-credentials";

function seeded(slug: "admin" | "editor" | "author" | "viewer"): PermissionSet {
  const found = SEEDED_ROLES.find((r) => r.slug === slug);
  if (!found) throw new Error(`no role ${slug}`);
  return structuredClone(found.permissions);
}

function withSettings(set: PermissionSet): PermissionSet {
  return { ...set, system: [...set.system, "site:settings"] };
}

let counter = 0;

/** A role of the site with the given permissions (inserted directly; role writes are another issue). */
async function addRole(s: SeededSite, permissions: PermissionSet): Promise<string> {
  const id = newId("role");
  const at = new Date().toISOString();
  const slug = `custom-${counter++}`;
  await env.DB.prepare("INSERT INTO roles (id, site_id, slug, name, permissions, seeded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)")
    .bind(id, s.site.id, slug, slug, JSON.stringify(permissions), at, at)
    .run();
  return id;
}

/** A person holding `roleId` on the site, signed in. */
async function member(s: SeededSite, roleIdOnSite: string, options: { superadmin?: boolean } = {}): Promise<{ id: string; session: AdminSession }> {
  const db = createDb(env.DB);
  const at = new Date().toISOString();
  const email = `member-${Date.now().toString(36)}-${counter++}@example.test`;
  const p = await provisionPerson(db, { email, name: "Member", password: "pw", is_superadmin: options.superadmin ?? false }, at, fixturePasswordHash("pw"));
  await commit(env.DB, [...p.statements, grantMembership(db, s.site.id, p.personId, roleIdOnSite, at)]);
  return { id: p.personId, session: await signIn(email, "pw") };
}

async function create(session: AdminSession, s: SeededSite, body: unknown) {
  return adminCall<Created>(session, "POST", PATH, { siteId: s.site.id, body });
}

async function created(session: AdminSession, s: SeededSite, body: unknown): Promise<Created> {
  const res = await create(session, s, body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

function request(token: string | null, scheme = "Bearer"): Request {
  const headers: Record<string, string> = token === null ? {} : { authorization: `${scheme} ${token}` };
  return new Request("https://demo.localhost/api/manage/v1/site", { headers });
}

async function authenticate(token: string | null): Promise<ManagementAuth> {
  return authenticateManagement(env.DB, request(token));
}

/** The refusal of an authentication, as code, status and message. */
async function refusal(token: string | null, scheme?: string): Promise<{ code: string; status: number; message: string }> {
  try {
    await authenticateManagement(env.DB, request(token, scheme));
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error("authenticated");
}

async function countRows(siteId: string): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM management_credentials WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? 0;
}

async function adminSession(s: SeededSite): Promise<AdminSession> {
  return signIn(`${s.site.slug}@example.test`);
}

describe("POST /api/management-credentials", () => {
  it("shows a dwm_ token once, stores only its digest, audits without it", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const res = await create(session, s, { name: "  CI deploy  ", scopes: ["schema:write", "content:write", "schema:write"] });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^dwm_[A-Za-z0-9_-]{43}$/);
    expect(res.body.id).toMatch(/^mcr_/);
    expect(res.body).toEqual({
      id: res.body.id,
      name: "CI deploy",
      scopes: ["content:read", "content:write", "schema:write"],
      model_ids: null,
      created_at: res.body.created_at,
      token: res.body.token,
    });

    const row = await env.DB.prepare("SELECT * FROM management_credentials WHERE id = ?").bind(res.body.id).first<Record<string, unknown>>();
    expect(row).toEqual({
      id: res.body.id,
      site_id: s.site.id,
      name: "CI deploy",
      digest: await sha256Hex(res.body.token),
      scopes: JSON.stringify(["content:read", "content:write", "schema:write"]),
      model_ids: null,
      created_by: s.adminId,
      created_at: res.body.created_at,
      revoked_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(res.body.token.slice("dwm_".length));

    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE site_id = ? AND action = 'management_credential.create'").bind(s.site.id).all<Record<string, unknown>>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor_kind: "person", actor_id: s.adminId, target_kind: "management_credential", target_id: res.body.id });
    const details = JSON.parse(String(audit.results[0]?.details)) as Record<string, string>;
    expect(Object.keys(details).sort()).toEqual(["model_ids", "name", "scopes"]);
    for (const value of Object.values(details)) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(audit.results)).not.toContain(res.body.token.slice("dwm_".length));

    // Using it keeps no usage counter or last-used time: the row is unchanged.
    await authenticate(res.body.token);
    await authenticate(res.body.token);
    expect(await env.DB.prepare("SELECT * FROM management_credentials WHERE id = ?").bind(res.body.id).first()).toEqual(row);
  });

  it("authenticates as the creator, narrowed by scopes and models", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const session = await adminSession(s);
    const all = await created(session, s, { name: "All", scopes: ["content:write", "lifecycle:publish"] });
    const auth = await authenticate(all.token);
    expect(auth.credential).toEqual({ kind: "management_credential", id: all.id, name: "All", scopes: ["content:read", "content:write", "lifecycle:publish"], model_ids: null });
    expect(auth.site.id).toBe(s.site.id);
    expect(auth.actor).toEqual({
      kind: "management_credential",
      id: s.adminId,
      credentialId: all.id,
      scopes: ["content:read", "content:write", "lifecycle:publish"],
      permissions: { models: { "*": ["read", "create", "update", "update:own", "publish", "unpublish", "restore"] }, system: ["content:restore"] },
    });
    expect(hasScope(auth, "lifecycle:publish")).toBe(true);
    expect(hasScope(auth, "schema:write")).toBe(false);

    const one = await created(session, s, { name: "Notes", scopes: [], model_ids: [models.note.id, models.note.id] });
    expect(one.model_ids).toEqual([models.note.id]);
    expect(one.scopes).toEqual(["content:read"]);
    const narrowed = await authenticate(one.token);
    expect(narrowed.actor.permissions).toEqual({ models: { [models.note.id]: ["read"] }, system: [] });
  });

  it("refuses an editor schema:write and a viewer content:write with grant_not_held naming them", async () => {
    const s = await seedSite();
    const editor = await member(s, await addRole(s, withSettings(seeded("editor"))));
    const refusedEditor = await adminCall<GrantRefusal>(editor.session, "POST", PATH, { siteId: s.site.id, body: { name: "x", scopes: ["content:write", "schema:write", "schema:propose"] } });
    expect(refusedEditor.status).toBe(422);
    expect(refusedEditor.body.error.code).toBe("grant_not_held");
    expect(refusedEditor.body.error.scopes).toEqual(["schema:propose", "schema:write"]);
    expect(refusedEditor.body.error.model_ids).toBeUndefined();
    // What the editor holds it may grant.
    expect((await create(editor.session, s, { name: "ok", scopes: ["content:write", "lifecycle:publish", "media:write", "settings:write"] })).status).toBe(201);

    const viewer = await member(s, await addRole(s, withSettings(seeded("viewer"))));
    const refusedViewer = await adminCall<GrantRefusal>(viewer.session, "POST", PATH, { siteId: s.site.id, body: { name: "x", scopes: ["content:write", "content:propose"] } });
    expect(refusedViewer.status).toBe(422);
    expect(refusedViewer.body.error.code).toBe("grant_not_held");
    expect(refusedViewer.body.error.scopes).toEqual(["content:write"]);
    expect(await countRows(s.site.id)).toBe(1);
  });

  it("refuses models the creator may not read with grant_not_held naming them", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const limited = await member(s, await addRole(s, { models: { [models.article.id]: ["read", "update"] }, system: ["site:settings"] }));
    const res = await adminCall<GrantRefusal>(limited.session, "POST", PATH, { siteId: s.site.id, body: { name: "x", scopes: ["content:write"], model_ids: [models.article.id, models.note.id] } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("grant_not_held");
    expect(res.body.error.model_ids).toEqual([models.note.id]);
    expect(res.body.error.scopes).toBeUndefined();
    const ok = await created(limited.session, s, { name: "Articles", scopes: ["content:write"], model_ids: [models.article.id] });
    expect((await authenticate(ok.token)).actor.permissions).toEqual({ models: { [models.article.id]: ["read", "update"] }, system: [] });
  });

  it("refuses model ids of another site with unknown_model and writes nothing", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const other = await seedSite();
    const otherModels = await blogModels(other.ctx());
    const session = await adminSession(s);
    for (const ids of [["mdl_nope"], [models.note.id, otherModels.note.id]]) {
      const res = await adminCall<ErrorBody & { error: { model_ids: string[] } }>(session, "POST", PATH, { siteId: s.site.id, body: { name: "x", scopes: ["content:read"], model_ids: ids } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("unknown_model");
      expect(res.body.error.model_ids).toEqual(ids.filter((id) => id !== models.note.id));
    }
    expect(await countRows(s.site.id)).toBe(0);
  });

  it("needs site:settings and refuses malformed bodies with 400", async () => {
    const s = await seedSite();
    const viewer = await member(s, await roleId(s.site.id, "viewer"));
    const denied = await adminCall<ErrorBody>(viewer.session, "POST", PATH, { siteId: s.site.id, body: { name: "x", scopes: [] } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("missing_permission");
    expect((await adminCall<ErrorBody>(viewer.session, "GET", PATH, { siteId: s.site.id })).status).toBe(403);

    const session = await adminSession(s);
    for (const body of [
      { name: "", scopes: [] },
      { name: "x".repeat(81), scopes: [] },
      { name: "x", scopes: ["content:delete"] },
      { name: "x", scopes: "content:read" },
      { name: "x" },
      { name: "x", scopes: [], model_ids: [] },
      { name: "x", scopes: [], usage_count: 0 },
    ]) {
      const res = await adminCall<ErrorBody>(session, "POST", PATH, { siteId: s.site.id, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect(await countRows(s.site.id)).toBe(0);
  });
});

describe("GET /api/management-credentials", () => {
  it("lists the site's credentials without secrets or digests, revoked ones with revoked_at", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const a = await created(session, s, { name: "A", scopes: [] });
    const b = await created(session, s, { name: "B", scopes: ["content:write"] });
    await adminCall(session, "DELETE", `${PATH}/${a.id}`, { siteId: s.site.id });
    const other = await seedSite();
    await created(await adminSession(other), other, { name: "Elsewhere", scopes: [] });

    const res = await adminCall<{ data: View[] }>(session, "GET", PATH, { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c) => c.name).sort()).toEqual(["A", "B"]);
    for (const c of res.body.data) expect(Object.keys(c).sort()).toEqual(["created_at", "created_by", "id", "model_ids", "name", "revoked_at", "scopes"]);
    expect(res.body.data.find((c) => c.id === a.id)?.revoked_at).toEqual(expect.any(String));
    expect(res.body.data.find((c) => c.id === b.id)).toEqual({ id: b.id, name: "B", scopes: ["content:read", "content:write"], model_ids: null, created_by: s.adminId, created_at: b.created_at, revoked_at: null });
    const text = JSON.stringify(res.body);
    for (const secret of [a.token, b.token]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(await sha256Hex(secret));
    }
  });
});

describe("DELETE /api/management-credentials/{id}", () => {
  it("revokes from the next request, audits once, and does not reach other sites' credentials", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const c = await created(session, s, { name: "Agent", scopes: ["content:write"] });
    expect((await authenticate(c.token)).credential.id).toBe(c.id);

    const revoked = await adminCall<View>(session, "DELETE", `${PATH}/${c.id}`, { siteId: s.site.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: c.id, revoked_at: expect.any(String) });
    expect(await refusal(c.token)).toMatchObject({ code: "unauthorized", status: 401 });

    const again = await adminCall<View>(session, "DELETE", `${PATH}/${c.id}`, { siteId: s.site.id });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND action = 'management_credential.revoke' AND target_id = ?").bind(s.site.id, c.id).first<{ n: number }>();
    expect(audit?.n).toBe(1);

    const other = await seedSite();
    const theirs = await created(await adminSession(other), other, { name: "Theirs", scopes: [] });
    const cross = await adminCall<ErrorBody>(session, "DELETE", `${PATH}/${theirs.id}`, { siteId: s.site.id });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe("not_found");
    expect((await authenticate(theirs.token)).site.id).toBe(other.site.id);
  });
});

describe("authenticateManagement", () => {
  it("answers missing, malformed, unknown and revoked credentials alike with 401", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const revoked = await created(session, s, { name: "Old", scopes: [] });
    await adminCall(session, "DELETE", `${PATH}/${revoked.id}`, { siteId: s.site.id });
    const live = await created(session, s, { name: "Live", scopes: [] });

    const attempts = [
      await refusal(null),
      await refusal("not-a-token"),
      await refusal(`dwm_${"A".repeat(42)}`),
      await refusal(`dw_site_${live.token.slice(4)}`),
      await refusal(live.token, "Basic"),
      await refusal(`dwm_${"A".repeat(43)}`),
      await refusal(revoked.token),
    ];
    for (const attempt of attempts) expect(attempt).toEqual(attempts[0]);
    expect(attempts[0]).toMatchObject({ code: "unauthorized", status: 401 });
    // The scheme is case-insensitive.
    expect((await authenticateManagement(env.DB, request(live.token, "bearer"))).credential.id).toBe(live.id);
  });

  it("refuses a deactivated creator with creator_unauthorized, at once and without caching", async () => {
    const s = await seedSite();
    const c = await created(await adminSession(s), s, { name: "Agent", scopes: ["content:write"] });
    await authenticate(c.token);
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(s.adminId).run();
    expect(await refusal(c.token)).toMatchObject({ code: "creator_unauthorized", status: 403 });
    await env.DB.prepare("UPDATE persons SET active = 1 WHERE id = ?").bind(s.adminId).run();
    expect((await authenticate(c.token)).actor.id).toBe(s.adminId);
  });

  it("refuses a creator who lost the site's membership with creator_unauthorized", async () => {
    const s = await seedSite();
    const creator = await member(s, await roleId(s.site.id, "admin"));
    const c = await created(creator.session, s, { name: "Agent", scopes: [] });
    await authenticate(c.token);
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, creator.id).run();
    expect(await refusal(c.token)).toMatchObject({ code: "creator_unauthorized", status: 403 });
    await env.DB.prepare("DELETE FROM memberships WHERE site_id = ? AND person_id = ?").bind(s.site.id, creator.id).run();
    expect(await refusal(c.token)).toMatchObject({ code: "creator_unauthorized", status: 403 });
  });

  it("drops permissions at once when the creator's role is lowered, scopes unchanged", async () => {
    const s = await seedSite();
    const creator = await member(s, await roleId(s.site.id, "admin"));
    const c = await created(creator.session, s, { name: "Everything", scopes: [...ALL_SCOPES] });
    const before = await authenticate(c.token);
    expect(before.actor.permissions).toEqual(seeded("admin"));

    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "viewer"), s.site.id, creator.id).run();
    const after = await authenticate(c.token);
    expect(after.credential.scopes).toEqual([...ALL_SCOPES]);
    expect(after.actor.permissions).toEqual({ models: { "*": ["read"] }, system: [] });
    expect(hasScope(after, "schema:write")).toBe(true); // the scope stays; the permission behind it is gone

    // An edited role holds on the next request too.
    await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = ?").bind(JSON.stringify(seeded("author")), await roleId(s.site.id, "viewer")).run();
    expect((await authenticate(c.token)).actor.permissions).toEqual(intersectPermissionSets(seeded("author"), scopeCeiling(ALL_SCOPES)));
  });

  it("gives a superadmin creator whose role is viewer the viewer's permissions only", async () => {
    const s = await seedSite();
    const creator = await member(s, await roleId(s.site.id, "admin"), { superadmin: true });
    const c = await created(creator.session, s, { name: "Root", scopes: [...ALL_SCOPES] });
    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "viewer"), s.site.id, creator.id).run();
    const auth = await authenticate(c.token);
    expect(auth.actor.permissions).toEqual(seeded("viewer"));
    // And no membership at all means no access, superadmin or not.
    await env.DB.prepare("DELETE FROM memberships WHERE site_id = ? AND person_id = ?").bind(s.site.id, creator.id).run();
    expect(await refusal(c.token)).toMatchObject({ code: "creator_unauthorized" });
  });

  it("resolves a credential of site A to site A only, whatever else its creator holds", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const creator = await member(a, await roleId(a.site.id, "admin"));
    await commit(env.DB, [grantMembership(createDb(env.DB), b.site.id, creator.id, await roleId(b.site.id, "admin"), new Date().toISOString())]);
    const onA = await created(creator.session, a, { name: "A", scopes: [...ALL_SCOPES] });
    const onB = await created(creator.session, b, { name: "B", scopes: [] });

    expect((await authenticate(onA.token)).site.id).toBe(a.site.id);
    expect((await authenticate(onB.token)).site.id).toBe(b.site.id);
    // Listing or revoking through site B never reaches site A's credential.
    const listB = await adminCall<{ data: View[] }>(creator.session, "GET", PATH, { siteId: b.site.id });
    expect(listB.body.data.map((c) => c.id)).toEqual([onB.id]);
    expect((await adminCall(creator.session, "DELETE", `${PATH}/${onA.id}`, { siteId: b.site.id })).status).toBe(404);
    // Losing site A leaves the creator's access to B irrelevant to A's credential.
    await env.DB.prepare("DELETE FROM memberships WHERE site_id = ? AND person_id = ?").bind(a.site.id, creator.id).run();
    expect(await refusal(onA.token)).toMatchObject({ code: "creator_unauthorized" });
    expect((await authenticate(onB.token)).site.id).toBe(b.site.id);
  });
});

describe("demo management_token", () => {
  it("is minted with every scope for the demo admin, reused while live, minted again after revocation", async () => {
    const s = await seedSite();
    await blogModels(s.ctx());
    const first = await ensureDemoCredentials(env.DB, s.site.id, s.adminId, {});
    expect(first.management_token).toMatch(/^dwm_[A-Za-z0-9_-]{43}$/);
    const auth = await authenticate(first.management_token);
    expect(auth).toMatchObject({ site: { id: s.site.id }, credential: { scopes: [...ALL_SCOPES], model_ids: null }, actor: { id: s.adminId } });

    const again = await ensureDemoCredentials(env.DB, s.site.id, s.adminId, first);
    expect(again).toEqual(first);
    expect(await countRows(s.site.id)).toBe(1);

    await env.DB.prepare("UPDATE management_credentials SET revoked_at = ? WHERE id = ?").bind(new Date().toISOString(), auth.credential.id).run();
    const third = await ensureDemoCredentials(env.DB, s.site.id, s.adminId, first);
    expect(third.site_api_token).toBe(first.site_api_token);
    expect(third.management_token).not.toBe(first.management_token);
    expect((await authenticate(third.management_token)).credential.scopes).toEqual([...ALL_SCOPES]);
  });
});
