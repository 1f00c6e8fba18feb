import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { mcpFetch } from "../helpers/mcp";
import { workerFetch } from "../helpers/worker";

/**
 * The MCP address answers on every host (the CLI's stdio relay and SDK clients call
 * `127.0.0.1:8787`), so the `resource_metadata` of its 401 must name metadata that answers there
 * too (issue 22 item 10): an OAuth client follows it, then the authorization server it names. On a
 * host that serves no site the metadata used to be 404 and a client could not start.
 */

type ResourceMetadata = { resource: string; authorization_servers: string[]; scopes_supported: string[]; bearer_methods_supported: string[] };

/** Follows a 401 like an MCP client: resource_metadata → its authorization server's metadata. */
async function follow(host: string, token: string | null) {
  const res = await mcpFetch(host, token, { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
  expect(res.status).toBe(401);
  const challenge = res.headers.get("www-authenticate") ?? "";
  const pointer = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(pointer, challenge).toBeDefined();
  const metadataResponse = await workerFetch(pointer ?? "");
  expect(metadataResponse.status, pointer).toBe(200);
  const metadata = (await metadataResponse.json()) as ResourceMetadata;
  const issuer = metadata.authorization_servers[0] ?? "";
  const asResponse = await workerFetch(`${issuer}/.well-known/oauth-authorization-server`);
  expect(asResponse.status, issuer).toBe(200);
  const as = (await asResponse.json()) as { issuer: string; registration_endpoint: string; authorization_endpoint: string };
  return { pointer: pointer ?? "", metadata, as };
}

describe("the MCP 401's resource_metadata answers on every host", () => {
  for (const host of ["127.0.0.1:8787", "localhost:8787", "api.example.test"]) {
    it(`on ${host} (serves no site): metadata for the address called, connecting through the admin host`, async () => {
      for (const token of [null, "dwm_notarealcredential"]) {
        const { pointer, metadata, as } = await follow(host, token);
        expect(pointer).toBe(`http://${host}/.well-known/oauth-protected-resource/api/manage/mcp`);
        // RFC 9728 §3.3: the resource is the address the client called.
        expect(metadata.resource).toBe(`http://${host}/api/manage/mcp`);
        expect(metadata.bearer_methods_supported).toEqual(["header"]);
        expect(metadata.scopes_supported).toContain("content:read");
        const port = host.includes(":") ? `:${host.split(":")[1]}` : "";
        expect(metadata.authorization_servers).toEqual([`http://admin.localhost${port}`]);
        expect(as.issuer).toBe(`http://admin.localhost${port}`);
        expect(as.registration_endpoint).toBe(`http://admin.localhost${port}/api/oauth/register`);
      }
    });
  }

  it("on a site's host: that origin is the resource and its own issuer", async () => {
    const s = await seedSite();
    for (const host of [s.host, `${s.host}:8787`]) {
      const { metadata, as } = await follow(host, null);
      expect(metadata.resource).toBe(`http://${host}/api/manage/mcp`);
      expect(metadata.authorization_servers).toEqual([`http://${host}`]);
      expect(as.issuer).toBe(`http://${host}`);
    }
  });

  it("the authorization server metadata itself stays 404 on a host that is no issuer", async () => {
    const res = await workerFetch("http://127.0.0.1:8787/.well-known/oauth-authorization-server");
    expect(res.status).toBe(404);
  });
});
