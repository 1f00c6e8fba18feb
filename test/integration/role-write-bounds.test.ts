import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PermissionSet } from "../../schema/permissions";
import { ALL_SCOPES, type Scope } from "../../schema/scopes";
import { AppError } from "../../shared/errors";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { commitPlan } from "../../shared/services/lifecycle";
import { removeRole, updateRole, type RoleView } from "../../shared/services/people/roles";
import { adminCall, roleId, type AdminSession } from "../helpers/admin-api";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool } from "../helpers/mcp";
import { connect } from "../helpers/oauth";
import { adminSession, customRole, member } from "../helpers/people-api";

/**
 * Role writes are bound like people writes (docs/people.md, "Roles"; issue 22 item 1): a change or
 * delete of a role needs the role's current set and the new one within the actor's own (and a
 * credential's ceiling), else 403 `escalation_refused`; one that would leave the site without an
 * active administrator is 409 `last_administrator`, checked inside the write's batch. The same on
 * the admin's session bridge, the management API and MCP.
 */

type Err = { error: { code: string; reasons?: string[] } };

/** Holds role:manage and read, nothing else: may manage people and roles within that. */
const LESSER_MANAGER = { models: { "*": ["read"] }, system: ["role:manage"] };
/** What the reporter wrote over the Administrator role (a credential names its models). */
const STRIP_TO_MANAGER = { models: { "*": ["read"] }, system: ["role:manage"] };
const STRIP_NAMED = { models: { mdl_x: ["read"] }, system: ["role:manage"] };

interface StoredRole {
  permissions: string;
  revision: number;
  name: string;
}

async function stored(id: string): Promise<StoredRole | null> {
  return env.DB.prepare("SELECT permissions, revision, name FROM roles WHERE id = ?").bind(id).first<StoredRole>();
}

async function roleAudits(s: SeededSite): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND target_kind = 'role'").bind(s.site.id).first<{ n: number }>())?.n ?? -1;
}

/** A role write through the admin's session bridge (`/api/v1/…`, the management API under a session). */
function bridged<T = unknown>(session: AdminSession, s: SeededSite, method: string, path: string, body: unknown) {
  return adminCall<T>(session, method, `/api/v1${path}`, { siteId: s.site.id, body, headers: { "idempotency-key": `role-${crypto.randomUUID()}` } });
}

/** A person holding only role:manage plus read, signed in. */
async function lesserManager(s: SeededSite) {
  const role = await customRole(s, "role-managers", LESSER_MANAGER);
  return { role, ...(await member(s, role)) };
}

/**
 * The manager's own management credential. Making one needs `site:settings`, which the manager's
 * role lacks: it is made as when they held it too, and acts with their role now (re-read on every
 * request, docs/management-credentials.md).
 */
async function credentialOf(s: SeededSite, personId: string, scopes: Scope[]): Promise<string> {
  const then = { kind: "person" as const, id: personId, permissions: { ...LESSER_MANAGER, system: [...LESSER_MANAGER.system, "site:settings"] } as PermissionSet };
  return (await createManagementCredential(s.ctx(then), { name: "Agent", scopes })).token;
}

