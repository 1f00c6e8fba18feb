import { isoAt, type Clock } from "../../clock";
import { BIDI_CONTROLS, CONTROL_CHARACTERS, codePointLength, hasBidiControl, hasControlCharacter, hasInvisibleFormat, hasLineSeparator, LINE_SEPARATORS, isWellFormedText, toWellFormedText } from "../../content/plain-text";
import { sha256Hex } from "../../crypto/digest";
import { newId } from "../../ids";
import { OAuthError } from "./errors";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris";
import { parseScopeParameter, scopeString } from "./scopes";

/**
 * OAuth client registration (RFC 7591, docs/oauth.md): public clients only. A client never gets a
 * secret; `token_endpoint_auth_method` is `none` (absent means `none`). Clients are global, not per
 * site: the person picks the site when connecting. Registration is open (no credential), so it is
 * counted per client address ({@link REGISTRATION_LIMIT}) and its body is bounded by the router.
 */

/** Registrations per counting key (client address) per window. */
export const REGISTRATION_LIMIT = { registrations: 20, windowMs: 60 * 60_000 } as const;

/** Longest `client_name`, in characters (code points). */
export const MAX_CLIENT_NAME_LENGTH = 200;

/**
 * Why a `client_name` may not be registered, or null. The consent page shows it to a person deciding
 * whether to trust the app, so it must display as what it is: no lone surrogate, no control
 * character (C0, DEL, C1: a line break or escape would reshape the page or a log), no bidirectional
 * control (U+202E makes "Evil\u202eppA" display as "EvilAppa"…), no other invisible format
 * character (a zero-width space makes two names look alike).
 */
export function clientNameProblem(name: string): string | null {
  if (!isWellFormedText(name)) return "client_name contains a lone surrogate (not well-formed Unicode).";
  const trimmed = name.trim();
  if (trimmed.length === 0 || codePointLength(trimmed) > MAX_CLIENT_NAME_LENGTH) return `client_name must be a string of 1 to ${MAX_CLIENT_NAME_LENGTH} characters.`;
  if (hasControlCharacter(trimmed)) return "client_name contains control characters.";
  if (hasLineSeparator(trimmed)) return "client_name contains line or paragraph separators.";
  if (hasBidiControl(trimmed)) return "client_name contains bidirectional control characters.";
  if (hasInvisibleFormat(trimmed)) return "client_name contains invisible format characters.";
  return null;
}

/**
 * A stored client name as a page may show it: a name registered before {@link clientNameProblem}
 * existed has its lone surrogates, controls and bidirectional controls removed (the page also
 * isolates it with `<bdi>`).
 */
export function displayClientName(name: string): string {
  return toWellFormedText(name).replace(CONTROL_CHARACTERS, "").replace(LINE_SEPARATORS, "").replace(BIDI_CONTROLS, "");
}

/** What registration answers (RFC 7591 §3.2.1): the client id and the metadata as registered. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: ["authorization_code", "refresh_token"];
  response_types: ["code"];
  token_endpoint_auth_method: "none";
  scope?: string;
}

/** A registered client as the code and token services read it. */
export interface OAuthClient {
  id: string;
  client_name: string | null;
  redirect_uris: string[];
}

const SUPPORTED_GRANTS = new Set(["authorization_code", "refresh_token"]);

function metadataError(message: string): OAuthError {
  return new OAuthError("invalid_client_metadata", message);
}

function optionalStringList(body: Record<string, unknown>, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw metadataError(`${key} must be an array of strings.`);
  return value as string[];
}

/**
 * Checks registration metadata; unknown metadata is ignored (RFC 7591 §2) and not stored.
 * Refusals: `invalid_redirect_uri` (missing, empty, more than 5, repeated, or one breaking a rule
 * of `redirect-uris.ts`), `invalid_client_metadata` (a secret-using auth method, grant or
 * response types other than the code flow's, a bad `client_name` ({@link clientNameProblem}), an
 * unknown scope, wrong types).
 */
