import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { grantMembership } from "../../shared/services/sites/provision";
import type { TokenAnswer } from "../../shared/services/oauth";
import { ADMIN, emailOf, roleId, signIn, type AdminSession } from "../helpers/admin-api";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { newAddress, newClient, oauthForm, pkce, REDIRECT, registerClient } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

/**
 * The /connect consent page on the admin host (docs/oauth.md, "The /connect page"), through the
 * real HTTP surface. The browser flow itself is test/e2e/oauth-connect.test.mjs.
 */

interface ConnectRequest {
  s: SeededSite;
  clientId: string;
  verifier: string;
  query: URLSearchParams;
  /** The page's address on the admin host, as the site host's hop makes it. */
  url: string;
}

async function connectRequest(s: SeededSite, overrides: Record<string, string | null> = {}, clientId?: string): Promise<ConnectRequest> {
  const id = clientId ?? (await newClient(s));
  const { verifier, challenge } = await pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: id,
    redirect_uri: REDIRECT,
    state: "st-42",
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "content:read content:write lifecycle:publish",
    site: s.site.id,
    issuer: `http://${s.host}`,
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  return { s, clientId: id, verifier, query, url: `${ADMIN}/connect?${query.toString()}` };
}

async function get(url: string, session?: AdminSession): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await workerFetch(url, { redirect: "manual", headers: session ? { cookie: session.cookie } : {} });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

async function post(
  url: string,
  form: Record<string, string | string[]>,
  options: { session?: AdminSession; origin?: string | null; address?: string; fetchSite?: string } = {},
): Promise<{ status: number; html: string; headers: Headers }> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (options.session) headers.cookie = options.session.cookie;
  const origin = options.origin === undefined ? ADMIN : options.origin;
  if (origin !== null) headers.origin = origin;
  if (options.address) headers["cf-connecting-ip"] = options.address;
  if (options.fetchSite) headers["sec-fetch-site"] = options.fetchSite;
  const res = await workerFetch(url, { method: "POST", redirect: "manual", headers, body: body.toString() });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

async function adminSession(s: SeededSite): Promise<AdminSession> {
  return signIn(await emailOf(s.adminId));
}

async function codeCount(clientId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_codes WHERE client_id = ?").bind(clientId).first<{ n: number }>();
  return row?.n ?? 0;
}

function location(headers: Headers): URL {
  const value = headers.get("location");
  if (!value) throw new Error("no Location");
  return new URL(value);
}

/** The redirect URI's own part of a Location (origin and path). */
const target = (url: URL) => `${url.origin}${url.pathname}`;

function expectPageHeaders(headers: Headers): void {
  const csp = headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain("script-src");
  expect(csp).not.toContain("unsafe-inline");
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
}

describe("/connect: the client and redirect URI are checked first, shown on the page, never redirected", () => {
  it("an unknown client: 400 page with invalid_client and no Location", async () => {
    const s = await seedSite();
    const r = await connectRequest(s, { client_id: "ocl_nobodyxxxxxxxxxxxxxxx" });
    const res = await get(r.url);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.html).toContain("invalid_client");
    expect(res.html).toContain("not registered");
    expectPageHeaders(res.headers);
  });

  it("a redirect URI not registered for the client (even one differing only by a slash or port): 400 page, no Location", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    for (const redirect of ["http://127.0.0.1:43210/callback/", "http://127.0.0.1:43211/callback", "https://evil.example/callback"]) {
      const r = await connectRequest(s, { redirect_uri: redirect }, clientId);
      const res = await get(r.url);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.html).toContain("invalid_request");
      expect(res.html).not.toContain(redirect);
    }
  });

  it("a missing or repeated client_id or redirect_uri: 400 page, no Location", async () => {
    const s = await seedSite();
    const r = await connectRequest(s, { client_id: null });
    expect((await get(r.url)).status).toBe(400);
    const r2 = await connectRequest(s, { redirect_uri: null });
    const res2 = await get(r2.url);
    expect(res2.status).toBe(400);
    expect(res2.headers.get("location")).toBeNull();
    const r3 = await connectRequest(s);
    const res3 = await get(`${r3.url}&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    expect(res3.status).toBe(400);
    expect(res3.headers.get("location")).toBeNull();
  });

  it("an issuer that is not one of the site's hosts (edited in the browser): 400 page, never sent back as iss", async () => {
    const s = await seedSite();
    const other = await seedSite();
    for (const issuer of ["https://evil.example", `http://${other.host}`, `http://${s.host}/path`, "javascript:alert(1)"]) {
      const r = await connectRequest(s, { issuer });
      const res = await get(r.url);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
    // An issuer without the site it belongs to.
    const r = await connectRequest(s, { site: null });
    expect((await get(r.url)).status).toBe(400);
  });
});

