import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { env } from "cloudflare:test";
import { issuerBelongsToSite } from "../../shared/services/oauth";
import { ADMIN } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { workerFetch } from "../helpers/worker";

async function getJson(url: string, init: RequestInit = {}) {
  const res = await workerFetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

describe("GET /.well-known/oauth-authorization-server (RFC 8414)", () => {
  it("names the site host's origin as issuer and every endpoint on it", async () => {
    const s = await seedSite();
    const issuer = `http://${s.host}`;
    const res = await getJson(`${issuer}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer,
      authorization_endpoint: `${issuer}/connect`,
      token_endpoint: `${issuer}/api/oauth/token`,
      registration_endpoint: `${issuer}/api/oauth/register`,
      revocation_endpoint: `${issuer}/api/oauth/revoke`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      scopes_supported: [...ALL_SCOPES],
      authorization_response_iss_parameter_supported: true,
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("keeps the port and the scheme the request was made with (wrangler dev: http and Host with port)", async () => {
    const s = await seedSite();
    const local = await getJson(`http://${s.host}:8787/.well-known/oauth-authorization-server`);
    expect(local.body.issuer).toBe(`http://${s.host}:8787`);
    expect(local.body.token_endpoint).toBe(`http://${s.host}:8787/api/oauth/token`);
    const secure = await getJson(`https://${s.host}/.well-known/oauth-authorization-server`);
    expect(secure.body.issuer).toBe(`https://${s.host}`);
    // The Host header decides, as for site resolution; a forwarding header never does.
    const forwarded = await getJson(`http://${s.host}/.well-known/oauth-authorization-server`, { headers: { "x-forwarded-proto": "https", forwarded: "proto=https;host=evil.test" } });
    expect(forwarded.body.issuer).toBe(`http://${s.host}`);
  });

  it("answers on the admin host with the admin origin as issuer", async () => {
    const res = await getJson(`${ADMIN}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.body.issuer).toBe(ADMIN);
    expect(res.body.registration_endpoint).toBe(`${ADMIN}/api/oauth/register`);
  });

  it("is 404 on a host that is no site's and not the admin host; the MCP address's metadata answers there, naming the admin host", async () => {
    const res = await getJson("http://nobody-here.test/.well-known/oauth-authorization-server");
    expect(res.status).toBe(404);
    // The MCP address answers on every host, so its metadata does (issue 22 item 10; test/integration/mcp-resource-metadata.test.ts).
    const protectedResource = await getJson("http://nobody-here.test/.well-known/oauth-protected-resource/api/manage/mcp");
    expect(protectedResource.status).toBe(200);
    expect(protectedResource.body).toMatchObject({ resource: "http://nobody-here.test/api/manage/mcp", authorization_servers: [ADMIN] });
  });

  it("answers only GET: another method is 405 with Allow", async () => {
    const s = await seedSite();
    const res = await getJson(`http://${s.host}/.well-known/oauth-authorization-server`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("GET /.well-known/oauth-protected-resource/api/manage/mcp (RFC 9728)", () => {
  it("names the MCP address as resource and the origin as its authorization server", async () => {
    const s = await seedSite();
    const origin = `http://${s.host}`;
    const res = await getJson(`${origin}/.well-known/oauth-protected-resource/api/manage/mcp`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      resource: `${origin}/api/manage/mcp`,
      authorization_servers: [origin],
      scopes_supported: [...ALL_SCOPES],
      bearer_methods_supported: ["header"],
    });
  });

  it("does not answer for another resource path", async () => {
    const s = await seedSite();
    const res = await workerFetch(`http://${s.host}/.well-known/oauth-protected-resource/api/manage/v1`);
    await res.text();
    expect(res.status).toBe(404);
  });
});

describe("/connect (authorization endpoint)", () => {
  it("on a site host: 302 to the admin host's /connect with the same query, the site and the issuer", async () => {
    const s = await seedSite();
    const query = "response_type=code&client_id=ocl_x&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcb&state=a%20b&code_challenge=abc&code_challenge_method=S256&scope=content%3Aread";
    const res = await workerFetch(`http://${s.host}:8787/connect?${query}&site=site_forged`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe("http://admin.localhost:8787");
    expect(location.pathname).toBe("/connect");
    const original = new URLSearchParams(query);
    for (const [name, value] of original) expect(location.searchParams.get(name), name).toBe(value);
    // A site named in the query is replaced by the host's own.
    expect(location.searchParams.getAll("site")).toEqual([s.site.id]);
    expect(location.searchParams.get("issuer")).toBe(`http://${s.host}:8787`);
  });

  it("on an unknown host: 404, no redirect", async () => {
    const res = await workerFetch("http://nobody-here.test/connect?client_id=x", { redirect: "manual" });
    await res.text();
    expect(res.status).toBe(404);
  });

  it("on the admin host: the consent page (an unknown app is an error on the page, no redirect; oauth-connect-page.test.ts)", async () => {
    const res = await workerFetch(`${ADMIN}/connect?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb`, { redirect: "manual" });
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("invalid_client");
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });
});

describe("issuerBelongsToSite (the /connect page's check of the issuer it returns as iss)", () => {
  it("accepts exactly the origin the site host publishes, seen on the admin host's scheme and port, and nothing else", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const local = { protocol: "http:", port: "8787" };
    const edge = { protocol: "https:", port: "" };
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${s.host}:8787`, local)).toBe(true);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `https://${s.host}`, edge)).toBe(true);
    // Another port or scheme of the site's own host is an origin the service does not own (issue 22 item 9).
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${s.host}`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${s.host}:9999`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `https://${s.host}:8787`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${s.host}`, edge)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `https://${s.host}:8443`, edge)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${other.host}:8787`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://${s.host}:8787/path`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `http://user@${s.host}:8787`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, `ftp://${s.host}:8787`, local)).toBe(false);
    expect(await issuerBelongsToSite(env.DB, s.site.id, "not a url", local)).toBe(false);
  });
});
