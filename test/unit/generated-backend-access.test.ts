/**
 * The generated backend's access rules as pure functions (docs/generated-backend.md, "Sessions and
 * roles", "Deployment"): roles.json checks and rights, and the deploy's ACCESS_CONFIG union. The
 * same rules run end to end over HTTP in test/node/generated-backend/sessions.mjs.
 */
import { describe, expect, it } from "vitest";
import { accessConfigUnion } from "../../backend-template/src/access-config-rules.js";
import { LEGACY_ROLES, loadRoles, roleAllows, roleEdits, rolesProblems } from "../../backend-template/src/runtime/roles";
import type { SiteSchema } from "../../backend-template/src/runtime/schema-types";

const schema: SiteSchema = { site: { id: "site_1", slug: "s", name: "S", languages: ["en"] }, models: ["article", "note"].map((api) => ({ api, pascal: api, columns: [], uniques: [] })) };
const expected = { site: "site_1", models: ["article", "note"] };
const digest = (c: string) => c.repeat(64);

describe("roles.json", () => {
  it("an absent file means the legacy roles; admin and user are always there", () => {
    expect(loadRoles(undefined, schema)).toEqual(LEGACY_ROLES);
    const roles = loadRoles({ defaultRole: "editor", roles: { editor: { article: ["create"] } } }, schema);
    expect(Object.keys(roles.roles).sort()).toEqual(["admin", "editor", "user"]);
    expect(roleAllows(roles, "admin", "note", "delete")).toBe(true);
    expect(roleAllows(roles, "user", "note", "findMany")).toBe(true);
    expect(roleAllows(roles, "user", "note", "create")).toBe(false);
    expect(roleAllows(roles, "editor", "article", "create")).toBe(true);
    expect(roleAllows(roles, "editor", "note", "create")).toBe(false);
    expect(roleAllows(roles, "gone", "article", "findMany")).toBe(false);
    expect(roleAllows(roles, "constructor", "article", "findMany")).toBe(false);
    expect(roleEdits(roles, "editor", "article")).toBe(true);
    expect(roleEdits(roles, "user", "article")).toBe(false);
  });
  it("at most 32 roles counting admin and user, known models and operations, a non-admin default", () => {
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`r${i}`, {}]));
    expect(rolesProblems({ defaultRole: "r0", roles: many }, schema).join()).toMatch(/33 roles/);
    expect(rolesProblems({ defaultRole: "r0", roles: Object.fromEntries(Object.entries(many).slice(1)) }, schema)).toContain("roles.json: defaultRole must name a role.");
    expect(rolesProblems({ defaultRole: "r1", roles: Object.fromEntries(Object.entries(many).slice(1)) }, schema)).toEqual([]);
    expect(rolesProblems({ defaultRole: "admin", roles: {} }, schema).join()).toMatch(/cannot be admin/);
    expect(rolesProblems({ defaultRole: "user", roles: { x: { ghost: ["findMany"] } } }, schema).join()).toMatch(/"ghost"/);
    expect(rolesProblems({ defaultRole: "user", roles: { x: { note: ["upsert"] } } }, schema).join()).toMatch(/roles\.x\.note/);
    expect(rolesProblems({ defaultRole: "user", roles: { "Bad Name": {} } }, schema).join()).toMatch(/Bad Name/);
    expect(() => loadRoles({ defaultRole: "user", roles: [] }, schema)).toThrow(/roles\.json is invalid/);
  });
});

describe("the deploy's ACCESS_CONFIG union", () => {
  const generated = { version: 1, site: "site_1", tokens: [{ id: "cms", digest: digest("a"), models: ["article"] }] };
  it("joins the issued tokens and the owner's; an absent owner value adds none", () => {
    const union = accessConfigUnion(JSON.stringify({ version: 1, site: "site_1", tokens: [{ id: "own", digest: digest("b"), models: ["*"] }] }), JSON.stringify(generated), expected);
    expect(union).toEqual({ ok: true, config: { version: 1, site: "site_1", tokens: [generated.tokens[0], { id: "own", digest: digest("b"), models: ["*"] }] } });
    expect(accessConfigUnion(undefined, generated, expected)).toEqual({ ok: true, config: generated });
  });
  it("names each refusal", () => {
    const code = (owned: unknown, gen: unknown) => {
      const result = accessConfigUnion(owned, gen, expected);
      return result.ok ? "ok" : result.code;
    };
    expect(code("{not json", generated)).toBe("owned_access_config_invalid");
    expect(code({ version: 1, site: "other", tokens: [] }, generated)).toBe("owned_access_config_invalid");
    expect(code(undefined, { ...generated, tokens: [{ id: "cms", digest: "x", models: ["article"] }] })).toBe("generated_access_tokens_invalid");
    expect(code(undefined, undefined)).toBe("generated_access_tokens_invalid");
    expect(code({ version: 1, site: "site_1", tokens: [{ id: "cms", digest: digest("c"), models: ["*"] }] }, generated)).toBe("access_token_id_conflict");
    expect(code({ version: 1, site: "site_1", tokens: [{ id: "own", digest: digest("a"), models: ["*"] }] }, generated)).toBe("access_config_union_invalid");
  });
});