describe("/connect: other request errors redirect to the redirect URI with error, state and iss", () => {
  const cases: [string, Record<string, string | null>, string][] = [
    ["missing code_challenge", { code_challenge: null }, "invalid_request"],
    ["a code_challenge that is not 43 base64url characters", { code_challenge: "short" }, "invalid_request"],
    ["code_challenge_method plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["no code_challenge_method", { code_challenge_method: null }, "invalid_request"],
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["no response_type", { response_type: null }, "invalid_request"],
    ["an unknown scope", { scope: "content:read admin:everything" }, "invalid_scope"],
    ["a resource that is not an absolute URL", { resource: "not a url" }, "invalid_target"],
  ];
  for (const [name, overrides, error] of cases) {
    it(`${name} → ${error}`, async () => {
      const s = await seedSite();
      const r = await connectRequest(s, overrides);
      const res = await get(r.url);
      expect(res.status).toBe(302);
      const to = location(res.headers);
      expect(target(to)).toBe(REDIRECT);
      expect(to.searchParams.get("error")).toBe(error);
      expect(to.searchParams.get("state")).toBe("st-42");
      expect(to.searchParams.get("iss")).toBe(`http://${s.host}`);
      expect(to.searchParams.get("code")).toBeNull();
      expect(await codeCount(r.clientId)).toBe(0);
    });
  }

  it("a repeated parameter (state) → invalid_request", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const res = await get(`${r.url}&state=again`);
    expect(res.status).toBe(302);
    expect(location(res.headers).searchParams.get("error")).toBe("invalid_request");
  });

  it("on the admin host itself (no issuer parameter) the iss is the admin origin", async () => {
    const s = await seedSite();
    const r = await connectRequest(s, { issuer: null, site: null, code_challenge: null });
    const res = await get(r.url);
    expect(location(res.headers).searchParams.get("iss")).toBe(ADMIN);
  });
});

describe("/connect: signing in on the page", () => {
  it("without a session: a sign-in form with labelled Email and Password fields and a Sign in button, posting to the page with the same query", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const res = await get(r.url);
    expect(res.status).toBe(200);
    expectPageHeaders(res.headers);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self';");
    expect(res.html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/);
    expect(res.html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(res.html).toContain(">Sign in</button>");
    expect(res.html).toContain(`action="/connect?${r.query.toString().replace(/&/g, "&amp;")}"`);
    expect(res.html).not.toContain("<script");
    const nonce = /<style nonce="([^"]+)">/.exec(res.html)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.headers.get("content-security-policy")).toContain(`style-src 'nonce-${nonce}'`);
  });

  it("the right password: 303 back to the page with the same query and a session cookie; the page then shows the consent", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const res = await post(r.url, { action: "sign_in", email: await emailOf(s.adminId), password: "correct horse" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/connect?${r.query.toString()}`);
    const cookie = /dw_session=(dws_[^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    expect(cookie).toBeTruthy();
    expect(res.headers.get("set-cookie")).toContain("HttpOnly");
    const page = await get(r.url, { cookie: `dw_session=${cookie}`, secret: cookie ?? "", csrf: "", body: {} as never });
    expect(page.status).toBe(200);
    expect(page.html).toContain(">Connect</button>");
  });

  it("a wrong password: 401, the form again with an alert, no cookie", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const res = await post(r.url, { action: "sign_in", email: await emailOf(s.adminId), password: "wrong" });
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.html).toContain('role="alert"');
    expect(res.html).toContain("Wrong email or password.");
  });

  it("uses the sign-in throttle of the admin: past 5 failures on the account, 429 with Retry-After even with the right password", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const email = await emailOf(s.adminId);
    const address = newAddress();
    for (let i = 0; i < 5; i++) expect((await post(r.url, { action: "sign_in", email, password: `wrong-${i}` }, { address })).status).toBe(401);
    const res = await post(r.url, { action: "sign_in", email, password: "correct horse" }, { address });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("a sign-in post without Origin or from another origin (login CSRF): 403, no session", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const email = await emailOf(s.adminId);
    for (const origin of [null, "https://evil.example", `http://${s.host}`, "null"]) {
      const res = await post(r.url, { action: "sign_in", email, password: "correct horse" }, { origin });
      expect(res.status).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.html).toContain("csrf_failed");
    }
  });

  it("Origin: null (what the page's no-referrer policy makes browsers send) passes only with Sec-Fetch-Site: same-origin", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const email = await emailOf(s.adminId);
    for (const fetchSite of ["cross-site", "same-site", "none"]) {
      const refused = await post(r.url, { action: "sign_in", email, password: "correct horse" }, { origin: "null", fetchSite });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    expect((await post(r.url, { action: "sign_in", email, password: "correct horse" }, { origin: "https://evil.example", fetchSite: "same-origin" })).status).toBe(403);
    const ok = await post(r.url, { action: "sign_in", email, password: "correct horse" }, { origin: "null", fetchSite: "same-origin" });
    expect(ok.status).toBe(303);
  });

  it("empty fields: 400 with the form again; another method: 405", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    expect((await post(r.url, { action: "sign_in", email: "", password: "" })).status).toBe(400);
    const put = await workerFetch(r.url, { method: "PUT" });
    await put.text();
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});

