import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";

/** Access-proxy rules and the role-deletion refusal (issue #29 item 8; spec 2 rule 15; docs/access-rules.md). */

type Err = { error: { code: string; issues?: { path: string }[]; path_prefixes?: string[] } };
interface Rules {
  rules: { path_prefix: string; role_ids: string[]; roles: { id: string; slug: string }[] }[];
  revision: number;
  replayed?: boolean;
}

describe("access-proxy rules", () => {
  it("are stored and served with role slugs; a role a rule names cannot be deleted until the rule lets it go", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const role = await manage<{ id: string }>(token, "POST", "/roles", { body: { slug: "member", name: "Member", permissions: { models: {}, system: [] } } });
    expect(role.status).toBe(201);
    expect((await manage<Rules>(token, "GET", "/settings/access-rules")).body).toEqual({ rules: [], revision: 0 });

    const key = newKey();
    const body = { rules: [{ path_prefix: "/members/", role_ids: [role.body.id] }], expected_revision: 0 };
    const put = await manage<Rules>(token, "PUT", "/settings/access-rules", { key, body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ rules: [{ path_prefix: "/members/", role_ids: [role.body.id], roles: [{ id: role.body.id, slug: "member" }] }], revision: 1 });
    expect((await manage<Rules>(token, "PUT", "/settings/access-rules", { key, body })).body.replayed).toBe(true);
    expect((await manage<Rules>(token, "GET", "/settings/access-rules")).body.rules[0]?.roles).toEqual([{ id: role.body.id, slug: "member" }]);

    const refused = await manage<Err>(token, "POST", `/roles/${role.body.id}/remove`, { body: {} });
    expect([refused.status, refused.body.error.code, refused.body.error.path_prefixes]).toEqual([409, "role_in_access_rule", ["/members/"]]);
    expect(await env.DB.prepare("SELECT id FROM roles WHERE id = ?").bind(role.body.id).first()).not.toBeNull();

    expect((await manage(token, "PUT", "/settings/access-rules", { body: { rules: [] } })).status).toBe(200);
    const removed = await manage<{ deleted: boolean }>(token, "POST", `/roles/${role.body.id}/remove`, { body: {} });
    expect([removed.status, removed.body.deleted]).toEqual([200, true]);
  });

  it("refuses unknown roles, bad paths, repeated prefixes, stale revisions and a missing scope, writing nothing", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const token = await credential(s);
    const foreignRole = await env.DB.prepare("SELECT id FROM roles WHERE site_id = ? LIMIT 1").bind(other.site.id).first<{ id: string }>();
    const bad = await manage<Err>(token, "PUT", "/settings/access-rules", { body: { rules: [{ path_prefix: "/a", role_ids: [foreignRole?.id ?? "", "role_nope"] }, { path_prefix: "/a", role_ids: ["role_nope"] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues?.map((i) => i.path)).toEqual(["rules[0].role_ids[0]", "rules[0].role_ids[1]", "rules[1].path_prefix", "rules[1].role_ids[0]"]);
    for (const path_prefix of ["members", "/a b", "/x?y", ""]) expect((await manage(token, "PUT", "/settings/access-rules", { body: { rules: [{ path_prefix, role_ids: ["r"] }] } })).status, path_prefix).toBe(400);
    expect((await manage<Err>(token, "PUT", "/settings/access-rules", { body: { rules: [], expected_revision: 5 } })).body.error.code).toBe("settings_changed");
    const reader = await credential(s, ["content:read"]);
    expect((await manage<Err>(reader, "PUT", "/settings/access-rules", { body: { rules: [] } })).body.error.code).toBe("insufficient_scope");
    expect((await manage<Rules>(token, "GET", "/settings/access-rules")).body.revision).toBe(0);
  });
});
