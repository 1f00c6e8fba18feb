import { personAuthority } from "../../auth/person-authority";
import { isoAt, type Clock } from "../../clock";
import { commit, guard } from "../../db/batch";
import { createDb } from "../../db/client";
import type { OAuthCodesTable } from "../../db/database";
import { base64url, newSecret, sha256Hex } from "../../crypto/digest";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { commitPlan } from "../lifecycle/commit-plan";
import { findClient, type OAuthClient } from "./clients";
import { connectionContext, revokeConnectionRow } from "./connection-store";
import { OAuthError } from "./errors";
import { parseScopeParameter, resolveScopes, scopeString } from "./scopes";

/**
 * Authorization codes and tokens (spec 2 "Authentication", docs/oauth.md). Only SHA-256 digests of
 * codes and tokens are stored. A code lives {@link CODE_TTL_MS} and works once; exchanging it makes
 * a *connection* (a person's grant of a client to one site with kept scopes) and its first access
 * and refresh tokens. A second use of a code revokes that connection. A refresh token works once:
 * each use rotates it, and presenting a replaced one revokes the connection.
 */

export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_MS = 10 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** A used code is kept this long after it expired, so a late second use still revokes. */
const USED_CODE_KEPT_MS = 24 * 60 * 60_000;

const ACCESS_TOKEN = /^dwo_[A-Za-z0-9_-]{43}$/;
const REFRESH_TOKEN = /^dwr_[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is base64url of 32 bytes: 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** What the /connect page hands over once the person chose to connect. */
export interface AuthorizationGrant {
  client_id: string;
  redirect_uri: string;
  person_id: string;
  site_id: string;
  /** The scopes the person kept (names; none → every scope; an unknown one → `invalid_scope`). */
  scopes: readonly string[];
  code_challenge: string;
  code_challenge_method: string;
  /** The client's `state`, returned unchanged (absent → not returned). */
  state?: string | null;
  /** The issuer the client discovered (the origin of the metadata it read), returned as `iss` (RFC 9207). */
  issuer: string;
}

/** An issued code and the address to send the browser to. */
export interface IssuedCode {
  code: string;
  expires_at: string;
  /** `redirect_uri` with `code`, `state` (when given) and `iss`. */
  redirect_url: string;
}

/** The token endpoint's success answer (RFC 6749 §5.1). */
export interface TokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

function invalidGrant(description: string): OAuthError {
  return new OAuthError("invalid_grant", description);
}

/** base64url(SHA-256(verifier)), the S256 transform of RFC 7636 §4.2. */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The redirect URI with extra query parameters added (its own query kept, exactly as registered). */
function withQuery(redirectUri: string, params: Record<string, string>): string {
  // Appended to the query as written (RFC 6749 §3.1.2: it MUST be retained): rebuilding it through
  // URLSearchParams would re-encode `%41`, `~`, `'` and turn a bare `flag` into `flag=`.
  const added = new URLSearchParams(params).toString();
  const hasQuery = redirectUri.includes("?");
  return `${redirectUri}${hasQuery ? (redirectUri.endsWith("?") || redirectUri.endsWith("&") ? "" : "&") : "?"}${added}`;
}

/**
 * The client and redirect URI of an authorization request, checked before anything is shown or
 * redirected: an unknown client (`invalid_client`) or an unregistered redirect URI
 * (`invalid_request`) must be shown as an error on the page and never redirected to.
 */
export async function checkAuthorizationClient(d1: D1Database, clientId: string, redirectUri: string): Promise<OAuthClient> {
  const client = await findClient(d1, clientId);
  if (!client) throw new OAuthError("invalid_client", "Unknown client_id.");
  if (!client.redirect_uris.includes(redirectUri)) throw new OAuthError("invalid_request", "redirect_uri is not registered for this client.");
  return client;
}

/**
 * Whether `issuer` (the `issuer` query parameter the site host's `/connect` hop adds) may be
 * returned as `iss` for a code on `siteId`: exactly the issuer the site host's metadata publishes
 * (docs/oauth.md, "Origin and issuer") — an `http:` or `https:` origin (nothing else: no path,
 * query, fragment or user info) whose host is one of the site's hosts, and whose **scheme and port
 * are those the admin host was reached on** (`seenOn`): every host of the service is served by the
 * same edge (or the same `wrangler dev`), so the hop keeps both, and another port or scheme of the
 * site's host is an origin the service does not own. The /connect page checks this before issuing,
 * since the query reaches the page through the browser and could be edited.
 */
export async function issuerBelongsToSite(d1: D1Database, siteId: string, issuer: string, seenOn: { protocol: string; port: string }): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== issuer) return false;
  if (url.protocol !== seenOn.protocol || url.port !== seenOn.port) return false;
  const row = await d1.prepare("SELECT 1 AS ok FROM site_hosts WHERE site_id = ? AND host = ?").bind(siteId, url.hostname).first();
  return row !== null;
}

