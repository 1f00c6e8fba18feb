import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REGISTRATION_LIMIT } from "../../shared/services/oauth";
import { ADMIN } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { newAddress, registerClient, type OAuthErrorBody } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

const FORBIDDEN = ["javascript", "data", "file", "vbscript", "blob", "about", "filesystem", "ftp", "ws", "wss", "mailto", "tel", "sms", "intent", "chrome", "chrome-extension", "view-source"];

/** The host every registration of this file goes to (clients are global: any known or unknown host works). */
const HOST = "oauth-register.test";

async function accepted(uri: string) {
  const res = await registerClient<{ client_id: string; redirect_uris: string[] }>(HOST, { redirect_uris: [uri] });
  expect(res.status, uri).toBe(201);
  expect(res.body.redirect_uris, uri).toEqual([uri]);
}

async function refused(body: unknown, code: "invalid_redirect_uri" | "invalid_client_metadata") {
  const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_clients").first<{ n: number }>();
  const res = await registerClient<OAuthErrorBody>(HOST, body);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(res.body.error, JSON.stringify(body)).toBe(code);
  expect(typeof res.body.error_description).toBe("string");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_clients").first<{ n: number }>();
  expect(after?.n, "nothing stored").toBe(before?.n);
}

const badUri = (uri: string) => refused({ redirect_uris: [uri] }, "invalid_redirect_uri");

