import { env } from "cloudflare:test";
import { systemClock } from "../../shared/clock";
import { issueAuthorizationCode, s256, type TokenAnswer } from "../../shared/services/oauth";
import type { SeededSite } from "./fixtures";
import { workerFetch } from "./worker";

/** Any answer of the OAuth surface, parsed. */
export interface OAuthResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** An OAuth error body (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  error: string;
  error_description: string;
}

async function parsed<T>(response: Response): Promise<OAuthResult<T>> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

let addresses = 0;
/** A fresh client address (CF-Connecting-IP) per call site, so registration counting never mixes tests. */
export const newAddress = () => `198.51.100.${(Date.now() + addresses++) % 250}`;

/** POST /api/oauth/register with a JSON body on `host`. */
export async function registerClient<T = Record<string, unknown>>(host: string, body: unknown, address: string = newAddress(), headers: Record<string, string> = {}): Promise<OAuthResult<T>> {
  return parsed<T>(
    await workerFetch(`http://${host}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": address, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** A form POST to /api/oauth/token or /api/oauth/revoke. */
export async function oauthForm<T = Record<string, unknown>>(host: string, endpoint: "token" | "revoke", form: Record<string, string>, headers: Record<string, string> = {}): Promise<OAuthResult<T>> {
  return parsed<T>(
    await workerFetch(`http://${host}/api/oauth/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

/** A random PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const verifier = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return { verifier, challenge: await s256(verifier) };
}

export const REDIRECT = "http://127.0.0.1:43210/callback";

/** A registered public client on the site's host. */
export async function newClient(s: SeededSite, redirectUris: string[] = [REDIRECT]): Promise<string> {
  const res = await registerClient<{ client_id: string }>(s.host, { redirect_uris: redirectUris, client_name: "Test app" });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.client_id;
}

/** What the /connect page would do: a code for `personId` on the site with the kept scopes. */
export async function authorize(s: SeededSite, clientId: string, options: { personId?: string; scopes?: string[]; redirectUri?: string } = {}) {
  const { verifier, challenge } = await pkce();
  const issued = await issueAuthorizationCode(
    env.DB,
    {
      client_id: clientId,
      redirect_uri: options.redirectUri ?? REDIRECT,
      person_id: options.personId ?? s.adminId,
      site_id: s.site.id,
      scopes: options.scopes ?? [],
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "st-1",
      issuer: `http://${s.host}`,
    },
    systemClock,
  );
  return { ...issued, verifier };
}

/** The whole flow: register, authorize, exchange. */
export async function connect(s: SeededSite, options: { personId?: string; scopes?: string[] } = {}): Promise<TokenAnswer & { client_id: string; connection_id: string }> {
  const clientId = await newClient(s);
  const { code, verifier } = await authorize(s, clientId, options);
  const res = await oauthForm<TokenAnswer>(s.host, "token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
  if (res.status !== 200) throw new Error(`exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  const row = await env.DB.prepare("SELECT id FROM oauth_connections WHERE client_id = ?").bind(clientId).first<{ id: string }>();
  return { ...res.body, client_id: clientId, connection_id: row?.id ?? "" };
}
