import { env } from "cloudflare:test";
import { MCP_BODY_MAX_BYTES } from "../../workers/mcp/router";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { createManagementCredential, revokeManagementCredential } from "../../shared/services/credentials/management-credentials";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool, listTools, mcpFetch, rpc, toolResult } from "../helpers/mcp";

/**
 * The remote MCP server's transport (docs/mcp.md, "Transport"): one JSON-RPC message per POST,
 * one JSON answer, no session, no stream; the credential re-read on every message; Origin,
 * MCP-Protocol-Version, rate limit and body rules. Tools are in mcp-tools.test.ts.
 */

type Err = { error: { code: string; [k: string]: unknown } };

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } };

async function entryCount(siteId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? -1;
}

describe("remote MCP: methods and messages", () => {
  it("answers GET and DELETE (and any method but POST) with 405 Allow: POST, with or without a token", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const method of ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]) {
      for (const t of [token, null]) {
        const res = await mcpFetch<Err>(s.host, t, { method });
        expect(res.status, `${method} ${t ? "token" : "none"}`).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(res.body.error.code).toBe("method_not_allowed");
        expect(res.headers.get("mcp-session-id")).toBeNull();
        expect(res.headers.get("content-type")).not.toContain("text/event-stream");
      }
    }
  });

  it("initializes without a session: JSON answer, the client's version when served, else the newest", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const res = await rpc<{ protocolVersion: string; capabilities: { tools: unknown }; serverInfo: { name: string } }>(s.host, token, "initialize", INIT);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(res.body.jsonrpc).toBe("2.0");
    expect(res.body.result?.protocolVersion).toBe("2025-06-18");
    expect(res.body.result?.capabilities).toEqual({ tools: { listChanged: false } });
    expect(res.body.result?.serverInfo.name).toBe("driftwood-management");
    const older = await rpc<{ protocolVersion: string }>(s.host, token, "initialize", { ...INIT, protocolVersion: "2025-03-26" });
    expect(older.body.result?.protocolVersion).toBe("2025-03-26");
    for (const asked of ["2024-11-05", "2099-01-01", 7]) {
      const other = await rpc<{ protocolVersion: string }>(s.host, token, "initialize", { ...INIT, protocolVersion: asked });
      expect(other.body.result?.protocolVersion, String(asked)).toBe("2025-06-18");
    }
    // Stateless: tools/list works with no initialize before it; ping answers {}.
    expect((await rpc(s.host, token, "ping")).body).toMatchObject({ result: {} });
    expect((await listTools(s.host, token)).length).toBeGreaterThan(0);
  });

  it("accepts MCP-Protocol-Version 2025-06-18, 2025-03-26 or none, and refuses any other with 400", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const version of ["2025-06-18", "2025-03-26"]) {
      const res = await rpc(s.host, token, "ping", undefined, { "mcp-protocol-version": version });
      expect(res.status, version).toBe(200);
    }
    expect((await rpc(s.host, token, "ping")).status).toBe(200);
    for (const version of ["2024-11-05", "2025-06-19", "", "latest", "2025-06-18, 2025-03-26"]) {
      const res = await rpc(s.host, token, "tools/call", { name: "create_entry", arguments: {} }, { "mcp-protocol-version": version });
      expect(res.status, JSON.stringify(version)).toBe(400);
      expect(res.body.error?.code).toBe(-32600);
      expect(res.body.error?.data).toEqual({ supported: ["2025-06-18", "2025-03-26"] });
    }
  });

  it("answers a notification (and a client's response) with 202 and no body", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const body of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { jsonrpc: "2.0", method: "tools/call", params: { name: "get_site" } },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]) {
      const res = await mcpFetch(s.host, token, { body });
      expect(res.status, JSON.stringify(body)).toBe(202);
      expect(res.text).toBe("");
    }
  });

  it("refuses a batch with 400 -32600 and runs none of it", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const token = await credential(s);
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create_entry", arguments: { model_id: author.id, fields: { name: "Batch" } } } });
    for (const batch of [[call(1), call(2)], [call(3)], []]) {
      const res = await mcpFetch<{ id: null; error: { code: number } }>(s.host, token, { body: batch });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    }
    expect(await entryCount(s.site.id)).toBe(0);
  });

  it("answers malformed JSON with -32700, a non-message with -32600, another media type with 415", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const raw of ["{not json", '{"jsonrpc":"2.0","id":1,', "", `${"[".repeat(100)}${"]".repeat(100)}`]) {
      const res = await mcpFetch<{ id: null; error: { code: number } }>(s.host, token, { rawBody: raw });
      expect(res.status, raw.slice(0, 20)).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    }
    for (const body of [42, "text", null, { id: 1, method: "ping" }, { jsonrpc: "1.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, { jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, { jsonrpc: "2.0", id: 1 }]) {
      const res = await mcpFetch<{ error: { code: number } }>(s.host, token, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(-32600);
    }
    const form = await mcpFetch<{ error: { code: number } }>(s.host, token, { rawBody: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), headers: { "content-type": "text/plain" } });
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe(-32600);
    const unknown = await rpc(s.host, token, "resources/list");
    expect(unknown.status).toBe(200);
    expect(unknown.body.error?.code).toBe(-32601);
  });

  it("bounds the body: an upload tool's 8 MiB as base64 and its arguments (MCP_BODY_MAX_BYTES → 413 payload_too_large)", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(MCP_BODY_MAX_BYTES) } });
    const res = await mcpFetch<Err>(s.host, token, { rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });
});

