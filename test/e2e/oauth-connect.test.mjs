/**
 * End to end against `wrangler dev` with real clients (issue #11 items 3 and 7): oauth4webapi (a
 * certified OAuth client) discovers the service on the demo site's host, registers, and builds a
 * PKCE S256 authorization request; headless Chromium opens it, and the /connect page is driven BY
 * ROLE and accessible name — sign in, keep or clear scopes, Connect or Cancel. The callback lands
 * on a tiny HTTP server of this test; oauth4webapi validates the response (state, iss) and
 * exchanges the code; the access token reads the management API and lists MCP tools; refresh
 * rotates; replaying a replaced refresh token revokes the connection; the revocation endpoint
 * revokes another. Screenshots of each state go to test/artifacts/ (git-ignored).
 * Run: node --test test/e2e/oauth-connect.test.mjs
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import chromium from "@sparticuz/chromium";
import * as oauth from "oauth4webapi";
import { chromium as playwright } from "playwright-core";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8796;
const ISSUER = new URL(`http://demo.localhost:${PORT}`);
const ARTIFACTS = new URL("../artifacts/oauth-connect/", import.meta.url);

let server;
let browser;
let callback;

/**
 * oauth4webapi's fetch: Node does not resolve `*.localhost` (Chromium does), so every request goes
 * to 127.0.0.1 on the dev server's port with the URL's host as the Host header.
 */
async function loopbackFetch(url, init = {}) {
  const target = new URL(url);
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  const body = init.body === undefined || init.body === null ? undefined : String(init.body);
  const answer = await request(PORT, { method: init.method ?? "GET", host: target.host, path: `${target.pathname}${target.search}`, headers, body });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : String(value));
  const empty = answer.status === 204 || answer.status === 304 || answer.text.length === 0;
  return new Response(empty ? null : answer.text, { status: answer.status, headers: responseHeaders });
}

/** Options every oauth4webapi call takes here: plain http locally, and the loopback fetch. */
const OPTIONS = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: loopbackFetch };

/** A call on the demo host with a bearer token. */
const withToken = (token, method, path, body, headers = {}) =>
  request(PORT, { method, host: `demo.localhost:${PORT}`, path, body, headers: { authorization: `Bearer ${token}`, ...headers } });

const siteStatus = async (token) => (await withToken(token, "GET", "/api/manage/v1/site")).status;

async function toolNames(token) {
  const res = await withToken(token, "POST", "/api/manage/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" });
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text).result.tools.map((tool) => tool.name);
}

/** The test's redirect URI: records each callback and answers a small page. */
function startCallbackServer() {
  const waiting = [];
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${srv.address().port}`);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>Callback</title><h1>Callback received</h1><p>${url.searchParams.has("code") ? "code" : url.searchParams.get("error")}</p>`);
    waiting.shift()?.(url);
  });
  return new Promise((resolve) => {
    srv.listen(0, "127.0.0.1", () =>
      resolve({
        redirectUri: `http://127.0.0.1:${srv.address().port}/callback`,
        /** The next callback's URL. */
        next: () => new Promise((r) => waiting.push(r)),
        close: () => srv.close(),
      }),
    );
  });
}

async function shot(tab, name) {
  // `npm test` saves no pictures (DRIFTWOOD_E2E_SCREENSHOTS=0, test/e2e/admin-ui/harness.mjs).
  if (process.env.DRIFTWOOD_E2E_SCREENSHOTS === "0") return;
  await tab.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
}

let as;
let client;

/** An authorization request for `scope`: the URL to open, its state and verifier. */
async function authorizationRequest(scope) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", callback.redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("scope", scope);
  url.searchParams.set("resource", `${ISSUER.origin}/api/manage/mcp`);
  return { url, state, verifier };
}

async function exchange(callbackUrl, state, verifier) {
  const params = oauth.validateAuthResponse(as, client, callbackUrl, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback.redirectUri, verifier, OPTIONS);
  return oauth.processAuthorizationCodeResponse(as, client, res);
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startDevServer({ port: PORT });
  callback = await startCallbackServer();
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: ["--no-sandbox", "--no-zygote"], headless: true });
  as = await oauth.processDiscoveryResponse(ISSUER, await oauth.discoveryRequest(ISSUER, { algorithm: "oauth2", ...OPTIONS }));
  const registered = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [callback.redirectUri], client_name: "E2E agent <b>", token_endpoint_auth_method: "none" }, OPTIONS);
  client = await oauth.processDynamicClientRegistrationResponse(registered);
});

after(async () => {
  await browser?.close();
  callback?.close();
  server?.stop();
});

