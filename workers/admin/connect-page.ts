import { ALWAYS_INCLUDED_SCOPE, normaliseScopes, type Scope } from "../../schema/scopes";
import { personSites, type PersonSite } from "../../shared/auth/person-authority";
import { csrfMatches, csrfTokenFor, findSession, type Session } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import {
  authorizationErrorRedirect,
  checkAuthorizationClient,
  displayClientName,
  issueAuthorizationCode,
  issuerBelongsToSite,
  OAuthError,
  parseScopeParameter,
  type OAuthClient,
} from "../../shared/services/oauth";
import { readCappedText } from "../http/json-body";
import { methodNotAllowed } from "../http/route-table";
import { requestOrigin } from "../oauth/origin";
import { consentPage, errorPage, signInPage, type PageRequest } from "./connect-page-html";
import { sessionCookie, sessionSecretOf } from "./cookies";
import { startPersonSession } from "./session";

/**
 * The `/connect` consent page on the admin host (docs/oauth.md, "The /connect page"): the OAuth
 * authorization endpoint a person sees. Server-rendered HTML with plain forms and no script; every
 * answer carries a strict CSP (no script at all, styles by nonce), `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
 *
 * Order: the client and its redirect URI (an error on the page, never a redirect) → the issuer (an
 * error on the page: an edited `issuer` must never be sent back as `iss`) → the rest of the request
 * (errors redirected to the redirect URI with `error`, `state`, `iss`) → the session (a sign-in
 * form) → consent. POSTs first need an `Origin` equal to the admin origin, and Connect / Cancel the
 * session's CSRF token in a hidden field.
 */

/** Largest form body the page reads (sign-in or consent: a few hundred bytes in practice). */
export const CONNECT_FORM_MAX_BYTES = 16 * 1024;

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** Parameters of the authorization request that may appear at most once (RFC 6749 §3.1). */
const SINGLE_PARAMETERS = ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "site", "issuer", "resource"];

/** A checked authorization request, ready for the sign-in or consent view. */
interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  /** What the client discovered; returned as `iss`. */
  issuer: string;
  /** The site the issuer is the host of (only that site can be chosen), or null on the admin host. */
  issuerSite: string | null;
  /** The site the site host's hop named (preselected). */
  siteHint: string | null;
  requested: Scope[];
  codeChallenge: string;
  /** `/connect` with the request's query: where the forms post. */
  selfPath: string;
}

type Checked = { kind: "ok"; request: AuthorizationRequest } | { kind: "page"; response: Response } | { kind: "redirect"; location: string };

/** A page-level refusal: shown, never redirected. */
class PageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function pageRequest(req: AuthorizationRequest): PageRequest {
  return { appName: req.client.client_name === null ? null : displayClientName(req.client.client_name), selfPath: req.selfPath, redirectUri: req.redirectUri, requested: req.requested, onIssuerSite: req.issuerSite !== null };
}

function errorView(error: PageError): Response {
  return errorPage(error.status, error.code, error.detail);
}

function signInView(req: AuthorizationRequest, status: number, message?: string, extra: Record<string, string> = {}): Response {
  return signInPage(pageRequest(req), status, message, extra);
}

async function consentView(req: AuthorizationRequest, session: Session, secret: string, sites: PersonSite[], status: number, message?: string): Promise<Response> {
  const preselect = req.siteHint && sites.some((s) => s.id === req.siteHint) ? req.siteHint : sites.length === 1 ? sites[0]?.id : null;
  return consentPage(pageRequest(req), { email: session.person.email, csrfToken: await csrfTokenFor(secret), sites, preselect }, status, message);
}

// ---------------------------------------------------------------------------------------------
// The request

function redirect(location: string, status: 302 | 303): Response {
  return new Response(null, { status, headers: { location, "cache-control": "no-store", pragma: "no-cache", "referrer-policy": "no-referrer" } });
}

/** The only value of a query parameter; a repeated one is null with `repeated`. */
function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  return values.length === 1 ? (values[0] ?? null) : null;
}

