import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RoleView } from "../../shared/services/people/roles";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { adminCall, signIn } from "../helpers/admin-api";
import { credential, manage, newKey } from "../helpers/manage-api";

type Err = { error: { code: string; reasons?: string[]; [k: string]: unknown } };

async function roles(token: string): Promise<RoleView[]> {
  return (await manage<{ data: RoleView[] }>(token, "GET", "/roles")).body.data;
}

async function roleCount(s: SeededSite): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM roles WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n ?? -1;
}

async function events(s: SeededSite, name: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = ?").bind(s.site.id, name).first<{ n: number }>())?.n ?? -1;
}

describe("management API: roles", () => {
  it("lists the seeded roles with whole permission sets and holder counts", async () => {
    const s = await seedSite();
    const token = await credential(s, ["content:read"]);
    const list = await roles(token);
    expect(list.map((r) => r.slug).sort()).toEqual(["admin", "author", "editor", "viewer"]);
    const admin = list.find((r) => r.slug === "admin");
    expect(admin).toMatchObject({ seeded: true, revision: 0, holders: 1 });
    expect(admin?.permissions.system).toContain("role:manage");
    expect(list.find((r) => r.slug === "viewer")?.permissions).toEqual({ models: { "*": ["read"] }, system: [] });
  });

  it("creates, changes and deletes a role, with events, audit and replays", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const key = newKey();
    const body = { slug: "reviewer", name: "Reviewer", permissions: { models: { mdl_x: ["read", "update"] }, system: ["media:upload"], limits: { languages: { update: ["fr"] } } } };
    const created = await manage<RoleView>(token, "POST", "/roles", { key, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "reviewer", name: "Reviewer", description: null, seeded: false, revision: 0, holders: 0, permissions: body.permissions });
    const replay = await manage<RoleView & { replayed?: boolean }>(token, "POST", "/roles", { key, body });
    expect(replay.body).toEqual({ ...created.body, replayed: true });
    expect(await roleCount(s)).toBe(5);
    expect((await manage<Err>(token, "POST", "/roles", { body })).body.error.code).toBe("role_slug_taken");

    const id = created.body.id;
    const renamed = await manage<RoleView>(token, "PUT", `/roles/${id}`, { body: { name: "Reviewers", expected_revision: 0 } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Reviewers", slug: "reviewer", revision: 1, permissions: body.permissions });
    const stale = await manage<Err>(token, "PUT", `/roles/${id}`, { body: { name: "X", expected_revision: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "role_changed", current_revision: 1 });
    const replaced = await manage<RoleView>(token, "PUT", `/roles/${id}`, { body: { permissions: { models: { mdl_x: ["read"] }, system: [] }, description: "Reads" } });
    expect(replaced.body).toMatchObject({ permissions: { models: { mdl_x: ["read"] }, system: [] }, description: "Reads", name: "Reviewers", revision: 2 });

    const removeKey = newKey();
    const removed = await manage<{ id: string; deleted: boolean }>(token, "POST", `/roles/${id}/remove`, { key: removeKey, body: {} });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id, deleted: true });
    const again = await manage<{ replayed?: boolean }>(token, "POST", `/roles/${id}/remove`, { key: removeKey, body: {} });
    expect(again.body.replayed).toBe(true);
    expect(await roleCount(s)).toBe(4);
    expect((await manage<Err>(token, "PUT", `/roles/${id}`, { body: { name: "Gone" } })).status).toBe(404);
    expect(await events(s, "role.created")).toBe(1);
    expect(await events(s, "role.updated")).toBe(2);
    expect(await events(s, "role.deleted")).toBe(1);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE site_id = ? AND target_kind = 'role' ORDER BY at").bind(s.site.id).all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["role.create", "role.update", "role.update", "role.delete"]);
  });

  it("lists every reason of an invalid permission set and writes nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const res = await manage<Err>(token, "POST", "/roles", {
      body: { slug: "bad", name: "Bad", permissions: { models: { mdl_x: ["read", "publsh"] }, system: ["site:everything"], extra: true } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_permissions");
    const reasons = res.body.error.reasons ?? [];
    expect(reasons.length).toBeGreaterThanOrEqual(3);
    expect(reasons.join("\n")).toContain("publsh");
    expect(reasons.join("\n")).toContain("site:everything");
    expect(reasons.join("\n")).toContain("extra");
    expect(await roleCount(s)).toBe(4);
  });

  it("refuses escalation: update without content:write, publish without lifecycle:publish, the wildcard, unheld system permissions", async () => {
    const s = await seedSite();
    const narrow = await credential(s, ["content:read", "roles:write"]);
    const attempts: [unknown, string][] = [
      [{ models: { mdl_x: ["read", "update"] }, system: [] }, `operation "update"`],
      [{ models: { mdl_x: ["create"] }, system: [] }, `operation "create"`],
      [{ models: { mdl_x: ["publish"] }, system: [] }, `operation "publish"`],
      [{ models: { "*": ["read"] }, system: [] }, `"*"`],
      [{ models: {}, system: ["site:infra"] }, `"site:infra"`],
    ];
    for (const [permissions, says] of attempts) {
      const res = await manage<Err>(narrow, "POST", "/roles", { body: { slug: "esc", name: "Esc", permissions } });
      expect(res.status, JSON.stringify(permissions)).toBe(403);
      expect(res.body.error.code).toBe("escalation_refused");
      expect((res.body.error.reasons ?? []).join("\n")).toContain(says);
    }
    // Scopes that only use update (moves, assignment, pages, publishing) do not let a credential hand it out (rule 15).
    const movers = await credential(s, ["content:read", "roles:write", "workflow:move", "workflow:assign", "pages:write", "lifecycle:publish"]);
    const viaMove = await manage<Err>(movers, "POST", "/roles", { body: { slug: "mover", name: "Mover", permissions: { models: { mdl_x: ["read", "update"] }, system: [] } } });
    expect(viaMove.status).toBe(403);
    expect(viaMove.body.error.code).toBe("escalation_refused");
    expect((viaMove.body.error.reasons ?? []).join("\n")).toContain("content:write");
    const publisher = await manage<RoleView>(movers, "POST", "/roles", { body: { slug: "publisher", name: "Publisher", permissions: { models: { mdl_x: ["read", "publish"] }, system: [] } } });
    expect(publisher.status).toBe(201);
    // Within the ceiling: read on a named model.
    const ok = await manage<RoleView>(narrow, "POST", "/roles", { body: { slug: "reader", name: "Reader", permissions: { models: { mdl_x: ["read"] }, system: [] } } });
    expect(ok.status).toBe(201);
    // Changing a role goes through the same check.
    const up = await manage<Err>(narrow, "PUT", `/roles/${ok.body.id}`, { body: { permissions: { models: { mdl_x: ["read", "update"] }, system: [] } } });
    expect(up.body.error.code).toBe("escalation_refused");
    // Even a full credential never hands out the wildcard.
    const full = await credential(s);
    expect((await manage<Err>(full, "POST", "/roles", { body: { slug: "all", name: "All", permissions: { models: { "*": ["read"] }, system: [] } } })).body.error.code).toBe("escalation_refused");
    const reads = await manage<Err>(await credential(s, ["content:read"]), "POST", "/roles", { body: { slug: "x", name: "X", permissions: { models: {}, system: [] } } });
    expect(reads.body.error).toMatchObject({ code: "insufficient_scope", scope: "roles:write" });
    expect(await roleCount(s)).toBe(6);
  });

  it("refuses to delete a seeded role, a held role and the last role granting access; seeded roles keep their slug", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const list = await roles(token);
    const admin = list.find((r) => r.slug === "admin");
    const seeded = await manage<Err>(token, "POST", `/roles/${admin?.id}/remove`, { body: {} });
    expect(seeded.status).toBe(409);
    expect(seeded.body.error.code).toBe("role_seeded");
    expect((await manage<Err>(token, "PUT", `/roles/${admin?.id}`, { body: { slug: "boss" } })).body.error.code).toBe("role_seeded");
    const viewer = list.find((r) => r.slug === "viewer");
    const changed = await manage<RoleView>(token, "PUT", `/roles/${viewer?.id}`, { body: { name: "Readers", description: "Reads" } });
    expect(changed.body).toMatchObject({ slug: "viewer", name: "Readers", seeded: true });

    // Managers administer too (role:manage with site:settings), so taking role:manage off the admin
    // role keeps an administrator once someone holds Managers (docs/people.md, "Roles").
    const managers = await manage<RoleView>(token, "POST", "/roles", { body: { slug: "managers", name: "Managers", permissions: { models: { mdl_x: ["read"] }, system: ["role:manage", "site:settings"] } } });
    const held = await manage<RoleView>(token, "POST", "/roles", { body: { slug: "held", name: "Held", permissions: { models: {}, system: [] } } });
    await env.DB.prepare("INSERT INTO persons (id, email, name, created_at, updated_at) VALUES (?, ?, 'P', ?, ?)").bind(`per_${held.body.id}`, `${held.body.id}@example.test`, new Date().toISOString(), new Date().toISOString()).run();
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) VALUES (?, ?, ?, 1, ?)").bind(s.site.id, `per_${held.body.id}`, held.body.id, new Date().toISOString()).run();
    const inUse = await manage<Err>(token, "POST", `/roles/${held.body.id}/remove`, { body: {} });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({ code: "role_in_use", holders: 1 });
    expect((await roles(token)).find((r) => r.id === held.body.id)?.holders).toBe(1);

    // With nobody holding Managers, the admin role is the administrators' last: it keeps role:manage.
    const adminSet = admin?.permissions;
    const withoutManage = { models: { mdl_x: ["read"] }, system: (adminSet?.system ?? []).filter((p) => p !== "role:manage") };
    const lastAdmin = await manage<Err>(token, "PUT", `/roles/${admin?.id}`, { body: { permissions: withoutManage } });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.body.error.code).toBe("last_administrator");
    // Admin gives up role:manage (Managers still grants it, and its holder administers); then Managers is the last granting role.
    await env.DB.prepare("INSERT INTO persons (id, email, name, created_at, updated_at) VALUES (?, ?, 'M', ?, ?)").bind(`per_${managers.body.id}`, `${managers.body.id}@example.test`, new Date().toISOString(), new Date().toISOString()).run();
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) VALUES (?, ?, ?, 1, ?)").bind(s.site.id, `per_${managers.body.id}`, managers.body.id, new Date().toISOString()).run();
    const strip = await manage<RoleView>(token, "PUT", `/roles/${admin?.id}`, { body: { permissions: withoutManage } });
    expect(strip.status).toBe(200);
    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(managers.body.id, s.site.id, s.adminId).run();
    const manager = await credential(s, ["content:read", "roles:write", "settings:write"]);
    const last = await manage<Err>(manager, "POST", `/roles/${managers.body.id}/remove`, { body: {} });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_granting_role");
    const lastUpdate = await manage<Err>(manager, "PUT", `/roles/${managers.body.id}`, { body: { permissions: { models: { mdl_x: ["read"] }, system: [] } } });
    expect(lastUpdate.body.error.code).toBe("last_granting_role");
    expect(await roleCount(s)).toBe(6);
  });

  it("refuses permission keys JavaScript objects already use (models, field limits, language limits) as invalid_permissions, through the management API and the admin", async () => {
    // Probe finding: `models: { toString: [...] }` answered 500 (the prototype's function read as a list of
    // operations); `constructor` and `__proto__` keys were dropped without a word (201 with `models: {}`).
    const s = await seedSite();
    const token = await credential(s);
    const bodies: [string, string][] = [
      ["models.toString", '{"models":{"toString":["read"]},"system":[]}'],
      ["models.valueOf", '{"models":{"valueOf":["read"]},"system":[]}'],
      ["models.constructor", '{"models":{"constructor":["read"]},"system":[]}'],
      ["models.__proto__", '{"models":{"__proto__":["read"]},"system":[]}'],
      ["limits.fields.hasOwnProperty", '{"models":{"mdl_x":["read"]},"system":[],"limits":{"fields":{"hasOwnProperty":{"read":["title"]}}}}'],
      ["limits.fields.constructor", '{"models":{"mdl_x":["read"]},"system":[],"limits":{"fields":{"constructor":{"read":["title"]}}}}'],
      ["limits.languages.constructor", '{"models":{"mdl_x":["read"]},"system":[],"limits":{"languages":{"constructor":["en"]}}}'],
    ];
    for (const [where, permissions] of bodies) {
      const res = await manage<Err>(token, "POST", "/roles", { rawBody: `{"slug":"odd","name":"Odd","permissions":${permissions}}` });
      expect(res.status, where).toBe(400);
      expect(res.body.error.code, where).toBe("invalid_permissions");
      expect((res.body.error.reasons ?? []).join(" "), where).toContain(where.split(".").pop());
    }
    const bridged = await signIn(`${s.site.slug}@example.test`);
    const admin = await adminCall<Err>(bridged, "POST", "/api/v1/roles", { siteId: s.site.id, headers: { "idempotency-key": newKey() }, rawBody: '{"slug":"odd","name":"Odd","permissions":{"models":{"toString":["read"]},"system":[]}}' });
    expect(admin.status).toBe(400);
    expect(admin.body.error.code).toBe("invalid_permissions");
    const changed = await manage<Err>(token, "PUT", `/roles/${(await roles(token)).find((r) => r.slug === "viewer")?.id}`, { rawBody: '{"permissions":{"models":{"valueOf":["read"]},"system":[]}}' });
    expect(changed.status).toBe(400);
    expect(changed.body.error.code).toBe("invalid_permissions");
    expect(await roleCount(s)).toBe(4);
  });

  it("refuses control, bidirectional control and invisible format characters in the names people read: roles, models, releases", async () => {
    // Probe finding: a role, a model and a release were created named "x\u202e…" (shown reversed in the
    // admin, as OAuth app names were before issue #22 item 8) or with a BEL or a zero-width space.
    const s = await seedSite();
    const token = await credential(s);
    const { article } = await blogModels(s.ctx());
    const entry = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: article.id, slug: "named", fields: { title: "Named" } } });
    for (const name of ["evil\u202eelor", "bell\u0007", "zero\u200bwidth", "c1\u0085", "two\u2028lines"]) {
      const role = await manage<Err>(token, "POST", "/roles", { body: { slug: "odd-name", name, permissions: { models: {}, system: [] } } });
      expect([role.status, role.body.error?.code], `role ${JSON.stringify(name)}`).toEqual([400, "invalid_request"]);
      const model = await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name, slug: "odd-name", enableI18n: false }, fields: [{ key: "title", label: "Title", type: "text" }] } } });
      expect([model.status, model.body.error?.code], `model ${JSON.stringify(name)}`).toEqual([400, "invalid_request"]);
      const release = await manage<Err>(token, "POST", "/releases", { body: { name, changes: [{ entry_id: entry.body.instance_id, action: "publish" }] } });
      expect([release.status, release.body.error?.code], `release ${JSON.stringify(name)}`).toEqual([400, "invalid_request"]);
      // A field's and a select option's label are names editors read in the entry form (probe-30 leftover).
      const field = await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name: "Odd labels", slug: "odd-labels", enableI18n: false }, fields: [{ key: "title", label: name, type: "text" }] } } });
      expect([field.status, field.body.error?.code], `field label ${JSON.stringify(name)}`).toEqual([400, "invalid_request"]);
      const option = await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name: "Odd options", slug: "odd-options", enableI18n: false }, fields: [{ key: "title", label: "Title", type: "text" }, { key: "tone", label: "Tone", type: "select", options: [{ value: "a", label: name }] }] } } });
      expect([option.status, option.body.error?.code], `option label ${JSON.stringify(name)}`).toEqual([400, "invalid_request"]);
    }
    expect((await manage(token, "POST", "/models", { body: { definition: { model: { name: "Fine labels", slug: "fine-labels", enableI18n: false }, fields: [{ key: "title", label: "Titre 👩‍💻 عنوان", type: "text" }, { key: "tone", label: "Ton", type: "select", options: [{ value: "a", label: "Été ☀️" }] }] } } })).status).toBe(201);
    // Names that show what they hold stay fine: accents, emoji with their joiners, right-to-left text.
    for (const [i, name] of ["Rédaction", "👩‍💻 Devs", "محررون"].entries()) {
      expect((await manage(token, "POST", "/roles", { body: { slug: `fine-${i}`, name, permissions: { models: {}, system: [] } } })).status, name).toBe(201);
    }
    expect((await manage(token, "POST", "/releases", { body: { name: "Été ☀️", changes: [{ entry_id: entry.body.instance_id, action: "publish" }] } })).status).toBe(201);
  });
});