describe("role writes stay within the actor's own set", () => {
  it("refuses a role manager rewriting, renaming or deleting a wider role through the admin session, writing nothing", async () => {
    const s = await seedSite();
    const manager = await lesserManager(s);
    const adminRole = await roleId(s.site.id, "admin");
    const before = await stored(adminRole);
    const audits = await roleAudits(s);

    const strip = await bridged<Err>(manager.session, s, "PUT", `/roles/${adminRole}`, { permissions: STRIP_TO_MANAGER });
    expect(strip.status).toBe(403);
    expect(strip.body.error.code).toBe("escalation_refused");
    expect((strip.body.error.reasons ?? []).join("\n")).toContain("site:settings");
    // Not even its name: a role beyond one's own is not one's to change.
    const rename = await bridged<Err>(manager.session, s, "PUT", `/roles/${adminRole}`, { name: "Former admins" });
    expect(rename.status).toBe(403);
    expect(rename.body.error.code).toBe("escalation_refused");
    expect(await stored(adminRole)).toEqual(before);

    // A wider custom role nobody holds may not be deleted either.
    const owners = await customRole(s, "owners", { models: { "*": ["read", "update"] }, system: ["role:manage", "site:settings"] });
    const remove = await bridged<Err>(manager.session, s, "POST", `/roles/${owners}/remove`, {});
    expect(remove.status).toBe(403);
    expect(remove.body.error.code).toBe("escalation_refused");
    expect(await stored(owners)).not.toBeNull();
    expect(await roleAudits(s)).toBe(audits);

    // An administrator may still change it.
    const admin = await adminSession(s);
    const still = await bridged<RoleView>(admin, s, "PUT", `/roles/${owners}`, { name: "Owners" });
    expect(still.status).toBe(200);
  });

  it("refuses the seeded Editor role to a manager whose set is narrower than it", async () => {
    const s = await seedSite();
    const manager = await lesserManager(s);
    const editorRole = await roleId(s.site.id, "editor");
    const before = await stored(editorRole);
    // The new set is within the manager's own; the Editor role as it stands is not.
    const res = await bridged<Err>(manager.session, s, "PUT", `/roles/${editorRole}`, { permissions: { models: { "*": ["read"] }, system: [] } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("escalation_refused");
    expect((res.body.error.reasons ?? []).join("\n")).toMatch(/update|create/);
    expect(await stored(editorRole)).toEqual(before);
  });

  it("refuses the same through the management API with the manager's own credential", async () => {
    const s = await seedSite();
    const manager = await lesserManager(s);
    const token = await credentialOf(s, manager.id, ["content:read", "roles:write"]);
    const adminRole = await roleId(s.site.id, "admin");
    const editorRole = await roleId(s.site.id, "editor");
    const before = [await stored(adminRole), await stored(editorRole)];

    for (const id of [adminRole, editorRole]) {
      const res = await manage<Err>(token, "PUT", `/roles/${id}`, { body: { permissions: STRIP_NAMED } });
      expect(res.status, id).toBe(403);
      expect(res.body.error.code).toBe("escalation_refused");
    }
    expect([await stored(adminRole), await stored(editorRole)]).toEqual(before);
  });

  it("refuses the same through MCP update_role and remove_role over the manager's OAuth connection", async () => {
    const s = await seedSite();
    const manager = await lesserManager(s);
    const { access_token } = await connect(s, { personId: manager.id, scopes: ["roles:write"] });
    const adminRole = await roleId(s.site.id, "admin");
    const before = await stored(adminRole);

    const call = await callTool<Err>(s.host, access_token, "update_role", { id: adminRole, permissions: STRIP_NAMED });
    expect(call.status).toBe(200);
    expect(call.body.result?.isError).toBe(true);
    expect(call.body.result?.structuredContent).toMatchObject({ status: 403, body: { error: { code: "escalation_refused" } } });
    expect(await stored(adminRole)).toEqual(before);

    const owners = await customRole(s, "owners", { models: { "*": ["read"] }, system: ["role:manage", "site:settings"] });
    const remove = await callTool<Err>(s.host, access_token, "remove_role", { id: owners });
    expect(remove.body.result?.structuredContent).toMatchObject({ status: 403, body: { error: { code: "escalation_refused" } } });
    expect(await stored(owners)).not.toBeNull();
  });

  it("refuses a credential whose ceiling is narrower than the role, though its creator holds more", async () => {
    const s = await seedSite();
    const editorRole = await roleId(s.site.id, "editor");
    const before = await stored(editorRole);
    // The administrator's credential without content:write: Editor's create/update are beyond it.
    const narrow = await credential(s, ["content:read", "roles:write"]);
    const res = await manage<Err>(narrow, "PUT", `/roles/${editorRole}`, { body: { name: "Editors" } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("escalation_refused");
    const mcp = await connect(s, { scopes: ["roles:write"] });
    const call = await callTool<Err>(s.host, mcp.access_token, "update_role", { id: editorRole, name: "Editors" });
    expect(call.body.result?.structuredContent).toMatchObject({ status: 403, body: { error: { code: "escalation_refused" } } });
    expect(await stored(editorRole)).toEqual(before);
    // The same administrator's full credential may (the role's model wildcard is within its ceiling).
    const full = await credential(s);
    const ok = await manage<RoleView>(full, "PUT", `/roles/${editorRole}`, { body: { name: "Editors" } });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Editors");
  });

  it("lets an administrator edit a narrower role, and a lesser manager a role within their own", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const editorRole = await roleId(s.site.id, "editor");
    const narrowed = { models: { "*": ["read", "create", "update"] }, system: ["media:upload"] };
    const res = await bridged<RoleView>(admin, s, "PUT", `/roles/${editorRole}`, { permissions: narrowed });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual(narrowed);
    expect(JSON.parse((await stored(editorRole))?.permissions ?? "{}")).toEqual(narrowed);

    const manager = await lesserManager(s);
    const viewerRole = await roleId(s.site.id, "viewer");
    const renamed = await bridged<RoleView>(manager.session, s, "PUT", `/roles/${viewerRole}`, { name: "Readers", permissions: { models: { "*": ["read"] }, system: [] } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Readers");
  });
});

describe("role writes keep an administrator", () => {
  it("refuses narrowing the only administrators' role with 409 last_administrator, writing nothing, on every surface", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const adminRole = await roleId(s.site.id, "admin");
    const before = await stored(adminRole);
    const audits = await roleAudits(s);
    const all = JSON.parse(before?.permissions ?? "{}") as { models: Record<string, string[]>; system: string[] };
    const withoutSettings = { ...all, system: all.system.filter((p) => p !== "site:settings") };

    const res = await bridged<Err>(admin, s, "PUT", `/roles/${adminRole}`, { permissions: withoutSettings });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("last_administrator");
    const named = { models: { mdl_x: ["read"] }, system: ["role:manage"] };
    const viaManage = await manage<Err>(await credential(s), "PUT", `/roles/${adminRole}`, { body: { permissions: named } });
    expect(viaManage.status).toBe(409);
    expect(viaManage.body.error.code).toBe("last_administrator");
    const mcp = await connect(s, { scopes: [...ALL_SCOPES] });
    const call = await callTool<Err>(s.host, mcp.access_token, "update_role", { id: adminRole, permissions: named });
    expect(call.body.result?.structuredContent).toMatchObject({ status: 409, body: { error: { code: "last_administrator" } } });
    expect(await stored(adminRole)).toEqual(before);
    expect(await roleAudits(s)).toBe(audits);

    // A deactivated second administrator does not count; an active one does.
    const second = await member(s, "admin");
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, second.id).run();
    const owners = await customRole(s, "owners", all);
    const moved = await adminCall(admin, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: owners } });
    expect(moved.status).toBe(200);
    expect((await bridged<Err>(admin, s, "PUT", `/roles/${owners}`, { permissions: withoutSettings })).body.error.code).toBe("last_administrator");
    await env.DB.prepare("UPDATE memberships SET active = 1 WHERE site_id = ? AND person_id = ?").bind(s.site.id, second.id).run();
    const narrowed = await bridged<RoleView>(admin, s, "PUT", `/roles/${owners}`, { permissions: withoutSettings });
    expect(narrowed.status).toBe(200);
  });

  it("refuses deleting the only administrators' role with 409 last_administrator, writing nothing", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const all = JSON.parse((await stored(await roleId(s.site.id, "admin")))?.permissions ?? "{}") as unknown;
    const owners = await customRole(s, "owners", all);
    const moved = await adminCall(admin, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: owners } });
    expect(moved.status).toBe(200);
    const audits = await roleAudits(s);

    const res = await bridged<Err>(admin, s, "POST", `/roles/${owners}/remove`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("last_administrator");
    const viaManage = await manage<Err>(await credential(s), "POST", `/roles/${owners}/remove`, { body: {} });
    expect(viaManage.status).toBe(409);
    expect(viaManage.body.error.code).toBe("last_administrator");
    expect(await stored(owners)).not.toBeNull();
    expect(await roleAudits(s)).toBe(audits);

    // A held role that takes no administrator away is still role_in_use.
    const held = await customRole(s, "held", { models: {}, system: [] });
    await member(s, held);
    const inUse = await bridged<Err & { error: { holders?: number } }>(admin, s, "POST", `/roles/${held}/remove`, {});
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({ code: "role_in_use", holders: 1 });
  });

  it("checks inside the write's batch: a change made after the plan was read still cannot strip the last administrator", async () => {
    const s = await seedSite();
    const all = JSON.parse((await stored(await roleId(s.site.id, "admin")))?.permissions ?? "{}") as { system: string[] };
    // Two administrators: the seeded one (admin role) and a second holding "owners".
    const owners = await customRole(s, "owners", all);
    const second = await member(s, owners);
    const withoutSettings = { models: { "*": ["read"] }, system: ["role:manage"] };

    // The plan is built while the seeded administrator is active, so a read before would pass …
    const plan = await updateRole(s.ctx(), { role_id: owners, permissions: withoutSettings });
    // … then the seeded administrator is deactivated (a people write from another request).
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, s.adminId).run();
    const refused = await commitPlan(s.ctx(), plan).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("last_administrator");
    expect(JSON.parse((await stored(owners))?.permissions ?? "{}")).toEqual(all);

    // A delete planned while nobody held the role, committed after the last administrator was given it.
    await env.DB.prepare("UPDATE memberships SET active = 1 WHERE site_id = ? AND person_id = ?").bind(s.site.id, s.adminId).run();
    const spare = await customRole(s, "spare", all);
    const removal = await removeRole(s.ctx(), { role_id: spare });
    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id IN (?, ?)").bind(spare, s.site.id, s.adminId, second.id).run();
    const removalRefused = await commitPlan(s.ctx(), removal).then(() => null, (e: unknown) => e);
    expect(removalRefused).toBeInstanceOf(AppError);
    expect((removalRefused as AppError).code).toBe("last_administrator");
    expect(await stored(spare)).not.toBeNull();
  });
});