describe("POST /api/oauth/register (RFC 7591, public clients)", () => {
  it("answers 201 with a client id, its issue time and the metadata as registered, and stores the client", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await registerClient<Record<string, unknown>>(HOST, {
      redirect_uris: ["https://app.example.com/cb", "http://127.0.0.1:5000/callback"],
      client_name: "  My agent  ",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "content:write content:read",
      logo_uri: "https://app.example.com/logo.png",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^ocl_[A-Za-z0-9]{21}$/),
      client_id_issued_at: expect.any(Number),
      client_name: "My agent",
      redirect_uris: ["https://app.example.com/cb", "http://127.0.0.1:5000/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "content:read content:write",
    });
    expect(res.body.client_id_issued_at as number).toBeGreaterThanOrEqual(before);
    expect(res.body).not.toHaveProperty("client_secret");
    const row = await env.DB.prepare("SELECT * FROM oauth_clients WHERE id = ?").bind(res.body.client_id).first<Record<string, unknown>>();
    expect(row?.redirect_uris).toBe(JSON.stringify(["https://app.example.com/cb", "http://127.0.0.1:5000/callback"]));
  });

  it("needs only redirect_uris, and answers on the admin host and site hosts alike (clients are global)", async () => {
    const s = await seedSite();
    for (const host of [s.host, new URL(ADMIN).host]) {
      const res = await registerClient<Record<string, unknown>>(host, { redirect_uris: ["https://x.example/cb"] });
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty("client_name");
      expect(res.body.token_endpoint_auth_method).toBe("none");
    }
  });

  describe("redirect URI rules", () => {
    it("accepts https with any host, port, path and query", async () => {
      await accepted("https://app.example.com/cb");
      await accepted("https://10.0.0.1:8443/oauth/cb?x=1");
    });

    it("accepts http on 127.0.0.1 and localhost with any port (or none)", async () => {
      await accepted("http://127.0.0.1/cb");
      await accepted("http://127.0.0.1:1/callback");
      await accepted("http://127.0.0.1:65535/callback");
      await accepted("http://localhost:8080/cb");
      await accepted("http://localhost/cb");
    });

    it("refuses http on any other host", async () => {
      await badUri("http://example.com/cb");
      await badUri("http://127.0.0.2:5000/cb");
      await badUri("http://localhost.evil.test/cb");
      await badUri("http://[::1]:5000/cb");
      await badUri("http://0.0.0.0:5000/cb");
    });

    it("accepts a private-use scheme: lowercase, 2 to 64 characters", async () => {
      await accepted("com.example.app:/oauth/cb");
      await accepted("myapp://callback");
      await accepted("ab:/cb");
      await accepted(`${"a".repeat(64)}:/cb`);
      await accepted("x-1.app+v2:/cb");
    });

    for (const scheme of FORBIDDEN) {
      it(`refuses the forbidden scheme ${scheme}`, async () => {
        await badUri(`${scheme}:/cb`);
      });
    }

    it("refuses forbidden schemes in their usual forms too", async () => {
      await badUri("javascript:alert(1)");
      await badUri("data:text/html,<script>alert(1)</script>");
      await badUri("file:///etc/passwd");
      await badUri("chrome-extension://abcdef/cb");
    });

    it("refuses an uppercase (or mixed-case) scheme", async () => {
      await badUri("MyApp:/cb");
      await badUri("MYAPP://callback");
      await badUri("HTTPS://app.example.com/cb");
      await badUri("Http://127.0.0.1:5000/cb");
    });

    it("refuses a 1-character and a 65-character scheme", async () => {
      await badUri("a:/cb");
      await badUri(`${"a".repeat(65)}:/cb`);
    });

    it("refuses a scheme that is not a valid scheme", async () => {
      await badUri("1app:/cb");
      await badUri("my_app:/cb");
      await badUri("/relative/cb");
      await badUri("app.example.com/cb");
    });

    it("refuses a fragment, even an empty one", async () => {
      await badUri("https://app.example.com/cb#frag");
      await badUri("https://app.example.com/cb#");
      await badUri("http://127.0.0.1:5000/cb#x");
      await badUri("myapp:/cb#x");
    });

    it("refuses user info", async () => {
      await badUri("https://user@app.example.com/cb");
      await badUri("https://user:pass@app.example.com/cb");
      await badUri("https://@app.example.com/cb");
      await badUri("http://evil.test@127.0.0.1:5000/cb");
      await badUri("myapp://user@host/cb");
    });

    it("refuses whitespace, control characters and over-long URIs", async () => {
      await badUri(" https://app.example.com/cb");
      await badUri("https://app.example.com/c b");
      await badUri("https://app.example.com/cb\n");
      await badUri(`https://app.example.com/${"a".repeat(2000)}`);
    });

    it("accepts 5 redirect URIs and refuses 6", async () => {
      const five = [1, 2, 3, 4, 5].map((n) => `https://app.example.com/cb${n}`);
      expect((await registerClient(HOST, { redirect_uris: five })).status).toBe(201);
      await refused({ redirect_uris: [...five, "https://app.example.com/cb6"] }, "invalid_redirect_uri");
    });

    it("refuses no redirect URI, an empty list, a repeated URI and a non-string", async () => {
      await refused({}, "invalid_redirect_uri");
      await refused({ redirect_uris: [] }, "invalid_redirect_uri");
      await refused({ redirect_uris: "https://app.example.com/cb" }, "invalid_redirect_uri");
      await refused({ redirect_uris: ["https://app.example.com/cb", "https://app.example.com/cb"] }, "invalid_redirect_uri");
      await refused({ redirect_uris: [42] }, "invalid_redirect_uri");
    });
  });

  describe("client metadata", () => {
    it("refuses every secret-using token endpoint auth method (no secret is ever issued)", async () => {
      for (const method of ["client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt", "tls_client_auth", ""]) {
        await refused({ redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: method }, "invalid_client_metadata");
      }
    });

    it("refuses grant and response types outside the code flow", async () => {
      await refused({ redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], grant_types: ["refresh_token"] }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], grant_types: ["authorization_code", "implicit"] }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], grant_types: "authorization_code" }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], response_types: ["token"] }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], response_types: [] }, "invalid_client_metadata");
      expect((await registerClient(HOST, { redirect_uris: ["https://a.example/cb"], grant_types: ["authorization_code"] })).status).toBe(201);
    });

    it("bounds client_name to 1..200 characters and refuses a non-string", async () => {
      await refused({ redirect_uris: ["https://a.example/cb"], client_name: "x".repeat(201) }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], client_name: "   " }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], client_name: 7 }, "invalid_client_metadata");
      expect((await registerClient(HOST, { redirect_uris: ["https://a.example/cb"], client_name: "x".repeat(200) })).status).toBe(201);
    });

    it("refuses an unknown scope and a non-string scope", async () => {
      await refused({ redirect_uris: ["https://a.example/cb"], scope: "content:read everything" }, "invalid_client_metadata");
      await refused({ redirect_uris: ["https://a.example/cb"], scope: ["content:read"] }, "invalid_client_metadata");
    });

    it("refuses a body that is not a JSON object, not JSON, or not sent as application/json", async () => {
      await refused([{ redirect_uris: ["https://a.example/cb"] }], "invalid_client_metadata");
      await refused("{not json", "invalid_client_metadata");
      const res = await registerClient<OAuthErrorBody>(HOST, { redirect_uris: ["https://a.example/cb"] }, newAddress(), { "content-type": "text/plain" });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    });
  });

  it("refuses a body over 16 KiB with 413 before parsing it", async () => {
    const res = await registerClient<OAuthErrorBody>(HOST, { redirect_uris: ["https://a.example/cb"], padding: "x".repeat(16 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("invalid_request");
  });

  it("answers only POST", async () => {
    const res = await workerFetch(`http://${HOST}/api/oauth/register`);
    await res.text();
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it(`counts registrations per client address: past ${REGISTRATION_LIMIT.registrations} an hour, 429 with Retry-After; other addresses are not held`, async () => {
    const address = "203.0.113.77";
    for (let i = 0; i < REGISTRATION_LIMIT.registrations; i++) {
      expect((await registerClient(HOST, { redirect_uris: ["https://a.example/cb"] }, address)).status).toBe(201);
    }
    const over = await registerClient<OAuthErrorBody>(HOST, { redirect_uris: ["https://a.example/cb"] }, address);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("temporarily_unavailable");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await registerClient(HOST, { redirect_uris: ["https://a.example/cb"] }, "203.0.113.78")).status).toBe(201);
    // A refused registration stores nothing and does not count: the window's count stays at the limit.
    const counted = await env.DB.prepare("SELECT registrations FROM oauth_registration_counts ORDER BY registrations DESC LIMIT 1").first<{ registrations: number }>();
    expect(counted?.registrations).toBe(REGISTRATION_LIMIT.registrations);
  });
});
