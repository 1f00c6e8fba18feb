import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { authenticatePlugin } from "../../shared/auth/plugin-authority";
import { sha256Hex } from "../../shared/crypto/digest";
import { AppError } from "../../shared/errors";
import { rotateInstallationToken, TOKEN_ROTATION_OVERLAP_MS } from "../../shared/services/plugins/installations";
import { adminCall, signIn, type AdminSession, type ErrorBody } from "../helpers/admin-api";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";
import { FakeClock } from "../helpers/time";

interface Installation {
  id: string;
  plugin_id: string;
  name: string;
  version: string;
  state: "pending" | "active" | "disabled" | "revoked";
  manifest: Record<string, unknown>;
  granted_capabilities: string[];
  granted_model_ids: string[];
  previous_token_expires_at: string | null;
  created_by: string;
}

interface Installed {
  installation: Installation;
  token: string;
  event_secret: string;
}

interface BlocksBody {
  data: { name: string; label: string; version: number; fields: Record<string, unknown> }[];
}

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "seo-helper",
    name: "SEO helper",
    version: "1.2.0",
    endpoint: "https://plugins.example.test/plugin",
    capabilities: ["content:read", "workflow:read", "workflow:publish"],
    rich_text_blocks: [
      { name: "callout", label: "Callout", version: 1, fields: { text: { type: "text" } } },
      { name: "quote", label: "Quote", version: 2, fields: {} },
    ],
    manage_views: [{ id: "dashboard", label: "SEO dashboard", path: "/views/dashboard" }],
    content_actions: [{ id: "audit", label: "Audit page", path: "/actions/audit" }],
    operations: [{ id: "reindex", label: "Reindex", scope: "site", destructive: false, input_schema: { type: "object" }, capabilities: ["content:read"] }],
    content_policies: [{ id: "titles", label: "Title length", mode: "validate" }],
    events: ["entry.published"],
    ...overrides,
  };
}

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, session };
}

async function install(session: AdminSession, s: SeededSite, body: unknown = manifest()) {
  return adminCall<Installed>(session, "POST", "/api/plugins", { siteId: s.site.id, body });
}

async function move(session: AdminSession, s: SeededSite, id: string, action: string) {
  return adminCall<Installation & ErrorBody>(session, "POST", `/api/plugins/${id}/${action}`, { siteId: s.site.id });
}