describe("/connect: the consent view", () => {
  it("shows the app's name escaped, the redirect URI, a Site radio group and one checkbox per requested scope (content:read checked and disabled)", async () => {
    const s = await seedSite();
    const reg = await registerClient<{ client_id: string }>(s.host, { redirect_uris: [REDIRECT], client_name: `<script>alert("x")</script> & Co` });
    const r = await connectRequest(s, {}, reg.body.client_id);
    const res = await get(r.url, await adminSession(s));
    expect(res.status).toBe(200);
    expectPageHeaders(res.headers);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:43210;");
    expect(res.html).not.toContain("<script");
    expect(res.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(res.html).toContain(`<code>${REDIRECT}</code>`);
    expect(res.html).toContain("<legend>Site</legend>");
    expect(res.html).toMatch(new RegExp(`<input type="radio" id="site-0" name="site" value="${s.site.id}" required checked><label for="site-0">`));
    expect(res.html).toMatch(/<input type="checkbox" id="scope-0" checked disabled[^>]*><label for="scope-0">content:read<\/label>/);
    expect(res.html).toMatch(/<input type="checkbox" id="scope-1" name="scope" value="content:write" checked[^>]*><label for="scope-1">content:write<\/label>/);
    expect(res.html).toMatch(/name="scope" value="lifecycle:publish" checked/);
    expect(res.html).not.toContain('value="media:write"');
    expect(res.html).toContain('name="csrf_token"');
    expect(res.html).toContain('value="connect">Connect</button>');
    expect(res.html).toContain('value="cancel" formnovalidate>Cancel</button>');
  });

  it("a private-use scheme redirect URI: form-action allows that scheme (browsers check form-action on the redirect after the post)", async () => {
    const s = await seedSite();
    const redirect = "com.example.agent:/oauth/callback";
    const clientId = await newClient(s, [redirect]);
    const r = await connectRequest(s, { redirect_uri: redirect }, clientId);
    const res = await get(r.url, await adminSession(s));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' com.example.agent:;");
  });

  it("no scope asked: a checkbox for every scope", async () => {
    const s = await seedSite();
    const r = await connectRequest(s, { scope: null });
    const res = await get(r.url, await adminSession(s));
    for (const scope of ALL_SCOPES) expect(res.html).toContain(`<label for="scope-${ALL_SCOPES.indexOf(scope)}">${scope}</label>`);
  });

  it("on a site host's issuer only that site is offered; on the admin host every site of the person, the hinted one preselected", async () => {
    const s = await seedSite();
    const other = await seedSite();
    await commit(env.DB, [grantMembership(createDb(env.DB), other.site.id, s.adminId, await roleId(other.site.id, "editor"), new Date().toISOString())]);
    const session = await adminSession(s);
    const viaSite = await get((await connectRequest(s)).url, session);
    expect(viaSite.html).toContain(`value="${s.site.id}"`);
    expect(viaSite.html).not.toContain(`value="${other.site.id}"`);
    const viaAdmin = await get((await connectRequest(s, { issuer: null, site: other.site.id })).url, session);
    expect(viaAdmin.html).toContain(`value="${s.site.id}" required>`);
    expect(viaAdmin.html).toContain(`value="${other.site.id}" required checked>`);
  });

  it("a person without an active membership on the issuer's site: no Connect button, only Cancel", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const res = await get((await connectRequest(other)).url, await adminSession(s));
    expect(res.status).toBe(200);
    expect(res.html).not.toContain(">Connect</button>");
    expect(res.html).toContain(">Cancel</button>");
  });
});

async function consentToken(r: ConnectRequest, session: AdminSession): Promise<string> {
  const res = await get(r.url, session);
  const token = /name="csrf_token" value="([^"]+)"/.exec(res.html)?.[1];
  if (!token) throw new Error("no csrf token on the page");
  return token;
}

