import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { systemClock } from "../../shared/clock";
import { sha256Hex } from "../../shared/crypto/digest";
import { issueAuthorizationCode, OAuthError, type TokenAnswer } from "../../shared/services/oauth";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { manage } from "../helpers/manage-api";
import { authorize, connect, newClient, oauthForm, pkce, REDIRECT, type OAuthErrorBody } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

async function exchange(s: SeededSite, form: Record<string, string>) {
  return oauthForm<TokenAnswer & OAuthErrorBody>(s.host, "token", { grant_type: "authorization_code", redirect_uri: REDIRECT, ...form });
}

async function refresh(s: SeededSite, clientId: string, refreshToken: string, extra: Record<string, string> = {}) {
  return oauthForm<TokenAnswer & OAuthErrorBody>(s.host, "token", { grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, ...extra });
}

async function siteStatus(token: string): Promise<number> {
  return (await manage(token, "GET", "/site")).status;
}

async function thrown(promise: Promise<unknown>): Promise<OAuthError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error("expected an OAuthError");
}

function grant(s: SeededSite, clientId: string, challenge: string, extra: Partial<Parameters<typeof issueAuthorizationCode>[1]> = {}) {
  return { client_id: clientId, redirect_uri: REDIRECT, person_id: s.adminId, site_id: s.site.id, scopes: [], code_challenge: challenge, code_challenge_method: "S256", state: "xyz", issuer: `http://${s.host}`, ...extra };
}

describe("issueAuthorizationCode (what the /connect page calls)", () => {
  it("stores only the code's digest, for 60 s, and returns the redirect with code, state and iss", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { challenge } = await pkce();
    const before = Date.now();
    const issued = await issueAuthorizationCode(env.DB, grant(s, clientId, challenge), systemClock);
    const url = new URL(issued.redirect_url);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get("code")).toBe(issued.code);
    expect(url.searchParams.get("state")).toBe("xyz");
    expect(url.searchParams.get("iss")).toBe(`http://${s.host}`);
    const row = await env.DB.prepare("SELECT * FROM oauth_codes WHERE client_id = ?").bind(clientId).first<Record<string, unknown>>();
    expect(row?.digest).toBe(await sha256Hex(issued.code));
    expect(JSON.stringify(row)).not.toContain(issued.code);
    expect(row?.expires_at as number).toBeGreaterThanOrEqual(before + 60_000);
    expect(row?.expires_at as number).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("refuses plain PKCE, a missing method and a malformed challenge (invalid_request)", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { verifier, challenge } = await pkce();
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, verifier, { code_challenge_method: "plain" }), systemClock))).code).toBe("invalid_request");
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, challenge, { code_challenge_method: "" }), systemClock))).code).toBe("invalid_request");
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, "short"), systemClock))).code).toBe("invalid_request");
  });

  it("refuses an unknown client and an unregistered redirect URI", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { challenge } = await pkce();
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, "ocl_000000000000000000000", challenge), systemClock))).code).toBe("invalid_client");
    const other = await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, challenge, { redirect_uri: "http://127.0.0.1:43210/callback/" }), systemClock));
    expect(other.code).toBe("invalid_request");
  });

  it("refuses an unknown scope (invalid_scope) and a person without access to the site (access_denied)", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const clientId = await newClient(s);
    const { challenge } = await pkce();
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, challenge, { scopes: ["content:read", "admin:everything"] }), systemClock))).code).toBe("invalid_scope");
    expect((await thrown(issueAuthorizationCode(env.DB, grant(s, clientId, challenge, { person_id: other.adminId }), systemClock))).code).toBe("access_denied");
  });
});