/**
 * The address to send the browser to when an authorization request is refused after its client and
 * redirect URI were checked (cancel → `access_denied`, RFC 6749 §4.1.2.1, with `iss` of RFC 9207).
 */
export function authorizationErrorRedirect(redirectUri: string, error: string, issuer: string, state?: string | null, description?: string): string {
  return withQuery(redirectUri, {
    error,
    ...(description ? { error_description: description } : {}),
    ...(state ? { state } : {}),
    iss: issuer,
  });
}

/**
 * Issues an authorization code for a person who chose to connect `client_id` to `site_id`. Only the
 * code's SHA-256 digest is stored; it lives 60 s and works once. Refusals: `invalid_client`,
 * `invalid_request` (unregistered redirect URI; a method other than `S256` — `plain` is refused —
 * or a malformed challenge), `invalid_scope`, `access_denied` (the person has no active membership
 * on the site or is deactivated).
 */
export async function issueAuthorizationCode(d1: D1Database, grant: AuthorizationGrant, clock: Clock): Promise<IssuedCode> {
  await checkAuthorizationClient(d1, grant.client_id, grant.redirect_uri);
  if (grant.code_challenge_method !== "S256") throw new OAuthError("invalid_request", "code_challenge_method must be S256 (plain is not supported).");
  if (!S256_CHALLENGE.test(grant.code_challenge)) throw new OAuthError("invalid_request", "code_challenge must be the base64url S256 challenge (43 characters).");
  const scopes = resolveScopes(grant.scopes);
  const authority = await personAuthority(createDb(d1), grant.person_id, grant.site_id);
  if (!authority.ok) throw new OAuthError("access_denied", "The person has no access to this site.");
  const now = clock.now();
  const code = base64url(crypto.getRandomValues(new Uint8Array(32)));
  await d1
    .prepare("INSERT INTO oauth_codes (digest, client_id, redirect_uri, site_id, person_id, scopes, code_challenge, expires_at, used_at, connection_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)")
    .bind(await sha256Hex(code), grant.client_id, grant.redirect_uri, grant.site_id, grant.person_id, JSON.stringify(scopes), grant.code_challenge, now + CODE_TTL_MS)
    .run();
  return {
    code,
    expires_at: isoAt(now + CODE_TTL_MS),
    redirect_url: withQuery(grant.redirect_uri, { code, ...(grant.state ? { state: grant.state } : {}), iss: grant.issuer }),
  };
}

/** Drops expired tokens and long-expired codes (cheap, indexed; run on the token endpoint's calls). */
async function sweep(d1: D1Database, now: number): Promise<void> {
  await d1.batch([
    d1.prepare("DELETE FROM oauth_tokens WHERE expires_at <= ?").bind(now),
    d1.prepare("DELETE FROM oauth_codes WHERE expires_at <= ?").bind(now - USED_CODE_KEPT_MS),
  ]);
}

async function requireClient(d1: D1Database, clientId: string): Promise<OAuthClient> {
  const client = await findClient(d1, clientId);
  if (!client) throw new OAuthError("invalid_client", "Unknown client_id.");
  return client;
}

async function newTokens(connectionId: string, now: number) {
  const access = newSecret("dwo_");
  const refresh = newSecret("dwr_");
  const rows = [
    { digest: await sha256Hex(access), connection_id: connectionId, kind: "access" as const, expires_at: now + ACCESS_TOKEN_TTL_MS, replaced_at: null },
    { digest: await sha256Hex(refresh), connection_id: connectionId, kind: "refresh" as const, expires_at: now + REFRESH_TOKEN_TTL_MS, replaced_at: null },
  ];
  return { access, refresh, rows };
}