/** Checks the authorization request in the order the page answers (see the file comment). */
async function checkRequest(request: Request, env: Env): Promise<Checked> {
  const url = new URL(request.url);
  const query = url.searchParams;
  const clientId = single(query, "client_id");
  const redirectUri = single(query, "redirect_uri");
  try {
    if (!clientId || !redirectUri) throw new PageError(400, "invalid_request", "The request must name the app (client_id) and its redirect_uri, each once.");
    let client: OAuthClient;
    try {
      client = await checkAuthorizationClient(env.DB, clientId, redirectUri);
    } catch (thrown) {
      if (!(thrown instanceof OAuthError)) throw thrown;
      throw new PageError(400, thrown.code, thrown.code === "invalid_client" ? "This app is not registered here." : "This redirect address is not registered for this app.");
    }
    const own = requestOrigin(request);
    if (own === null) throw new AppError("not_found", "Unknown host.");
    const issuerParam = query.getAll("issuer");
    const siteParam = query.getAll("site");
    let issuer = own;
    let issuerSite: string | null = null;
    if (issuerParam.length > 1 || siteParam.length > 1) throw new PageError(400, "invalid_request", "The request repeats the issuer or site parameter.");
    if (issuerParam[0] !== undefined && issuerParam[0] !== own) {
      const site = siteParam[0];
      // The whole origin is compared: the admin origin's scheme and port, one of the site's hosts.
      const seenOn = new URL(own);
      if (!site || !(await issuerBelongsToSite(env.DB, site, issuerParam[0], seenOn))) throw new PageError(400, "invalid_request", "The issuer of this request is not one of this service's sites.");
      issuer = issuerParam[0];
      issuerSite = site;
    }
    const state = query.getAll("state")[0] ?? null;
    const refuse = (error: string, description: string): Checked => ({ kind: "redirect", location: authorizationErrorRedirect(redirectUri, error, issuer, state, description) });
    const repeated = SINGLE_PARAMETERS.find((name) => query.getAll(name).length > 1);
    if (repeated) return refuse("invalid_request", `The parameter ${repeated} is repeated.`);
    const responseType = query.get("response_type");
    if (!responseType) return refuse("invalid_request", "response_type is missing.");
    if (responseType !== "code") return refuse("unsupported_response_type", "Only response_type=code is supported.");
    const codeChallenge = query.get("code_challenge");
    if (!codeChallenge) return refuse("invalid_request", "code_challenge is missing (PKCE is required).");
    if (query.get("code_challenge_method") !== "S256") return refuse("invalid_request", "code_challenge_method must be S256.");
    if (!S256_CHALLENGE.test(codeChallenge)) return refuse("invalid_request", "code_challenge must be the base64url S256 challenge (43 characters).");
    let requested: Scope[];
    try {
      requested = parseScopeParameter(query.get("scope"));
    } catch (thrown) {
      if (thrown instanceof OAuthError) return refuse(thrown.code, thrown.description);
      throw thrown;
    }
    const resource = query.get("resource");
    if (resource !== null && !isResource(resource)) return refuse("invalid_target", "resource must be an absolute http(s) URL without a fragment.");
    return {
      kind: "ok",
      request: { client, redirectUri, state, issuer, issuerSite, siteHint: siteParam[0] ?? null, requested, codeChallenge, selfPath: `${url.pathname}${url.search}` },
    };
  } catch (thrown) {
    if (thrown instanceof PageError) return { kind: "page", response: errorView(thrown) };
    throw thrown;
  }
}

/** RFC 8707 `resource`: an absolute URI without fragment; decision: http(s) only, otherwise not checked (a token is for the whole management API). */
function isResource(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !value.includes("#");
  } catch {
    return false;
  }
}

async function currentSession(request: Request, env: Env): Promise<{ session: Session; secret: string } | null> {
  const secret = sessionSecretOf(request);
  if (!secret) return null;
  const session = await findSession(createDb(env.DB), secret, systemClock.now());
  return session ? { session, secret } : null;
}

/** The sites the person may connect to: active memberships, and only the issuer's site when a site host sent them. */
async function connectableSites(env: Env, personId: string, req: AuthorizationRequest): Promise<PersonSite[]> {
  const sites = await personSites(createDb(env.DB), personId);
  return req.issuerSite ? sites.filter((site) => site.id === req.issuerSite) : sites;
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new PageError(400, "invalid_request", "The form must be sent as application/x-www-form-urlencoded.");
  const text = await readCappedText(
    request,
    CONNECT_FORM_MAX_BYTES,
    (max) => new AppError("payload_too_large", `The form is larger than ${max} bytes.`, { max }),
    () => new PageError(400, "invalid_request", "The form is not valid UTF-8."),
  );
  return new URLSearchParams(text);
}

/**
 * Whether a POST comes from a page of this origin (login CSRF and forced consent defence, before
 * the session's CSRF token). Browsers send `Origin` on every POST; it must be this origin. The
 * page's own `Referrer-Policy: no-referrer` makes browsers serialise the Origin of its form posts
 * as `null` (Fetch, "append a request Origin header"), so `Origin: null` is accepted only with
 * `Sec-Fetch-Site: same-origin`, which a browser sets and no page can forge; a sandboxed or
 * cross-site `null` carries `cross-site` and is refused. No Origin at all is refused.
 */
function postedFromThisOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  if (origin === requestOrigin(request)) return true;
  return origin === "null" && request.headers.get("sec-fetch-site") === "same-origin";
}

// ---------------------------------------------------------------------------------------------
// Answers

/** GET, HEAD and POST /connect on the admin host; any other method 405. */
export async function connectPage(request: Request, env: Env): Promise<Response> {
  const method = request.method;
  if (method !== "GET" && method !== "HEAD" && method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  try {
    if (method === "POST") {
      if (!postedFromThisOrigin(request)) throw new PageError(403, "csrf_failed", "This form was not sent from this page. Open the app's connect link again.");
    }
    const checked = await checkRequest(request, env);
    if (checked.kind === "page") return checked.response;
    if (checked.kind === "redirect") return redirect(checked.location, method === "POST" ? 303 : 302);
    const req = checked.request;
    const current = await currentSession(request, env);
    if (method !== "POST") {
      if (!current) return signInView(req, 200);
      return await consentView(req, current.session, current.secret, await connectableSites(env, current.session.person.id, req), 200);
    }
    return await answerPost(request, env, req, current);
  } catch (thrown) {
    if (thrown instanceof PageError) return errorView(thrown);
    if (thrown instanceof AppError && thrown.code === "payload_too_large") return errorView(new PageError(413, "payload_too_large", thrown.message));
    throw thrown;
  }
}

async function answerPost(request: Request, env: Env, req: AuthorizationRequest, current: { session: Session; secret: string } | null): Promise<Response> {
  const form = await readForm(request);
  const action = form.get("action");
  if (action === "sign_in") {
    const email = form.get("email") ?? "";
    const password = form.get("password") ?? "";
    if (email.length === 0 || email.length > 320 || password.length === 0 || password.length > 1024) return signInView(req, 400, "Enter your email and password.");
    try {
      const { started } = await startPersonSession(request, env, email, password);
      return new Response(null, {
        status: 303,
        headers: { location: req.selfPath, "set-cookie": sessionCookie(started.secret, env.ADMIN_HOST), "cache-control": "no-store", "referrer-policy": "no-referrer" },
      });
    } catch (thrown) {
      if (!(thrown instanceof AppError)) throw thrown;
      if (thrown.code === "rate_limited") {
        const retry = Number(thrown.details?.retry_after ?? 60);
        return signInView(req, 429, `Too many failed sign-ins. Try again in ${Math.ceil(retry / 60)} minute(s).`, { "retry-after": String(retry) });
      }
      if (thrown.code === "unauthorized") return signInView(req, 401, "Wrong email or password.");
      throw thrown;
    }
  }
  if (action !== "connect" && action !== "cancel") throw new PageError(400, "invalid_request", "Unknown action.");
  if (!current) return signInView(req, 401, "Your session has ended. Sign in again.");
  if (!(await csrfMatches(current.session, form.get("csrf_token")))) throw new PageError(403, "csrf_failed", "This form is out of date or was not sent from this page. Open the app's connect link again.");
  if (action === "cancel") return redirect(authorizationErrorRedirect(req.redirectUri, "access_denied", req.issuer, req.state, "The person declined to connect the app."), 303);
  const sites = await connectableSites(env, current.session.person.id, req);
  const siteId = form.getAll("site");
  const site = siteId.length === 1 ? sites.find((s) => s.id === siteId[0]) : undefined;
  if (!site) return consentView(req, current.session, current.secret, sites, 403, "Choose one of the sites listed: you can connect an app only to a site you belong to.");
  const kept = form.getAll("scope");
  const requested = new Set<string>(req.requested);
  const notAsked = kept.filter((scope) => !requested.has(scope));
  if (notAsked.length > 0) throw new PageError(400, "invalid_scope", `The app did not ask for: ${notAsked.join(", ")}.`);
  const scopes = normaliseScopes([ALWAYS_INCLUDED_SCOPE, ...(kept as Scope[])]);
  try {
    const issued = await issueAuthorizationCode(
      env.DB,
      {
        client_id: req.client.id,
        redirect_uri: req.redirectUri,
        person_id: current.session.person.id,
        site_id: site.id,
        scopes,
        code_challenge: req.codeChallenge,
        code_challenge_method: "S256",
        state: req.state,
        issuer: req.issuer,
      },
      systemClock,
    );
    return redirect(issued.redirect_url, 303);
  } catch (thrown) {
    if (thrown instanceof OAuthError) return redirect(authorizationErrorRedirect(req.redirectUri, thrown.code, req.issuer, req.state, thrown.description), 303);
    throw thrown;
  }
}
