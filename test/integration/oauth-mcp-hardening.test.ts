import { describe, expect, it } from "vitest";
import { authorizationErrorRedirect } from "../../shared/services/oauth";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool, rpc } from "../helpers/mcp";
import { registerClient, type OAuthErrorBody } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

/** Findings of a black-box probe of the OAuth and MCP surfaces (docs/oauth.md, docs/mcp.md). */
describe("OAuth and MCP hardening", () => {
  it("refuses redirect URIs with characters outside RFC 3986 (a backslash reads as '/') and loopback hosts not written exactly", async () => {
    for (const uri of [
      "https://attacker.example\\.trusted-bank.example/cb",
      "https://bank.example/c b",
      "https://bänk.example/cb",
      "http://127.1:5000/cb",
      "http://0x7f000001/cb",
      "http://2130706433/cb",
      "http://LOCALHOST:5000/cb",
      "http://local%68ost/cb",
      "http:///127.0.0.1/cb",
      "https:///evil.com/cb",
    ]) {
      const res = await registerClient<OAuthErrorBody>("oauth-hardening.test", { redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body.error, uri).toBe("invalid_redirect_uri");
    }
    for (const uri of ["http://127.0.0.1:5000/cb", "http://localhost/cb", "https://h.example/cb?sig=ab%2Fcd%3D%3D&x=%41&z=a~b*c&w='&flag"]) {
      const res = await registerClient("oauth-hardening.test", { redirect_uris: [uri] });
      expect(res.status, uri).toBe(201);
    }
  });

  it("keeps the redirect URI's own query exactly as registered when it adds parameters (RFC 6749 §3.1.2)", () => {
    const uri = "https://h.example/cb?sig=ab%2Fcd%3D%3D&x=%41&z=a~b*c&w='&flag";
    const redirected = authorizationErrorRedirect(uri, "access_denied", "http://demo.test", "st 1");
    expect(redirected).toBe(`${uri}&error=access_denied&state=st+1&iss=http%3A%2F%2Fdemo.test`);
    expect(authorizationErrorRedirect("https://h.example/cb", "access_denied", "http://demo.test")).toBe("https://h.example/cb?error=access_denied&iss=http%3A%2F%2Fdemo.test");
  });

  it("MCP refuses a request naming a site or database, as the HTTP API does", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const http = await manage<{ error: { code: string } }>(token, "GET", "/site", { headers: { "x-site-id": s.site.id } });
    expect(http.status).toBe(400);
    for (const headers of [{ "x-site-id": s.site.id }]) {
      const res = await rpc(s.host, token, "tools/list", undefined, headers);
      expect(res.status).toBe(400);
    }
    for (const search of [`site_id=${s.site.id}`, "database=x"]) {
      const res = await workerFetch(`http://${s.host}/api/manage/mcp?${search}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      expect(res.status, search).toBe(400);
      await res.arrayBuffer();
    }
  });

  it("MCP refuses '.' and '..' as path arguments, so a tool cannot reach another route", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const value of ["..", ".", "%2e%2E", ".%2e"]) {
      const res = await callTool<{ error: { code: string } }>(s.host, token, "restore_entry_version", { id: "ent_x", version_id: value, idempotency_key: `dots-${value.length}-${value}` });
      expect(res.status, value).toBe(200);
      const result = res.body.result;
      expect(result?.isError, value).toBe(true);
      expect(result?.structuredContent.status, value).toBe(400);
      expect(result?.structuredContent.body.error.code, value).toBe("invalid_request");
    }
  });
});
