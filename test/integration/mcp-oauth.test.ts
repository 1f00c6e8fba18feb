import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential } from "../helpers/manage-api";
import { callTool, listTools, mcpFetch, rpc, toolResult } from "../helpers/mcp";
import { connect } from "../helpers/oauth";

/** An OAuth app connection's access token (`dwo_…`, docs/oauth.md) on the remote MCP server (docs/mcp.md). */

type Err = { error: { code: string } };
type EntryBody = { instance_id: string; lang: string };

describe("remote MCP with an OAuth access token (dwo_)", () => {
  it("lists only the tools the connection's scopes allow, and runs them as the connection (audited with its id)", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const tokens = await connect(s, { scopes: ["content:write"] });
    expect(tokens.access_token).toMatch(/^dwo_/);

    const init = await rpc<{ protocolVersion: string }>(s.host, tokens.access_token, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "oauth-app", version: "1" } });
    expect(init.status).toBe(200);
    expect(init.body.result?.protocolVersion).toBe("2025-06-18");

    const names = (await listTools(s.host, tokens.access_token)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_entry", "list_entries", "create_entry", "save_entry"]));
    for (const hidden of ["publish_entry", "unpublish_entry", "trash_entry", "purge_entry", "update_settings", "replace_media", "remove_media"]) expect(names, hidden).not.toContain(hidden);
    // Exactly what a dwm_ credential of the same scopes sees: the connection's scopes filter the list.
    const same = await credential(s, ["content:read", "content:write"]);
    expect(names).toEqual((await listTools(s.host, same)).map((t) => t.name));
    const all = await credential(s);
    expect((await listTools(s.host, all)).length).toBeGreaterThan(names.length);

    const created = await toolResult<EntryBody>(s.host, tokens.access_token, "create_entry", { model_id: author.id, fields: { name: "Ada" }, idempotency_key: "oauth-mcp-1" });
    expect(created.isError).toBe(false);
    expect(created.structuredContent).toMatchObject({ status: 201, idempotency_key: "oauth-mcp-1" });
    const id = created.structuredContent.body.instance_id;
    const audit = await env.DB.prepare("SELECT action, actor_kind, actor_id, credential_id FROM audit_log WHERE site_id = ? AND target_id = ?").bind(s.site.id, id).all<{ action: string; actor_kind: string; actor_id: string; credential_id: string }>();
    expect(audit.results).toEqual([{ action: "entry.create", actor_kind: "management_credential", actor_id: s.adminId, credential_id: tokens.connection_id }]);

    // A tool outside the scopes is unknown to this connection, and writes nothing.
    const refused = await callTool(s.host, tokens.access_token, "publish_entry", { id });
    expect(refused.status).toBe(200);
    expect(refused.body.error).toEqual({ code: -32602, message: "Unknown tool: publish_entry" });
    const published = await env.DB.prepare("SELECT published_version_id AS v FROM entries WHERE instance_id = ?").bind(id).first<{ v: string | null }>();
    expect(published?.v).toBeNull();
  });

  it("a wider connection sees publish_entry; an expired, revoked or forged dwo_ token is 401 with the resource metadata challenge", async () => {
    const s = await seedSite();
    const wide = await connect(s, { scopes: ["content:write", "lifecycle:publish"] });
    expect((await listTools(s.host, wide.access_token)).map((t) => t.name)).toEqual(expect.arrayContaining(["create_entry", "publish_entry"]));

    const list = { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } };
    const forged = await mcpFetch<Err>(s.host, `dwo_${"A".repeat(43)}`, list);
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("unauthorized");
    expect(forged.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token", resource_metadata="http://${s.host}/.well-known/oauth-protected-resource/api/manage/mcp"`);

    await env.DB.prepare("UPDATE oauth_tokens SET expires_at = ? WHERE digest = ?").bind(Date.now() - 1, await sha256Hex(wide.access_token)).run();
    const expired = await mcpFetch<Err>(s.host, wide.access_token, list);
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("unauthorized");

    const other = await connect(s, { scopes: ["content:write"] });
    expect((await mcpFetch(s.host, other.access_token, list)).status).toBe(200);
    await env.DB.prepare("UPDATE oauth_connections SET revoked_at = ?, revoked_reason = 'test' WHERE id = ?").bind(new Date().toISOString(), other.connection_id).run();
    expect((await mcpFetch<Err>(s.host, other.access_token, list)).status).toBe(401);
  });
});
