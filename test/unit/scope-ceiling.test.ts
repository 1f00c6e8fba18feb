import { describe, expect, it } from "vitest";
import * as v from "valibot";
import type { PermissionSet } from "../../schema/permissions";
import { ALL_SCOPES, isScope, normaliseScopes, Scope } from "../../schema/scopes";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS, decide, intersectPermissionSets } from "../../shared/auth/permissions";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { grantProblems, SCOPE_CEILING, scopeCeiling } from "../../shared/auth/scope-ceiling";

function role(slug: string): PermissionSet {
  const found = SEEDED_ROLES.find((r) => r.slug === slug);
  if (!found) throw new Error(`no seeded role ${slug}`);
  return structuredClone(found.permissions);
}

describe("Scope", () => {
  it("holds exactly the spec's 17 scopes in canonical order", () => {
    expect(ALL_SCOPES).toEqual([
      "content:read", "content:write", "content:propose", "pages:write", "media:write", "lifecycle:publish",
      "content:trash", "content:purge", "workflow:move", "workflow:assign", "settings:write", "schema:propose",
      "schema:write", "data:import", "data:export", "roles:write", "plugins:use",
    ]);
    expect(Object.keys(SCOPE_CEILING).sort()).toEqual([...ALL_SCOPES].sort());
  });

  it("refuses unknown scopes by name", () => {
    const result = v.safeParse(Scope, "content:delete");
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('unknown scope "content:delete"');
    expect(isScope("schema:write")).toBe(true);
    expect(isScope("site:settings")).toBe(false);
  });

  it("always includes content:read, drops repeats, keeps canonical order", () => {
    expect(normaliseScopes([])).toEqual(["content:read"]);
    expect(normaliseScopes(["schema:write", "content:write", "schema:write"])).toEqual(["content:read", "content:write", "schema:write"]);
  });
});

describe("scopeCeiling", () => {
  it("is read on every model for content:read alone (and for no scopes)", () => {
    expect(scopeCeiling([])).toEqual({ models: { "*": ["read"] }, system: [] });
    expect(scopeCeiling(["content:read"], null)).toEqual({ models: { "*": ["read"] }, system: [] });
  });

  it("follows the scopes table", () => {
    const cases: [Scope, string[], string[]][] = [
      ["content:write", ["read", "create", "update", "update:own", "restore"], ["content:restore"]],
      ["content:propose", ["read"], []],
      ["pages:write", ["read", "create", "update"], []],
      ["media:write", ["read"], ["media:upload", "media:update", "media:delete"]],
      ["lifecycle:publish", ["read", "update", "publish", "unpublish"], []],
      ["content:trash", ["read", "delete"], []],
      ["content:purge", ["read", "delete"], []],
      ["workflow:move", ["read", "update"], []],
      ["workflow:assign", ["read", "update"], []],
      ["settings:write", ["read"], ["site:settings", "site:infra"]],
      ["schema:propose", ["read"], ["model:apply"]],
      ["schema:write", ["read"], ["model:apply", "model:delete"]],
      ["data:import", ["read"], ["data:import"]],
      ["data:export", ["read"], ["data:export"]],
      ["roles:write", ["read"], ["role:manage"]],
      ["plugins:use", ["read"], ["site:plugins"]],
    ];
    for (const [scope, models, system] of cases) {
      expect(scopeCeiling([scope]), scope).toEqual({ models: { "*": models }, system });
    }
  });

  it("puts model operations on each named model instead of \"*\"", () => {
    expect(scopeCeiling(["content:write"], ["mdl_a", "mdl_b", "mdl_a"])).toEqual({
      models: { mdl_a: ["read", "create", "update", "update:own", "restore"], mdl_b: ["read", "create", "update", "update:own", "restore"] },
      system: ["content:restore"],
    });
  });

  it("of every scope is everything: the admin role passes through unchanged", () => {
    const all = scopeCeiling(ALL_SCOPES);
    expect(all).toEqual({ models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] });
    expect(intersectPermissionSets(role("admin"), all)).toEqual(role("admin"));
  });

  it("never widens the creator: the intersection keeps the role's limits and ownership", () => {
    const creator: PermissionSet = {
      models: { "*": ["read", "create", "update:own"] },
      system: ["media:upload"],
      limits: { languages: { update: ["de"] }, fields: { "*": { write: ["title"] } } },
    };
    const acting = intersectPermissionSets(creator, scopeCeiling(["content:write", "lifecycle:publish", "schema:write", "media:write"]));
    expect(acting).toEqual({
      models: { "*": ["read", "create", "update:own"] },
      system: ["media:upload"],
      limits: { languages: { update: ["de"] }, fields: { "*": { write: ["title"] } } },
    });
    expect(decide(acting, { operation: "update", modelId: "m", ownerId: "other", actorId: "me" })).toMatchObject({ code: "not_owner" });
    expect(decide(acting, { operation: "publish", modelId: "m" })).toMatchObject({ code: "missing_permission" });
  });

  it("limits an all-models role to the credential's models", () => {
    const acting = intersectPermissionSets(role("editor"), scopeCeiling(["content:write"], ["mdl_a"]));
    expect(acting).toEqual({ models: { mdl_a: ["read", "create", "update", "restore"] }, system: ["content:restore"] });
    expect(decide(acting, { operation: "read", modelId: "mdl_b" })).toMatchObject({ code: "missing_permission" });
  });
});