describe("remote MCP: credential, origin and rate limit", () => {
  it("answers a message without a valid token 401 with WWW-Authenticate pointing at the protected-resource metadata", async () => {
    const s = await seedSite();
    for (const auth of [null, "dwm_nope", `dwm_${"A".repeat(43)}`]) {
      const res = await mcpFetch<Err>(s.host, auth, { body: { jsonrpc: "2.0", id: 1, method: "initialize", params: INIT } });
      expect(res.status, String(auth)).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.headers.get("www-authenticate")).toBe(`Bearer error="invalid_token", resource_metadata="http://${s.host}/.well-known/oauth-protected-resource/api/manage/mcp"`);
    }
    // A notification needs the credential too.
    expect((await mcpFetch(s.host, null, { body: { jsonrpc: "2.0", method: "notifications/initialized" } })).status).toBe(401);
  });

  it("re-reads the credential on every message: revoked, the next message is 401", async () => {
    const s = await seedSite();
    const created = await createManagementCredential(s.ctx(), { name: "mcp", scopes: [...ALL_SCOPES] });
    expect((await rpc(s.host, created.token, "initialize", INIT)).status).toBe(200);
    expect((await listTools(s.host, created.token)).length).toBeGreaterThan(0);
    await revokeManagementCredential(s.ctx(), created.id);
    const after = await rpc(s.host, created.token, "tools/list");
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await mcpFetch(s.host, created.token, { body: { jsonrpc: "2.0", method: "notifications/initialized" } })).status).toBe(401);
  });

  it("refuses a browser page of another origin with 403 and runs nothing; same origin and no Origin pass", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const token = await credential(s);
    const create = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_entry", arguments: { model_id: author.id, fields: { name: "X" } } } };
    for (const origin of ["https://evil.example", "null", `https://${s.host}`, `http://${s.host}:8080`, `http://sub.${s.host}`, "http://api.example.test"]) {
      const res = await mcpFetch<Err>(s.host, token, { body: create, headers: { origin } });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.code).toBe("cross_origin_refused");
    }
    // Refused before the credential is even read.
    expect((await mcpFetch(s.host, null, { body: create, headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect(await entryCount(s.site.id)).toBe(0);
    const same = await mcpFetch(s.host, token, { body: { jsonrpc: "2.0", id: 2, method: "ping" }, headers: { origin: `http://${s.host}` } });
    expect(same.status).toBe(200);
  });

  it("counts each POST once against the credential's rate limit, tool calls included, then 429 with Retry-After", async () => {
    const s = await seedSite();
    const token = await credential(s);
    // vitest.config.ts sets MANAGE_RATE_LIMIT to 40 per minute. 20 tool calls (each dispatching a
    // management request inside) + 20 HTTP requests fit exactly; counting a call twice would not.
    for (let batch = 0; batch < 2; batch++) {
      const calls = await Promise.all(Array.from({ length: 10 }, () => toolResult<{ id: string }>(s.host, token, "get_site")));
      for (const c of calls) expect(c.structuredContent.status).toBe(200);
    }
    const http = await Promise.all(Array.from({ length: 20 }, () => manage(token, "GET", "/site")));
    expect(http.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const limited = await callTool(s.host, token, "get_site");
    expect(limited.status).toBe(429);
    expect((limited.body as unknown as Err).error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Notifications count as POSTs too.
    expect((await mcpFetch(s.host, token, { body: { jsonrpc: "2.0", method: "notifications/initialized" } })).status).toBe(429);
  });
});