function answer(access: string, refresh: string, scopes: readonly string[]): TokenAnswer {
  return { access_token: access, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_MS / 1000, refresh_token: refresh, scope: scopeString(scopes) };
}

/** Whether a batch failed on its optimistic guard (another request used the code or token first). */
function lostRace(error: unknown): boolean {
  return error instanceof AppError && error.code === "write_conflict";
}

/** `grant_type=authorization_code` (RFC 6749 §4.1.3 with PKCE S256, RFC 7636 §4.6). */
export async function exchangeAuthorizationCode(
  d1: D1Database,
  input: { code: string; redirect_uri: string; client_id: string; code_verifier: string },
  clock: Clock,
): Promise<TokenAnswer> {
  const now = clock.now();
  await sweep(d1, now);
  await requireClient(d1, input.client_id);
  if (!CODE_VERIFIER.test(input.code_verifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 unreserved characters.");
  const digest = await sha256Hex(input.code);
  const row = await d1.prepare("SELECT * FROM oauth_codes WHERE digest = ?").bind(digest).first<OAuthCodesTable>();
  if (!row) throw invalidGrant("The authorization code is unknown.");
  if (row.used_at !== null) {
    if (row.connection_id !== null) await revokeConnectionRow(d1, row.connection_id, "code_reused", clock);
    throw invalidGrant("The authorization code was already used; what it issued is revoked.");
  }
  if (row.expires_at <= now) throw invalidGrant("The authorization code has expired.");
  if (row.client_id !== input.client_id) throw invalidGrant("The authorization code was issued to another client.");
  if (row.redirect_uri !== input.redirect_uri) throw invalidGrant("redirect_uri does not match the authorization request.");
  if ((await s256(input.code_verifier)) !== row.code_challenge) throw invalidGrant("code_verifier does not match the code_challenge.");
  const authority = await personAuthority(createDb(d1), row.person_id, row.site_id);
  if (!authority.ok) throw invalidGrant("The person who connected no longer has access to the site.");

  const scopes = JSON.parse(row.scopes) as string[];
  const connectionId = newId("con");
  const tokens = await newTokens(connectionId, now);
  const ctx = await connectionContext(d1, row.site_id, { ...authority.actor, credentialId: connectionId }, clock);
  if (!ctx) throw invalidGrant("The site no longer exists.");
  const db = ctx.db;
  try {
    await commitPlan(ctx, {
      statements: [
        guard(db, "write_conflict", "EXISTS (SELECT 1 FROM oauth_codes WHERE digest = ? AND used_at IS NULL)", [digest]),
        db.updateTable("oauth_codes").set({ used_at: now, connection_id: connectionId }).where("digest", "=", digest).compile(),
        db
          .insertInto("oauth_connections")
          .values({ id: connectionId, site_id: row.site_id, client_id: row.client_id, person_id: row.person_id, scopes: row.scopes, created_at: isoAt(now), revoked_at: null, revoked_reason: null })
          .compile(),
        db.insertInto("oauth_tokens").values(tokens.rows).compile(),
      ],
      answer: null,
      events: [],
      purgeTags: [],
      audit: { action: "oauth_connection.create", targetKind: "oauth_connection", targetId: connectionId, details: { client_id: row.client_id, scopes } },
    });
  } catch (error) {
    if (!lostRace(error)) throw error;
    // Another request exchanged the code first: this is its second use.
    const used = await d1.prepare("SELECT connection_id FROM oauth_codes WHERE digest = ?").bind(digest).first<{ connection_id: string | null }>();
    if (used?.connection_id) await revokeConnectionRow(d1, used.connection_id, "code_reused", clock);
    throw invalidGrant("The authorization code was already used; what it issued is revoked.");
  }
  return answer(tokens.access, tokens.refresh, scopes);
}

/**
 * `grant_type=refresh_token` (RFC 6749 §6): the refresh token works once and is replaced by a new
 * one with a new access token. A replaced token presented again revokes the connection. `scope`
 * may narrow the connection (never widen it: `invalid_scope`); the narrowing is kept.
 */
export async function refreshTokens(d1: D1Database, input: { refresh_token: string; client_id: string; scope?: string | null }, clock: Clock): Promise<TokenAnswer> {
  const now = clock.now();
  await sweep(d1, now);
  await requireClient(d1, input.client_id);
  if (!REFRESH_TOKEN.test(input.refresh_token)) throw invalidGrant("The refresh token is unknown.");
  const digest = await sha256Hex(input.refresh_token);
  const row = await d1
    .prepare(
      `SELECT t.connection_id, t.expires_at, t.replaced_at, c.site_id, c.client_id, c.person_id, c.scopes, c.revoked_at
       FROM oauth_tokens t JOIN oauth_connections c ON c.id = t.connection_id WHERE t.digest = ? AND t.kind = 'refresh'`,
    )
    .bind(digest)
    .first<{ connection_id: string; expires_at: number; replaced_at: number | null; site_id: string; client_id: string; person_id: string; scopes: string; revoked_at: string | null }>();
  if (!row || row.client_id !== input.client_id) throw invalidGrant("The refresh token is unknown.");
  if (row.revoked_at !== null) throw invalidGrant("The connection has been revoked.");
  if (row.replaced_at !== null) {
    await revokeConnectionRow(d1, row.connection_id, "refresh_reused", clock);
    throw invalidGrant("The refresh token was already used; the connection is revoked.");
  }
  if (row.expires_at <= now) throw invalidGrant("The refresh token has expired.");
  const held = JSON.parse(row.scopes) as string[];
  let scopes = held;
  if (input.scope !== undefined && input.scope !== null && input.scope.trim().length > 0) {
    const asked = parseScopeParameter(input.scope);
    if (asked.some((scope) => !held.includes(scope))) throw new OAuthError("invalid_scope", "A refresh may narrow the connection's scopes, never widen them.");
    scopes = asked;
  }
  const authority = await personAuthority(createDb(d1), row.person_id, row.site_id);
  if (!authority.ok) throw invalidGrant("The person who connected no longer has access to the site.");

  const db = createDb(d1);
  const tokens = await newTokens(row.connection_id, now);
  const statements = [
    guard(db, "write_conflict", "EXISTS (SELECT 1 FROM oauth_tokens t JOIN oauth_connections c ON c.id = t.connection_id WHERE t.digest = ? AND t.replaced_at IS NULL AND c.revoked_at IS NULL)", [digest]),
    db.updateTable("oauth_tokens").set({ replaced_at: now }).where("digest", "=", digest).compile(),
    db.insertInto("oauth_tokens").values(tokens.rows).compile(),
  ];
  if (scopes !== held) statements.push(db.updateTable("oauth_connections").set({ scopes: JSON.stringify(scopes) }).where("id", "=", row.connection_id).compile());
  try {
    await commit(d1, statements);
  } catch (error) {
    if (!lostRace(error)) throw error;
    await revokeConnectionRow(d1, row.connection_id, "refresh_reused", clock);
    throw invalidGrant("The refresh token was already used; the connection is revoked.");
  }
  return answer(tokens.access, tokens.refresh, scopes);
}

/**
 * Token revocation (RFC 7009): an access or refresh token revokes its whole connection. Unknown,
 * malformed, expired or already revoked tokens change nothing; the endpoint answers 200 whatever
 * happened, so the answer never tells whether a token existed. When `client_id` is given and is not
 * the token's client, nothing is revoked either.
 */
export async function revokeToken(d1: D1Database, input: { token: string; client_id?: string | null }, clock: Clock): Promise<void> {
  if (!ACCESS_TOKEN.test(input.token) && !REFRESH_TOKEN.test(input.token)) return;
  const row = await d1
    .prepare("SELECT t.connection_id, c.client_id FROM oauth_tokens t JOIN oauth_connections c ON c.id = t.connection_id WHERE t.digest = ?")
    .bind(await sha256Hex(input.token))
    .first<{ connection_id: string; client_id: string }>();
  if (!row) return;
  if (input.client_id && input.client_id !== row.client_id) return;
  await revokeConnectionRow(d1, row.connection_id, "client", clock);
}