export function checkRegistration(body: unknown): { client_name: string | null; redirect_uris: string[]; scope: string | null } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw metadataError("The body must be a JSON object.");
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris must list 1 to 5 redirect URIs.");
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError("invalid_redirect_uri", `A client may register at most ${MAX_REDIRECT_URIS} redirect URIs.`);
  for (const uri of uris) {
    if (typeof uri !== "string") throw new OAuthError("invalid_redirect_uri", "Each redirect URI must be a string.");
    const problem = redirectUriProblem(uri);
    if (problem !== null) throw new OAuthError("invalid_redirect_uri", `${problem[0]?.toUpperCase()}${problem.slice(1)}.`);
  }
  if (new Set(uris).size !== uris.length) throw new OAuthError("invalid_redirect_uri", "A redirect URI is listed twice.");

  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw metadataError('Only public clients register here: token_endpoint_auth_method must be "none" (no client secret is issued).');
  }
  const grants = optionalStringList(metadata, "grant_types");
  if (grants !== undefined && (!grants.includes("authorization_code") || grants.some((g) => !SUPPORTED_GRANTS.has(g)))) {
    throw metadataError('grant_types must include "authorization_code" and may add only "refresh_token".');
  }
  const responses = optionalStringList(metadata, "response_types");
  if (responses !== undefined && (responses.length === 0 || responses.some((r) => r !== "code"))) {
    throw metadataError('response_types may only be ["code"].');
  }
  const name = metadata.client_name;
  if (name !== undefined) {
    if (typeof name !== "string") throw metadataError(`client_name must be a string of 1 to ${MAX_CLIENT_NAME_LENGTH} characters.`);
    const problem = clientNameProblem(name);
    if (problem !== null) throw metadataError(problem);
  }
  const scope = metadata.scope;
  if (scope !== undefined && typeof scope !== "string") throw metadataError("scope must be a string of scope names.");
  let scopeText: string | null = null;
  if (typeof scope === "string" && scope.trim().length > 0) {
    try {
      scopeText = scopeString(parseScopeParameter(scope));
    } catch {
      throw metadataError("scope names an unknown scope.");
    }
  }
  return { client_name: typeof name === "string" ? name.trim() : null, redirect_uris: uris as string[], scope: scopeText };
}

// A window that ended starts again at 1; otherwise +1 while under the limit (the DO UPDATE's
// WHERE): a refused registration returns no row and changes nothing (as sign-in throttling).
const COUNT = `INSERT INTO oauth_registration_counts (key_digest, window_started_at, registrations) VALUES (?1, ?2, 1)
  ON CONFLICT (key_digest) DO UPDATE SET
    registrations = CASE WHEN window_started_at <= ?2 - ?3 THEN 1 ELSE registrations + 1 END,
    window_started_at = CASE WHEN window_started_at <= ?2 - ?3 THEN ?2 ELSE window_started_at END
  WHERE window_started_at <= ?2 - ?3 OR registrations < ?4
  RETURNING window_started_at`;

/**
 * Registers a client after checking its metadata and counting the registration against `countKey`
 * (the client address, or the host when the request carries none — see docs/oauth.md). Past the
 * limit: 429 `temporarily_unavailable` with a Retry-After. Nothing is stored on a refusal.
 */
export async function registerClient(d1: D1Database, body: unknown, countKey: string, clock: Clock): Promise<RegisteredClient> {
  const checked = checkRegistration(body);
  const now = clock.now();
  const key = await sha256Hex(`oauth-register:${countKey}`);
  await d1.prepare("DELETE FROM oauth_registration_counts WHERE window_started_at <= ?").bind(now - REGISTRATION_LIMIT.windowMs).run();
  const counted = await d1.prepare(COUNT).bind(key, now, REGISTRATION_LIMIT.windowMs, REGISTRATION_LIMIT.registrations).first();
  if (counted === null) {
    const row = await d1.prepare("SELECT window_started_at FROM oauth_registration_counts WHERE key_digest = ?").bind(key).first<{ window_started_at: number }>();
    const retry = Math.max(1, Math.ceil(((row?.window_started_at ?? now) + REGISTRATION_LIMIT.windowMs - now) / 1000));
    throw new OAuthError("temporarily_unavailable", "Too many client registrations from this address; try again later.", 429, retry);
  }
  const id = newId("ocl");
  await d1
    .prepare("INSERT INTO oauth_clients (id, client_name, redirect_uris, scope, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(id, checked.client_name, JSON.stringify(checked.redirect_uris), checked.scope, isoAt(now))
    .run();
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now / 1000),
    ...(checked.client_name !== null ? { client_name: checked.client_name } : {}),
    redirect_uris: checked.redirect_uris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(checked.scope !== null ? { scope: checked.scope } : {}),
  };
}

/** A registered client, or undefined. */
export async function findClient(d1: D1Database, clientId: string): Promise<OAuthClient | undefined> {
  if (!/^ocl_[A-Za-z0-9]{21}$/.test(clientId)) return undefined;
  const row = await d1.prepare("SELECT id, client_name, redirect_uris FROM oauth_clients WHERE id = ?").bind(clientId).first<{ id: string; client_name: string | null; redirect_uris: string }>();
  if (!row) return undefined;
  return { id: row.id, client_name: row.client_name, redirect_uris: JSON.parse(row.redirect_uris) as string[] };
}
