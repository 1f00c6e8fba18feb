import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { installPlugin } from "../../shared/services/plugins/installations";
import { adminCall, roleId, signIn, type ErrorBody } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { testManifest } from "../helpers/plugins";

/**
 * Grants beyond the granter (issue #9 item 5): a site API token and a plugin's grant act without
 * the person who made them, so — like a management credential (spec 2: "Only what the creator
 * holds now can be granted; otherwise 422 grant_not_held naming the scopes or models") — they may
 * carry only what that person holds now.
 */

type GrantError = ErrorBody & { error: { capabilities?: string[]; model_ids?: string[] } };

/** A site whose admin keeps site:settings and site:plugins but reads only article and author (not note), and publishes nothing. */
async function narrowedAdmin() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { installation } = await installPlugin(s.ctx(), JSON.stringify(testManifest()));
  const narrowed = {
    models: { [models.article.id]: ["read", "create", "update"], [models.author.id]: ["read"] },
    system: ["site:settings", "site:plugins"],
  };
  await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(narrowed), await roleId(s.site.id, "admin")).run();
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, session, installationId: installation.id };
}

const count = async (sql: string, ...binds: string[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())?.n ?? -1;

describe("POST /api/site-tokens is bounded by what the person may read", () => {
  it("refuses a token for a model the person may not read with 422 grant_not_held naming it, writing nothing", async () => {
    const { s, models, session } = await narrowedAdmin();
    const refused = await adminCall<GrantError>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Leak", model_ids: [models.article.id, models.note.id] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("grant_not_held");
    expect(refused.body.error.model_ids).toEqual([models.note.id]);
    expect(await count("SELECT count(*) AS n FROM site_api_tokens WHERE site_id = ?", s.site.id)).toBe(0);

    const allowed = await adminCall(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Articles", model_ids: [models.article.id] } });
    expect(allowed.status).toBe(201);
  });
});

describe("PUT /api/plugins/{id}/grant is bounded by what the person holds", () => {
  it("refuses models the person may not read with 422 grant_not_held naming them", async () => {
    const { s, models, session, installationId } = await narrowedAdmin();
    const refused = await adminCall<GrantError>(session, "PUT", `/api/plugins/${installationId}/grant`, { siteId: s.site.id, body: { capabilities: ["content:read"], model_ids: [models.note.id] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("grant_not_held");
    expect(refused.body.error.model_ids).toEqual([models.note.id]);
    expect(await count("SELECT count(*) AS n FROM plugin_installations WHERE id = ? AND granted_model_ids = '[]'", installationId)).toBe(1);
  });

  it("refuses capabilities whose permission the person does not hold on the granted models", async () => {
    const { s, models, session, installationId } = await narrowedAdmin();
    const refused = await adminCall<GrantError>(session, "PUT", `/api/plugins/${installationId}/grant`, {
      siteId: s.site.id,
      body: { capabilities: ["content:read", "workflow:publish", "content:write"], model_ids: [models.author.id] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("grant_not_held");
    expect(refused.body.error.capabilities).toEqual(["workflow:publish", "content:write"]);

    const allowed = await adminCall(session, "PUT", `/api/plugins/${installationId}/grant`, {
      siteId: s.site.id,
      body: { capabilities: ["content:read", "content:write"], model_ids: [models.article.id, models.author.id] },
    });
    expect(allowed.status).toBe(200);
  });
});

describe("a model read only in part cannot be handed over (found by a black-box run)", () => {
  /** The admin keeps site:settings and site:plugins but reads articles with `limits` on reading. */
  async function limitedAdmin(limits: (models: Awaited<ReturnType<typeof blogModels>>) => Record<string, unknown>) {
    const { s, models, session, installationId } = await narrowedAdmin();
    const permissions = {
      models: { [models.article.id]: ["read", "create", "update"], [models.author.id]: ["read"] },
      system: ["site:settings", "site:plugins"],
      limits: limits(models),
    };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), await roleId(s.site.id, "admin")).run();
    return { s, models, session, installationId };
  }

  const fieldLimited = (models: Awaited<ReturnType<typeof blogModels>>) => ({ fields: { [models.article.id]: { read: [models.article.fields[0]!.id] } } });
  const languageLimited = () => ({ languages: { read: ["fr"] } });

  for (const [name, limits] of [["a field limit", fieldLimited], ["a language limit", languageLimited]] as const) {
    it(`refuses a site API token and a plugin grant for a model read with ${name}: 422 grant_not_held naming it`, async () => {
      const { s, models, session, installationId } = await limitedAdmin(limits);
      const token = await adminCall<GrantError>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Partial", model_ids: [models.article.id] } });
      expect(token.status).toBe(422);
      expect(token.body.error.code).toBe("grant_not_held");
      expect(token.body.error.model_ids).toEqual([models.article.id]);
      expect(await count("SELECT count(*) AS n FROM site_api_tokens WHERE site_id = ?", s.site.id)).toBe(0);

      const grant = await adminCall<GrantError>(session, "PUT", `/api/plugins/${installationId}/grant`, { siteId: s.site.id, body: { capabilities: ["content:read"], model_ids: [models.article.id] } });
      expect(grant.status).toBe(422);
      expect(grant.body.error.code).toBe("grant_not_held");
      expect(grant.body.error.model_ids).toEqual([models.article.id]);
      expect(await count("SELECT count(*) AS n FROM plugin_installations WHERE id = ? AND granted_model_ids = '[]'", installationId)).toBe(1);
    });
  }

  it("still grants a model the person reads whole beside the limited one", async () => {
    const { s, models, session } = await limitedAdmin(fieldLimited);
    const token = await adminCall(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Authors", model_ids: [models.author.id] } });
    expect(token.status).toBe(201);
  });
});