describe("grantProblems", () => {
  const site = ["mdl_a", "mdl_b"];

  it("grants what the creator holds", () => {
    expect(grantProblems(role("admin"), ALL_SCOPES, null, site)).toEqual({ scopes: [], model_ids: [] });
    expect(grantProblems(role("editor"), ["content:write", "lifecycle:publish", "content:trash", "content:purge", "media:write", "data:export", "plugins:use"], null, site)).toEqual({ scopes: [], model_ids: [] });
    expect(grantProblems(role("author"), ["content:write", "pages:write", "workflow:move", "media:write"], undefined, site)).toEqual({ scopes: [], model_ids: [] });
    expect(grantProblems(role("viewer"), ["content:read", "content:propose", "plugins:use"], ["mdl_a"], site)).toEqual({ scopes: [], model_ids: [] });
  });

  it("names the scopes an editor or viewer does not hold", () => {
    expect(grantProblems(role("editor"), ["schema:write", "schema:propose", "content:write", "settings:write", "roles:write", "data:import"], null, site).scopes).toEqual([
      "settings:write", "schema:propose", "schema:write", "data:import", "roles:write",
    ]);
    expect(grantProblems(role("viewer"), ["content:write", "lifecycle:publish", "content:trash", "workflow:assign", "media:write"], null, site).scopes).toEqual([
      "content:write", "media:write", "lifecycle:publish", "content:trash", "workflow:assign",
    ]);
    // An author updates only its own entries and never publishes.
    expect(grantProblems(role("author"), ["lifecycle:publish", "content:purge"], null, site).scopes).toEqual(["lifecycle:publish", "content:purge"]);
  });

  it("looks for model needs on the credential's models only", () => {
    const creator: PermissionSet = { models: { mdl_a: ["read", "update", "publish"], mdl_b: ["read"] }, system: [] };
    expect(grantProblems(creator, ["content:write", "lifecycle:publish"], null, site)).toEqual({ scopes: [], model_ids: [] });
    expect(grantProblems(creator, ["content:write", "lifecycle:publish"], ["mdl_a"], site)).toEqual({ scopes: [], model_ids: [] });
    expect(grantProblems(creator, ["content:write", "lifecycle:publish"], ["mdl_b"], site)).toEqual({ scopes: ["content:write", "lifecycle:publish"], model_ids: [] });
    // No models on the site: only "*" can carry the need.
    expect(grantProblems(creator, ["content:write"], null, [])).toEqual({ scopes: ["content:read", "content:write"], model_ids: [] });
  });

  it("names models the creator may not read", () => {
    const creator: PermissionSet = { models: { mdl_a: ["read", "update"] }, system: ["site:settings"] };
    expect(grantProblems(creator, ["content:write"], ["mdl_a", "mdl_b", "mdl_b"], site)).toEqual({ scopes: [], model_ids: ["mdl_b"] });
    expect(grantProblems(creator, [], ["mdl_b"], site)).toEqual({ scopes: ["content:read"], model_ids: ["mdl_b"] });
  });
});