describe("POST /api/oauth/token: authorization_code", () => {
  it("exchanges a code with the right PKCE verifier for dwo_ / dwr_ tokens that work on the management API", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId, { scopes: ["content:write"] });
    const res = await exchange(s, { code, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^dwo_[A-Za-z0-9_-]{43}$/),
      token_type: "Bearer",
      expires_in: 600,
      refresh_token: expect.stringMatching(/^dwr_[A-Za-z0-9_-]{43}$/),
      scope: "content:read content:write",
    });
    expect(await siteStatus(res.body.access_token)).toBe(200);
  });

  it("refuses a wrong verifier (invalid_grant) and leaves the code usable with the right one", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    const other = await pkce();
    const wrong = await exchange(s, { code, client_id: clientId, code_verifier: other.verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await exchange(s, { code, client_id: clientId, code_verifier: verifier })).status).toBe(200);
  });

  it("refuses plain PKCE at the token endpoint: the challenge itself as verifier fails", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { verifier, challenge } = await pkce();
    const issued = await issueAuthorizationCode(env.DB, grant(s, clientId, challenge), systemClock);
    const plain = await exchange(s, { code: issued.code, client_id: clientId, code_verifier: challenge });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toBe("invalid_grant");
    expect((await exchange(s, { code: issued.code, client_id: clientId, code_verifier: verifier })).status).toBe(200);
  });

  it("a second use of a code is invalid_grant and revokes what the first use issued", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    const first = await exchange(s, { code, client_id: clientId, code_verifier: verifier });
    expect(first.status).toBe(200);
    expect(await siteStatus(first.body.access_token)).toBe(200);
    const second = await exchange(s, { code, client_id: clientId, code_verifier: verifier });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    // The access token of the first use is refused on its next request, its refresh token too.
    const after = await manage<{ error: { code: string } }>(first.body.access_token, "GET", "/site");
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthorized");
    expect((await refresh(s, clientId, first.body.refresh_token)).body.error).toBe("invalid_grant");
    const connection = await env.DB.prepare("SELECT revoked_at, revoked_reason FROM oauth_connections WHERE client_id = ?").bind(clientId).first<{ revoked_at: string | null; revoked_reason: string }>();
    expect(connection?.revoked_at).not.toBeNull();
    expect(connection?.revoked_reason).toBe("code_reused");
  });

  it("two exchanges of one code at once: one wins, and its connection is revoked all the same", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    const [a, b] = await Promise.all([exchange(s, { code, client_id: clientId, code_verifier: verifier }), exchange(s, { code, client_id: clientId, code_verifier: verifier })]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 400]);
    const winner = a.status === 200 ? a : b;
    expect(await siteStatus(winner.body.access_token)).toBe(401);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_connections WHERE client_id = ?").bind(clientId).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("refuses an expired code (60 s) with invalid_grant", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    await env.DB.prepare("UPDATE oauth_codes SET expires_at = ? WHERE digest = ?").bind(Date.now() - 1, await sha256Hex(code)).run();
    const res = await exchange(s, { code, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_grant");
  });

  it("refuses another client's code, another redirect URI and an unknown code with invalid_grant", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const otherClient = await newClient(s, [REDIRECT, "http://localhost:9/cb"]);
    const { code, verifier } = await authorize(s, clientId);
    expect((await exchange(s, { code, client_id: otherClient, code_verifier: verifier })).body.error).toBe("invalid_grant");
    expect((await exchange(s, { code, client_id: clientId, code_verifier: verifier, redirect_uri: "http://localhost:9/cb" })).body.error).toBe("invalid_grant");
    expect((await exchange(s, { code: "nope", client_id: clientId, code_verifier: verifier })).body.error).toBe("invalid_grant");
    // None of those consumed the code.
    expect((await exchange(s, { code, client_id: clientId, code_verifier: verifier })).status).toBe(200);
  });

  it("refuses a code once the person lost access to the site", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(s.adminId, s.site.id).run();
    expect((await exchange(s, { code, client_id: clientId, code_verifier: verifier })).body.error).toBe("invalid_grant");
  });

  it("refuses missing parameters, a malformed verifier, an unknown client, a client secret, a form of another type and repeated parameters", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    for (const missing of ["code", "client_id", "code_verifier", "redirect_uri"]) {
      const form: Record<string, string> = { code, client_id: clientId, code_verifier: verifier, redirect_uri: REDIRECT };
      delete form[missing];
      const res = await oauthForm<OAuthErrorBody>(s.host, "token", { grant_type: "authorization_code", ...form });
      expect(res.status, missing).toBe(400);
      expect(res.body.error, missing).toBe("invalid_request");
    }
    expect((await exchange(s, { code, client_id: clientId, code_verifier: "too-short" })).body.error).toBe("invalid_request");
    const unknown = await exchange(s, { code, client_id: "ocl_000000000000000000000", code_verifier: verifier });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const secret = await exchange(s, { code, client_id: clientId, code_verifier: verifier, client_secret: "s3cret" });
    expect(secret.status).toBe(401);
    expect(secret.body.error).toBe("invalid_client");
    const basic = await oauthForm<OAuthErrorBody>(s.host, "token", { grant_type: "authorization_code", code, client_id: clientId, code_verifier: verifier, redirect_uri: REDIRECT }, { authorization: `Basic ${btoa(`${clientId}:x`)}` });
    expect(basic.status).toBe(401);
    expect(basic.body.error).toBe("invalid_client");
    expect(basic.headers.get("www-authenticate")).toContain("Basic");
    const json = await workerFetch(`http://${s.host}/api/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "authorization_code", code }) });
    expect(json.status).toBe(400);
    expect(((await json.json()) as OAuthErrorBody).error).toBe("invalid_request");
    const repeated = await workerFetch(`http://${s.host}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=authorization_code&code=${code}&code=${code}&client_id=${clientId}&code_verifier=${verifier}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as OAuthErrorBody).error).toBe("invalid_request");
    const big = await oauthForm<OAuthErrorBody>(s.host, "token", { grant_type: "authorization_code", code, padding: "x".repeat(17 * 1024) });
    expect(big.status).toBe(413);
    // After all of that the code still works once.
    expect((await exchange(s, { code, client_id: clientId, code_verifier: verifier })).status).toBe(200);
  });

  it("refuses an unknown or missing grant type", async () => {
    const s = await seedSite();
    const unknown = await oauthForm<OAuthErrorBody>(s.host, "token", { grant_type: "client_credentials", client_id: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("unsupported_grant_type");
    expect((await oauthForm<OAuthErrorBody>(s.host, "token", { client_id: "x" })).body.error).toBe("invalid_request");
    const get = await workerFetch(`http://${s.host}/api/oauth/token`);
    await get.text();
    expect(get.status).toBe(405);
  });
});