describe("/connect: Connect and Cancel", () => {
  it("Connect: 303 to the redirect URI with code, state and iss; the code exchanges for tokens with the kept scopes only", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const csrf = await consentToken(r, session);
    const res = await post(r.url, { action: "connect", csrf_token: csrf, site: s.site.id, scope: ["content:write"] }, { session });
    expect(res.status).toBe(303);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const to = location(res.headers);
    expect(target(to)).toBe(REDIRECT);
    expect(to.searchParams.get("state")).toBe("st-42");
    expect(to.searchParams.get("iss")).toBe(`http://${s.host}`);
    const code = to.searchParams.get("code") ?? "";
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = await oauthForm<TokenAnswer>(s.host, "token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: r.clientId, code_verifier: r.verifier });
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe("content:read content:write");
  });

  it("Connect with every box cleared: only content:read", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const res = await post(r.url, { action: "connect", csrf_token: await consentToken(r, session), site: s.site.id }, { session });
    const code = location(res.headers).searchParams.get("code") ?? "";
    const token = await oauthForm<TokenAnswer>(s.host, "token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: r.clientId, code_verifier: r.verifier });
    expect(token.body.scope).toBe("content:read");
  });

  it("a kept scope the app did not ask for (an edited form): 400 invalid_scope on the page, no code", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const res = await post(r.url, { action: "connect", csrf_token: await consentToken(r, session), site: s.site.id, scope: ["content:write", "roles:write"] }, { session });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.html).toContain("invalid_scope");
    expect(await codeCount(r.clientId)).toBe(0);
  });

  it("CSRF: a missing or wrong token, or another session's token: 403, no code", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const otherSession = await adminSession(s);
    for (const csrf of [undefined, "", "x".repeat(43), await consentToken(r, otherSession)]) {
      const form: Record<string, string> = { action: "connect", site: s.site.id };
      if (csrf !== undefined) form.csrf_token = csrf;
      const res = await post(r.url, form, { session });
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(res.html).toContain("csrf_failed");
    }
    expect(await codeCount(r.clientId)).toBe(0);
  });

  it("the right CSRF token but no Origin or another Origin: 403, no code", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const csrf = await consentToken(r, session);
    for (const origin of [null, "https://evil.example"]) {
      const res = await post(r.url, { action: "connect", csrf_token: csrf, site: s.site.id }, { session, origin });
      expect(res.status).toBe(403);
    }
    expect(await codeCount(r.clientId)).toBe(0);
  });

  it("Connect or Cancel without a session: 401 and the sign-in form, no code, no redirect", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const res = await post(r.url, { action: "connect", csrf_token: "x", site: s.site.id });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(res.html).toContain(">Sign in</button>");
  });

  it("a site the person does not belong to, another site than the issuer's, or no site: 403 refused, no code", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const mine = await seedSite();
    await commit(env.DB, [grantMembership(createDb(env.DB), mine.site.id, s.adminId, await roleId(mine.site.id, "editor"), new Date().toISOString())]);
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const csrf = await consentToken(r, session);
    for (const site of [[other.site.id], [mine.site.id], [], [s.site.id, s.site.id]]) {
      const res = await post(r.url, { action: "connect", csrf_token: csrf, site }, { session });
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(res.html).toContain("Choose one of the sites listed");
    }
    expect(await codeCount(r.clientId)).toBe(0);
    // On the admin host the person may choose the other site they belong to.
    const viaAdmin = await connectRequest(s, { issuer: null, site: null }, r.clientId);
    const ok = await post(viaAdmin.url, { action: "connect", csrf_token: csrf, site: mine.site.id }, { session });
    expect(ok.status).toBe(303);
    expect(location(ok.headers).searchParams.get("iss")).toBe(ADMIN);
    const row = await env.DB.prepare("SELECT site_id FROM oauth_codes WHERE client_id = ?").bind(r.clientId).first<{ site_id: string }>();
    expect(row?.site_id).toBe(mine.site.id);
  });

  it("Cancel: 303 to the redirect URI with error=access_denied, state and iss; no code", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const res = await post(r.url, { action: "cancel", csrf_token: await consentToken(r, session) }, { session });
    expect(res.status).toBe(303);
    const to = location(res.headers);
    expect(target(to)).toBe(REDIRECT);
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("state")).toBe("st-42");
    expect(to.searchParams.get("iss")).toBe(`http://${s.host}`);
    expect(to.searchParams.get("code")).toBeNull();
    expect(await codeCount(r.clientId)).toBe(0);
  });

  it("a form past 16 KiB: 413 on the page, no code", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    const res = await post(r.url, { action: "connect", csrf_token: await consentToken(r, session), site: s.site.id, pad: "x".repeat(17 * 1024) }, { session });
    expect(res.status).toBe(413);
    expect(res.headers.get("location")).toBeNull();
    expect(await codeCount(r.clientId)).toBe(0);
  });

  it("an unknown action or a body that is not a form: 400 on the page", async () => {
    const s = await seedSite();
    const r = await connectRequest(s);
    const session = await adminSession(s);
    expect((await post(r.url, { action: "approve_all", csrf_token: await consentToken(r, session) }, { session })).status).toBe(400);
    const res = await workerFetch(r.url, { method: "POST", headers: { origin: ADMIN, cookie: session.cookie, "content-type": "application/json" }, body: "{}" });
    await res.text();
    expect(res.status).toBe(400);
  });
});