describe("OAuth app connection through the /connect page with real clients (issue #11 items 3, 7)", () => {
  let context;
  let tab;

  before(async () => {
    context = await browser.newContext();
    tab = await context.newPage();
  });

  after(async () => {
    await context?.close();
  });

  it("discovers the issuer on the site host and registers a public client", () => {
    assert.equal(as.issuer, ISSUER.origin);
    assert.equal(as.authorization_endpoint, `${ISSUER.origin}/connect`);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.match(client.client_id, /^ocl_/);
  });

  it("shows an unknown app as an error on the page, without redirecting", async () => {
    const { url } = await authorizationRequest("content:read");
    url.searchParams.set("client_id", "ocl_unknownunknownunknow");
    const answer = await tab.goto(url.toString());
    assert.equal(answer?.status(), 400);
    assert.match(new URL(tab.url()).host, /^admin\.localhost:/);
    await assert.doesNotReject(tab.getByRole("alert").filter({ hasText: "not registered" }).waitFor());
    assert.equal(await tab.getByRole("heading", { name: "This app cannot connect" }).count(), 1);
    await shot(tab, "1-error-unknown-app");
  });

  let first;

  it("signs in, keeps all but one scope, connects; the callback has code, state and iss, and the code exchanges", async () => {
    const { url, state, verifier } = await authorizationRequest("content:read content:write lifecycle:publish");
    await tab.goto(url.toString());
    assert.match(new URL(tab.url()).host, /^admin\.localhost:/, "the site host's /connect hops to the admin host");
    await tab.getByLabel("Email").waitFor();
    await shot(tab, "2-sign-in");
    await tab.getByLabel("Email").fill(server.info.admin.email);
    await tab.getByLabel("Password").fill(server.info.admin.password);
    await tab.getByRole("button", { name: "Sign in" }).click();

    await tab.getByRole("button", { name: "Connect" }).waitFor();
    assert.ok(await tab.getByText("E2E agent <b>").first().isVisible(), "the app's name is shown as text");
    const sites = tab.getByRole("group", { name: "Site" }).getByRole("radio");
    assert.equal(await sites.count(), 1, "on the demo host only the demo site is offered");
    assert.equal(await sites.first().isChecked(), true);
    const read = tab.getByRole("checkbox", { name: "content:read" });
    assert.equal(await read.isChecked(), true);
    assert.equal(await read.isDisabled(), true);
    for (const scope of ["content:write", "lifecycle:publish"]) assert.equal(await tab.getByRole("checkbox", { name: scope }).isChecked(), true);
    await tab.getByRole("checkbox", { name: "lifecycle:publish" }).uncheck();
    await shot(tab, "3-consent");

    const landed = callback.next();
    await tab.getByRole("button", { name: "Connect" }).click();
    const callbackUrl = await landed;
    await tab.waitForURL((u) => u.host.startsWith("127.0.0.1"));
    await shot(tab, "4-callback-code");
    assert.equal(callbackUrl.searchParams.get("state"), state);
    assert.equal(callbackUrl.searchParams.get("iss"), ISSUER.origin);
    assert.ok(callbackUrl.searchParams.get("code"));

    first = await exchange(callbackUrl, state, verifier);
    assert.match(first.access_token, /^dwo_/);
    assert.match(first.refresh_token, /^dwr_/);
    assert.equal(first.token_type.toLowerCase(), "bearer");
    assert.equal(first.scope, "content:read content:write");
  });

  it("the access token reads the management API; MCP lists write tools of the kept scopes only", async () => {
    const site = await withToken(first.access_token, "GET", "/api/manage/v1/site");
    assert.equal(site.status, 200, site.text);
    const names = await toolNames(first.access_token);
    assert.ok(names.includes("get_entry"), "read tools are listed");
    assert.ok(names.includes("create_entry"), "content:write tools are listed");
    assert.ok(!names.includes("publish_entry"), "the cleared lifecycle:publish leaves publish_entry out");
  });

  it("refresh rotates; replaying the replaced refresh token fails and revokes the connection", async () => {
    const rotated = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token, OPTIONS));
    assert.notEqual(rotated.refresh_token, first.refresh_token);
    assert.notEqual(rotated.access_token, first.access_token);
    assert.equal(await siteStatus(rotated.access_token), 200);

    const replay = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token, OPTIONS);
    await assert.rejects(oauth.processRefreshTokenResponse(as, client, replay), (error) => error instanceof oauth.ResponseBodyError && error.error === "invalid_grant");
    assert.equal(await siteStatus(rotated.access_token), 401, "the replay revoked the connection");
    assert.equal(await siteStatus(first.access_token), 401);
    const after = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token, OPTIONS);
    await assert.rejects(oauth.processRefreshTokenResponse(as, client, after), (error) => error instanceof oauth.ResponseBodyError && error.error === "invalid_grant");
  });

  it("already signed in: straight to consent; the revocation endpoint ends the connection", async () => {
    const { url, state, verifier } = await authorizationRequest("content:read content:write");
    await tab.goto(url.toString());
    await tab.getByRole("button", { name: "Connect" }).waitFor();
    assert.equal(await tab.getByLabel("Password").count(), 0);
    const landed = callback.next();
    await tab.getByRole("button", { name: "Connect" }).click();
    const tokens = await exchange(await landed, state, verifier);
    assert.equal(tokens.scope, "content:read content:write");
    assert.equal(await siteStatus(tokens.access_token), 200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token, OPTIONS));
    assert.equal(await siteStatus(tokens.access_token), 401);
  });

  it("Cancel sends access_denied with state and iss to the redirect URI", async () => {
    const { url, state } = await authorizationRequest("content:read content:write");
    await tab.goto(url.toString());
    await tab.getByRole("button", { name: "Cancel" }).waitFor();
    const landed = callback.next();
    await tab.getByRole("button", { name: "Cancel" }).click();
    const callbackUrl = await landed;
    await tab.waitForURL((u) => u.host.startsWith("127.0.0.1"));
    await shot(tab, "5-callback-cancel");
    assert.equal(callbackUrl.searchParams.get("error"), "access_denied");
    assert.equal(callbackUrl.searchParams.get("state"), state);
    assert.equal(callbackUrl.searchParams.get("iss"), ISSUER.origin);
    assert.equal(callbackUrl.searchParams.get("code"), null);
    assert.throws(() => oauth.validateAuthResponse(as, client, callbackUrl, state), (error) => error instanceof oauth.AuthorizationResponseError && error.error === "access_denied");
  });

  it("an authorization response with another iss is refused by the client (RFC 9207)", () => {
    const forged = new URL(callback.redirectUri);
    forged.searchParams.set("code", "x");
    forged.searchParams.set("state", "s");
    forged.searchParams.set("iss", "http://evil.localhost");
    assert.throws(() => oauth.validateAuthResponse(as, client, forged, "s"));
  });
});