const bearerRequest = (token?: string) =>
  new Request("https://plugin.test/api/plugin/v1/context", token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

async function authCode(token: string | undefined, now = Date.now()): Promise<string> {
  try {
    const row = await authenticatePlugin(env.DB, bearerRequest(token), now);
    return `ok:${row.id}`;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe("POST /api/plugins", () => {
  it("installs pending with a dwp_ token shown once and only its digest stored, audited", async () => {
    const { s, session } = await setup();
    const res = await install(session, s);
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^dwp_[A-Za-z0-9_-]{43}$/);
    expect(res.body.installation).toMatchObject({ plugin_id: "seo-helper", name: "SEO helper", version: "1.2.0", state: "pending", granted_capabilities: [], granted_model_ids: [], created_by: s.adminId });
    expect(res.body.installation.id).toMatch(/^pin_/);

    const row = await env.DB.prepare("SELECT * FROM plugin_installations WHERE id = ?").bind(res.body.installation.id).first<Record<string, unknown>>();
    expect(row?.token_digest).toBe(await sha256Hex(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token.slice(4));

    const list = await adminCall<{ data: Installation[] }>(session, "GET", "/api/plugins", { siteId: s.site.id });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i) => i.id)).toEqual([res.body.installation.id]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    expect(JSON.stringify(list.body)).not.toContain(String(row?.token_digest));
    expect(JSON.stringify(list.body)).not.toContain("digest");
    // The event secret: shown once beside the token, stored as is, never listed nor audited.
    expect(res.body.event_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(row?.event_secret).toBe(res.body.event_secret);
    expect(JSON.stringify(list.body)).not.toContain(res.body.event_secret);
    expect(res.body.installation).not.toHaveProperty("event_secret");

    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE site_id = ? AND action = 'plugin.install'").bind(s.site.id).all<Record<string, unknown>>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor_id: s.adminId, target_kind: "plugin_installation", target_id: res.body.installation.id });
    expect(JSON.stringify(audit.results)).not.toContain(res.body.token);
    expect(JSON.stringify(audit.results)).not.toContain(res.body.event_secret);

    const again = await install(session, s);
    expect(again.status).toBe(409);
    expect((again.body as unknown as ErrorBody).error.code).toBe("plugin_already_installed");
  });

  it("refuses invalid manifests with 400 and oversize ones with manifest_too_large", async () => {
    const { s, session } = await setup();
    for (const body of [
      manifest({ id: "A" }),
      manifest({ id: "x" }),
      manifest({ endpoint: "http://example.com/plugin" }),
      manifest({ endpoint: "ftp://127.0.0.1/" }),
      manifest({ capabilities: ["content:read", "site:nuke"] }),
      manifest({ version: "one" }),
      manifest({ extra: true }),
      manifest({ manage_views: [{ id: "v", label: "V", path: "https://evil.test/" }] }),
      manifest({ operations: [{ id: "op", label: "Op", scope: "site", destructive: true, input_schema: {}, capabilities: ["content:write"] }] }),
      manifest({ rich_text_blocks: [{ name: "a", label: "A", version: 1, fields: [] }] }),
    ]) {
      const res = await install(session, s, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as unknown as ErrorBody).error.code).toBe("invalid_request");
    }
    const big = await install(session, s, manifest({ name: "Big", rich_text_blocks: [{ name: "a", label: "A", version: 1, fields: { pad: "x".repeat(33000) } }] }));
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({ error: { code: "manifest_too_large", max: 32768 } });
    const https = await install(session, s, manifest({ endpoint: "https://plugins.example.com/seo" }));
    expect(https.status).toBe(201);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM plugin_installations WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("needs site:plugins and CSRF", async () => {
    const { s, session } = await setup();
    expect((await adminCall(session, "POST", "/api/plugins", { siteId: s.site.id, body: manifest(), csrf: null })).status).toBe(403);
    const editor = await s.person("editor");
    const email = (await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(editor.id).first<{ email: string }>())?.email ?? "";
    const editorSession = await signIn(email, "pw");
    const res = await adminCall<ErrorBody>(editorSession, "POST", "/api/plugins", { siteId: s.site.id, body: manifest() });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("missing_permission");
  });
});

describe("grants and states", () => {
  it("grants only what the manifest requested, on models of this site", async () => {
    const { s, models, session } = await setup();
    const other = await setup();
    const { installation } = (await install(session, s)).body;
    const grant = (body: unknown) => adminCall<Installation & ErrorBody & { error: { capabilities?: string[]; model_ids?: string[] } }>(session, "PUT", `/api/plugins/${installation.id}/grant`, { siteId: s.site.id, body });

    const notRequested = await grant({ capabilities: ["content:read", "workflow:unpublish"], model_ids: [] });
    expect(notRequested.status).toBe(422);
    expect(notRequested.body.error.code).toBe("grant_not_requested");
    expect(notRequested.body.error.capabilities).toEqual(["workflow:unpublish"]);

    const foreign = await grant({ capabilities: ["content:read"], model_ids: [other.models.note.id] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe("unknown_model");

    expect((await grant({ capabilities: ["content:read"], model_ids: [], extra: 1 })).status).toBe(400);

    const ok = await grant({ capabilities: ["content:read", "workflow:publish", "content:read"], model_ids: [models.note.id] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ granted_capabilities: ["content:read", "workflow:publish"], granted_model_ids: [models.note.id] });
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND action = 'plugin.grant'").bind(s.site.id).first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it("follows the state table; illegal moves are 409 installation_state_conflict", async () => {
    const { s, session } = await setup();
    const { installation, token } = (await install(session, s)).body;
    const id = installation.id;
    const expectConflict = async (action: string) => {
      const res = await move(session, s, id, action);
      expect(res.status, action).toBe(409);
      expect(res.body.error.code).toBe("installation_state_conflict");
    };
    expect(await authCode(token)).toBe("plugin_unauthorized"); // pending
    await expectConflict("disable");
    expect((await move(session, s, id, "activate")).body.state).toBe("active");
    expect(await authCode(token)).toBe(`ok:${id}`);
    await expectConflict("activate");
    expect((await move(session, s, id, "disable")).body.state).toBe("disabled");
    expect(await authCode(token)).toBe("plugin_unauthorized");
    await expectConflict("disable");
    expect((await move(session, s, id, "activate")).body.state).toBe("active");
    expect((await move(session, s, id, "revoke")).body.state).toBe("revoked");
    expect(await authCode(token)).toBe("plugin_unauthorized");
    for (const action of ["activate", "disable", "revoke", "rotate-token"]) await expectConflict(action);
    const grant = await adminCall<ErrorBody>(session, "PUT", `/api/plugins/${id}/grant`, { siteId: s.site.id, body: { capabilities: [], model_ids: [] } });
    expect(grant.status).toBe(409);

    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE site_id = ? AND target_id = ? ORDER BY rowid").bind(s.site.id, id).all<{ action: string }>();
    expect(actions.results.map((a) => a.action)).toEqual(["plugin.install", "plugin.activate", "plugin.disable", "plugin.activate", "plugin.revoke"]);

    const removed = await adminCall(session, "DELETE", `/api/plugins/${id}`, { siteId: s.site.id });
    expect(removed.status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM plugin_installations WHERE id = ?").bind(id).first()).toBeNull();
    expect((await adminCall(session, "GET", `/api/plugins/${id}`, { siteId: s.site.id })).status).toBe(404);
    const reinstalled = await install(session, s);
    expect(reinstalled.status).toBe(201);
  });

  it("an uninstalled active plugin's token stops at once", async () => {
    const { s, session } = await setup();
    const { installation, token } = (await install(session, s)).body;
    await move(session, s, installation.id, "activate");
    expect(await authCode(token)).toBe(`ok:${installation.id}`);
    expect((await adminCall(session, "DELETE", `/api/plugins/${installation.id}`, { siteId: s.site.id })).status).toBe(200);
    expect(await authCode(token)).toBe("plugin_unauthorized");
  });
});

describe("token rotation", () => {
  it("shows a new token once; the previous one works until 600000 ms after the rotation", async () => {
    const { s, session } = await setup();
    const { installation, token: first, event_secret: firstSecret } = (await install(session, s)).body;
    await move(session, s, installation.id, "activate");
    const clock = new FakeClock(Date.UTC(2030, 0, 1));
    const rotatedAt = clock.now();
    const rotated = await rotateInstallationToken({ ...s.ctx(), clock }, installation.id);
    expect(rotated.token).toMatch(/^dwp_[A-Za-z0-9_-]{43}$/);
    expect(rotated.token).not.toBe(first);
    expect(rotated.installation.previous_token_expires_at).toBe(new Date(rotatedAt + TOKEN_ROTATION_OVERLAP_MS).toISOString());

    const row = await env.DB.prepare("SELECT * FROM plugin_installations WHERE id = ?").bind(installation.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ token_digest: await sha256Hex(rotated.token), previous_token_digest: await sha256Hex(first), previous_token_expires_at: rotatedAt + 600000 });
    // A new event secret replaces the old one at once.
    expect(rotated.event_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.event_secret).not.toBe(firstSecret);
    expect(row?.event_secret).toBe(rotated.event_secret);

    expect(await authCode(first, rotatedAt + 599_999)).toBe(`ok:${installation.id}`);
    expect(await authCode(first, rotatedAt + 600_000)).toBe("plugin_unauthorized");
    expect(await authCode(rotated.token, rotatedAt + 10_000_000)).toBe(`ok:${installation.id}`);

    // A second rotation (over HTTP) ends the first token at once and keeps the second for the overlap.
    const second = await adminCall<Installed>(session, "POST", `/api/plugins/${installation.id}/rotate-token`, { siteId: s.site.id });
    expect(second.status).toBe(200);
    expect(second.body.token).toMatch(/^dwp_/);
    expect(await authCode(first, rotatedAt)).toBe("plugin_unauthorized");
    expect(await authCode(rotated.token)).toBe(`ok:${installation.id}`);
    expect(await authCode(second.body.token)).toBe(`ok:${installation.id}`);
    const audit = await env.DB.prepare("SELECT details FROM audit_log WHERE site_id = ? AND action = 'plugin.rotate_token'").bind(s.site.id).all<{ details: string }>();
    expect(audit.results).toHaveLength(2);
    expect(JSON.stringify(audit.results)).not.toContain(second.body.token);
  });
});

describe("authenticatePlugin", () => {
  it("refuses missing, malformed, unknown tokens with plugin_unauthorized", async () => {
    expect(await authCode(undefined)).toBe("plugin_unauthorized");
    expect(await authCode("not-a-token")).toBe("plugin_unauthorized");
    expect(await authCode(`dwp_${"A".repeat(43)}`)).toBe("plugin_unauthorized");
    const basic = new Request("https://plugin.test/", { headers: { authorization: "Basic abc" } });
    await expect(authenticatePlugin(env.DB, basic, Date.now())).rejects.toMatchObject({ code: "plugin_unauthorized", status: 401 });
  });
});

describe("GET /v1/_rich-blocks", () => {
  it("lists the blocks of active installations only", async () => {
    const { s, session } = await setup();
    const { installation } = (await install(session, s)).body;
    await install(session, s, manifest({ id: "maps", rich_text_blocks: [{ name: "map", label: "Map", version: 3, fields: { lat: { type: "number" } } }] }));
    const blocks = async () => (await publicGet<BlocksBody>(s.host, "/v1/_rich-blocks")).body.data;
    expect(await blocks()).toEqual([]);
    await move(session, s, installation.id, "activate");
    expect(await blocks()).toEqual([
      { name: "seo-helper/callout", label: "Callout", version: 1, fields: { text: { type: "text" } } },
      { name: "seo-helper/quote", label: "Quote", version: 2, fields: {} },
    ]);
    await move(session, s, installation.id, "disable");
    expect(await blocks()).toEqual([]);
  });
});

describe("site isolation", () => {
  it("another site's installation id is 404 on every route, and its blocks are not listed", async () => {
    const { s, session } = await setup();
    const other = await setup();
    const theirs = (await install(other.session, other.s)).body.installation;
    await move(other.session, other.s, theirs.id, "activate");
    const calls: [string, string, unknown][] = [
      ["GET", `/api/plugins/${theirs.id}`, undefined],
      ["PUT", `/api/plugins/${theirs.id}/grant`, { capabilities: [], model_ids: [] }],
      ["POST", `/api/plugins/${theirs.id}/activate`, undefined],
      ["POST", `/api/plugins/${theirs.id}/disable`, undefined],
      ["POST", `/api/plugins/${theirs.id}/revoke`, undefined],
      ["POST", `/api/plugins/${theirs.id}/rotate-token`, undefined],
      ["DELETE", `/api/plugins/${theirs.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await adminCall<ErrorBody>(session, method, path, { siteId: s.site.id, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await adminCall<{ data: unknown[] }>(session, "GET", "/api/plugins", { siteId: s.site.id })).body.data).toEqual([]);
    expect((await publicGet<BlocksBody>(s.host, "/v1/_rich-blocks")).body.data).toEqual([]);
    expect((await publicGet<BlocksBody>(other.s.host, "/v1/_rich-blocks")).body.data).toHaveLength(2);
    const row = await env.DB.prepare("SELECT state FROM plugin_installations WHERE id = ?").bind(theirs.id).first<{ state: string }>();
    expect(row?.state).toBe("active");
  });
});