describe("scopes", () => {
  it("no scope asked gives every scope", async () => {
    const s = await seedSite();
    const tokens = await connect(s, { scopes: [] });
    expect(tokens.scope).toBe(ALL_SCOPES.join(" "));
    const row = await env.DB.prepare("SELECT scopes FROM oauth_connections WHERE id = ?").bind(tokens.connection_id).first<{ scopes: string }>();
    expect(JSON.parse(row?.scopes ?? "[]")).toEqual([...ALL_SCOPES]);
  });

  it("an unknown scope is invalid_scope, and content:read is always held", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const error = await thrown(authorize(s, clientId, { scopes: ["nope:nope"] }));
    expect(error.code).toBe("invalid_scope");
    const tokens = await connect(s, { scopes: ["media:write"] });
    expect(tokens.scope).toBe("content:read media:write");
  });
});

describe("POST /api/oauth/token: refresh_token", () => {
  it("rotates on every use: new access and refresh tokens; the old refresh token works once", async () => {
    const s = await seedSite();
    const first = await connect(s);
    const second = await refresh(s, first.client_id, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.expires_in).toBe(600);
    expect(await siteStatus(second.body.access_token)).toBe(200);
    const third = await refresh(s, first.client_id, second.body.refresh_token);
    expect(third.status).toBe(200);
    expect(await siteStatus(third.body.access_token)).toBe(200);
  });

  it("presenting a replaced refresh token revokes the whole connection", async () => {
    const s = await seedSite();
    const first = await connect(s);
    const second = await refresh(s, first.client_id, first.refresh_token);
    expect(second.status).toBe(200);
    const replay = await refresh(s, first.client_id, first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    // Everything of the connection is refused now, the newest tokens included.
    expect(await siteStatus(second.body.access_token)).toBe(401);
    expect(await siteStatus(first.access_token)).toBe(401);
    expect((await refresh(s, first.client_id, second.body.refresh_token)).body.error).toBe("invalid_grant");
    const row = await env.DB.prepare("SELECT revoked_reason FROM oauth_connections WHERE id = ?").bind(first.connection_id).first<{ revoked_reason: string }>();
    expect(row?.revoked_reason).toBe("refresh_reused");
    const audit = await env.DB.prepare("SELECT action, credential_id FROM audit_log WHERE target_id = ? ORDER BY at").bind(first.connection_id).all<{ action: string; credential_id: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["oauth_connection.create", "oauth_connection.revoke"]);
    expect(audit.results.every((r) => r.credential_id === first.connection_id)).toBe(true);
  });

  it("refuses another client's refresh token, an expired one and a malformed one (invalid_grant)", async () => {
    const s = await seedSite();
    const first = await connect(s);
    const otherClient = await newClient(s);
    expect((await refresh(s, otherClient, first.refresh_token)).body.error).toBe("invalid_grant");
    expect((await refresh(s, first.client_id, "dwr_short")).body.error).toBe("invalid_grant");
    await env.DB.prepare("UPDATE oauth_tokens SET expires_at = ? WHERE digest = ?").bind(Date.now() - 1, await sha256Hex(first.refresh_token)).run();
    expect((await refresh(s, first.client_id, first.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("a refresh may narrow the scopes (kept) but never widen them (invalid_scope)", async () => {
    const s = await seedSite();
    const first = await connect(s, { scopes: ["content:write", "media:write"] });
    const wider = await refresh(s, first.client_id, first.refresh_token, { scope: "content:read schema:write" });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe("invalid_scope");
    expect((await refresh(s, first.client_id, first.refresh_token, { scope: "content:read bogus" })).body.error).toBe("invalid_scope");
    const narrower = await refresh(s, first.client_id, first.refresh_token, { scope: "content:write" });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe("content:read content:write");
    const next = await refresh(s, first.client_id, narrower.body.refresh_token);
    expect(next.body.scope).toBe("content:read content:write");
  });

  it("refuses a refresh once the person lost access to the site", async () => {
    const s = await seedSite();
    const first = await connect(s);
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(s.adminId).run();
    expect((await refresh(s, first.client_id, first.refresh_token)).body.error).toBe("invalid_grant");
  });
});

describe("POST /api/oauth/revoke (RFC 7009)", () => {
  it("an access token revokes its connection: 200, then the tokens are refused", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    const res = await oauthForm(s.host, "revoke", { token: tokens.access_token, client_id: tokens.client_id });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await siteStatus(tokens.access_token)).toBe(401);
    expect((await refresh(s, tokens.client_id, tokens.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("a refresh token revokes its connection too (token_type_hint is not needed)", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    expect((await oauthForm(s.host, "revoke", { token: tokens.refresh_token, token_type_hint: "refresh_token" })).status).toBe(200);
    expect(await siteStatus(tokens.access_token)).toBe(401);
  });

  it("answers 200 for unknown, malformed and already revoked tokens, and for another client's token without revoking it", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    const otherClient = await newClient(s);
    expect((await oauthForm(s.host, "revoke", { token: `dwo_${"A".repeat(43)}` })).status).toBe(200);
    expect((await oauthForm(s.host, "revoke", { token: "garbage" })).status).toBe(200);
    expect((await oauthForm(s.host, "revoke", { token: tokens.access_token, client_id: otherClient })).status).toBe(200);
    expect(await siteStatus(tokens.access_token)).toBe(200);
    expect((await oauthForm(s.host, "revoke", { token: tokens.access_token })).status).toBe(200);
    expect((await oauthForm(s.host, "revoke", { token: tokens.access_token })).status).toBe(200);
    expect(await siteStatus(tokens.access_token)).toBe(401);
  });

  it("refuses a request without a token (invalid_request)", async () => {
    const s = await seedSite();
    const res = await oauthForm<OAuthErrorBody>(s.host, "revoke", { client_id: "x" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});

describe("storage", () => {
  it("keeps only SHA-256 digests of codes and tokens in D1", async () => {
    const s = await seedSite();
    const clientId = await newClient(s);
    const { code, verifier } = await authorize(s, clientId);
    const first = await exchange(s, { code, client_id: clientId, code_verifier: verifier });
    const second = await refresh(s, clientId, first.body.refresh_token);
    const secrets = [code, first.body.access_token, first.body.refresh_token, second.body.access_token, second.body.refresh_token];
    const dump: string[] = [];
    for (const table of ["oauth_codes", "oauth_tokens", "oauth_connections", "oauth_clients", "audit_log"]) {
      dump.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM ${table}`).all()).results));
    }
    const all = dump.join("\n");
    for (const secret of secrets) expect(all).not.toContain(secret);
    for (const secret of secrets.slice(1)) {
      const row = await env.DB.prepare("SELECT kind FROM oauth_tokens WHERE digest = ?").bind(await sha256Hex(secret)).first<{ kind: string }>();
      expect(row?.kind).toBe(secret.startsWith("dwo_") ? "access" : "refresh");
    }
  });
});
