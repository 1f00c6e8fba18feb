import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, signIn } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { pkce, registerClient, type OAuthErrorBody } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

/**
 * The consent page's CSP names the redirect URI's origin in `form-action` (issue 22 item 11). URL
 * parsers allow `;`, `,`, `'`, `*`… in a host, so `https://ex.example;sandbox/cb` used to add a
 * `sandbox` directive to the header. Header values are built only from parsed, validated origins,
 * and registration refuses redirect URIs whose host is not a plain host name or address.
 */

const HOSTILE = ["https://ex.example;sandbox/cb", "https://ex.example;script-src%20*/cb", "https://a.example,b.example/cb", "https://a'unsafe-inline'.example/cb", "https://a*.example/cb", "https://a=b.example/cb"];

describe("redirect URIs whose host is not a plain host", () => {
  for (const uri of HOSTILE) {
    it(`refuses ${uri} at registration`, async () => {
      const res = await registerClient<OAuthErrorBody>("admin.localhost", { redirect_uris: [uri], client_name: "CSP probe" });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe("invalid_redirect_uri");
    });
  }

  it("still registers plain https hosts, ports, IP addresses and private-use schemes", async () => {
    for (const uri of ["https://app.example.com/cb", "https://app.example.com:8443/cb?x=1", "https://192.0.2.10/cb", "https://[2001:db8::1]/cb", "com.example.app:/oauth", "http://127.0.0.1:5000/cb"]) {
      const res = await registerClient("admin.localhost", { redirect_uris: [uri] });
      expect(res.status, `${uri} ${JSON.stringify(res.body)}`).toBe(201);
    }
  });
});

describe("the consent page's Content-Security-Policy", () => {
  /** The consent page (signed in) for a client row holding `redirectUri` (as rows stored before the rule may). */
  async function consentHeaders(redirectUri: string): Promise<{ status: number; csp: string }> {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const id = `ocl_${crypto.randomUUID().replace(/-/g, "").slice(0, 21)}`;
    await env.DB.prepare("INSERT INTO oauth_clients (id, client_name, redirect_uris, scope, created_at) VALUES (?, 'CSP probe', ?, NULL, ?)")
      .bind(id, JSON.stringify([redirectUri]), new Date().toISOString())
      .run();
    const { challenge } = await pkce();
    const query = new URLSearchParams({ response_type: "code", client_id: id, redirect_uri: redirectUri, state: "s", code_challenge: challenge, code_challenge_method: "S256" });
    const res = await workerFetch(`${ADMIN}/connect?${query.toString()}`, { redirect: "manual", headers: { cookie: session.cookie } });
    const html = await res.text();
    expect(html).toContain("Connect");
    return { status: res.status, csp: res.headers.get("content-security-policy") ?? "" };
  }

  /** The policy's directives by name. */
  function directives(csp: string): Map<string, string> {
    return new Map(csp.split(";").map((d) => d.trim()).filter((d) => d.length > 0).map((d) => [d.split(/\s+/)[0] ?? "", d] as [string, string]));
  }

  for (const uri of HOSTILE) {
    it(`injects nothing for a stored ${uri}: form-action is 'self' alone`, async () => {
      const { status, csp } = await consentHeaders(uri);
      expect(status).toBe(200);
      const parsed = directives(csp);
      expect([...parsed.keys()].sort()).toEqual(["base-uri", "default-src", "form-action", "frame-ancestors", "img-src", "style-src"]);
      expect(parsed.get("form-action")).toBe("form-action 'self'");
      expect(csp).not.toContain("sandbox");
      expect(csp).not.toContain("unsafe-inline");
    });
  }

  it("names a plain redirect origin, and a private-use scheme, in form-action", async () => {
    expect(directives((await consentHeaders("https://app.example.com:8443/cb")).csp).get("form-action")).toBe("form-action 'self' https://app.example.com:8443");
    expect(directives((await consentHeaders("http://127.0.0.1:43210/callback")).csp).get("form-action")).toBe("form-action 'self' http://127.0.0.1:43210");
    expect(directives((await consentHeaders("com.example.app:/oauth")).csp).get("form-action")).toBe("form-action 'self' com.example.app:");
  });
});
