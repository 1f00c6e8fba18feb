import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../shared/env";
import { createSiteToken } from "../../shared/services/credentials/site-tokens";
import * as lifecycle from "../../shared/services/lifecycle";
import worker from "../../workers/index";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { workerFetch } from "../helpers/worker";

/** CORS of the public API (issue #29 item 7; docs/cors.md), through the real router. */

type Err = { error: { code: string; issues?: { path: string; message: string }[] } };
interface CorsBody {
  cors: { origins: { origin: string; tokens: boolean }[] };
  revision: number;
  local_origins_honoured: boolean;
  replayed?: boolean;
}

const APP = "https://app.example.com";
const TOKENS = "https://reader.example.org:8443";
const STRANGER = "https://evil.example.net";

async function storedSettings(s: SeededSite): Promise<string> {
  return (await env.DB.prepare("SELECT settings FROM sites WHERE id = ?").bind(s.site.id).first<{ settings: string }>())?.settings ?? "";
}

/** A site with a published article, a private note model and CORS for APP (reads) and TOKENS (tokens). */
async function corsSite(origins: { origin: string; tokens?: boolean }[] = [{ origin: APP }, { origin: TOKENS, tokens: true }]) {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const entry = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Tide" } }));
  await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: entry.instance_id }));
  const note = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.note.id, fields: { title: "Secret" } }));
  await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: note.instance_id }));
  const token = await credential(s);
  const put = await manage<CorsBody>(token, "PUT", "/settings/cors", { body: { origins } });
  expect(put.status).toBe(200);
  const siteToken = (await createSiteToken(s.ctx(), { name: "reader", model_ids: [models.note.id] })).token;
  return { s, models, token, siteToken };
}

async function get(host: string, path: string, headers: Record<string, string>, method = "GET") {
  const response = await workerFetch(`http://${host}${path}`, { method, headers });
  await response.arrayBuffer();
  return response;
}

const corsHeaderNames = (h: Headers) => [...h.keys()].filter((k) => k.startsWith("access-control-"));

describe("CORS settings (management API)", () => {
  it("reads, replaces, replays, refuses a stale revision, and records an audit row", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const first = await manage<CorsBody>(token, "GET", "/settings/cors");
    expect(first.body).toEqual({ cors: { origins: [] }, revision: 0, local_origins_honoured: false });
    const key = newKey();
    const body = { origins: [{ origin: APP }, { origin: TOKENS, tokens: true }, { origin: "*" }], expected_revision: 0 };
    const put = await manage<CorsBody>(token, "PUT", "/settings/cors", { key, body });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ cors: { origins: [{ origin: APP, tokens: false }, { origin: TOKENS, tokens: true }, { origin: "*", tokens: false }] }, revision: 1, local_origins_honoured: false });
    const replay = await manage<CorsBody>(token, "PUT", "/settings/cors", { key, body });
    expect(replay.body).toEqual({ ...put.body, replayed: true });
    const stale = await manage<Err>(token, "PUT", "/settings/cors", { body: { origins: [], expected_revision: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("settings_changed");
    expect((await manage<CorsBody>(token, "GET", "/settings/cors")).body.revision).toBe(1);
    // The general settings keep their own shape and leave CORS alone.
    await manage(token, "PUT", "/settings", { body: { review: { required: true } } });
    expect((await manage<CorsBody>(token, "GET", "/settings/cors")).body.cors.origins).toHaveLength(3);
    const audit = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'site.cors_update'").bind(s.site.id).first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it("refuses malformed origins, * with tokens, localhost outside local development and a missing scope, writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const before = await storedSettings(s);
    const bad = await manage<Err>(token, "PUT", "/settings/cors", {
      body: {
        origins: [
          { origin: APP },
          { origin: "http://plain.example.com" },
          { origin: "https://x.example.com/path" },
          { origin: "https://y.example.com/" },
          { origin: "https://Upper.example.com" },
          { origin: "*", tokens: true },
          { origin: "http://localhost:*" },
          { origin: APP },
          { origin: "https://*.example.com" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.issues?.map((i) => i.path), JSON.stringify(bad.body)).toEqual([
      "origins[1].origin",
      "origins[2].origin",
      "origins[3].origin",
      "origins[4].origin",
      "origins[5].tokens",
      "origins[6].origin",
      "origins[7].origin",
      "origins[8].origin",
    ]);
    expect((await manage<Err>(token, "PUT", "/settings/cors", { body: { origins: [{ origin: APP, extra: 1 }] } })).status).toBe(400);
    expect((await manage<Err>(token, "PUT", "/settings/cors", { body: { origins: Array.from({ length: 33 }, (_, i) => ({ origin: `https://a${i}.example.com` })) } })).status).toBe(400);
    const readOnly = await credential(s, ["content:read"]);
    const denied = await manage<Err>(readOnly, "PUT", "/settings/cors", { body: { origins: [{ origin: APP }] } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_scope");
    expect(await storedSettings(s)).toBe(before);
  });
});

describe("CORS on the public API", () => {
  it("answers an allowed origin with its own origin and Vary: Origin, errors included; others get no CORS header", async () => {
    const { s } = await corsSite();
    const allowed = await get(s.host, "/v1/article", { origin: APP });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APP);
    expect(allowed.headers.get("vary")).toContain("Origin");
    expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    expect(allowed.headers.get("access-control-expose-headers")).toContain("x-request-id");

    const missing = await get(s.host, "/v1/article/nope", { origin: APP });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(APP);

    for (const origin of [STRANGER, "https://app.example.com.evil.net", "http://app.example.com", "null"]) {
      const refused = await get(s.host, "/v1/article", { origin });
      expect(refused.status, origin).toBe(200);
      expect(corsHeaderNames(refused.headers), origin).toEqual([]);
      expect(refused.headers.get("vary")).toContain("Origin");
    }
    const sameOrigin = await get(s.host, "/v1/article", {});
    expect(corsHeaderNames(sameOrigin.headers)).toEqual([]);
    expect(sameOrigin.headers.get("vary")).toContain("Origin");
  });

  it("lets only token origins send Authorization, never with *", async () => {
    const { s, siteToken } = await corsSite([{ origin: APP }, { origin: TOKENS, tokens: true }, { origin: "*" }]);
    const auth = { authorization: `Bearer ${siteToken}` };
    const withToken = await get(s.host, "/v1/note", { origin: TOKENS, ...auth });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("access-control-allow-origin")).toBe(TOKENS);
    expect(withToken.headers.get("cache-control")).toBe("private, no-store");
    for (const origin of [APP, STRANGER]) {
      const refused = await get(s.host, "/v1/note", { origin, ...auth });
      expect(corsHeaderNames(refused.headers), origin).toEqual([]);
    }
    // Reads without a token: an exact origin gets itself, any other the wildcard.
    expect((await get(s.host, "/v1/article", { origin: APP })).headers.get("access-control-allow-origin")).toBe(APP);
    expect((await get(s.host, "/v1/article", { origin: STRANGER })).headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a site allowing only * answers * without Vary, and never to a token request", async () => {
    const { s, siteToken } = await corsSite([{ origin: "*" }]);
    const read = await get(s.host, "/v1/article", { origin: STRANGER });
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
    expect(read.headers.get("vary")).toBeNull();
    const tokenRead = await get(s.host, "/v1/note", { origin: STRANGER, authorization: `Bearer ${siteToken}` });
    expect(corsHeaderNames(tokenRead.headers)).toEqual([]);
    const preflight = await get(s.host, "/v1/note", { origin: STRANGER, "access-control-request-method": "GET", "access-control-request-headers": "authorization" }, "OPTIONS");
    expect(preflight.status).toBe(403);
    expect(corsHeaderNames(preflight.headers)).toEqual([]);
  });

  it("answers preflights of public routes: methods, headers, Authorization only for token origins; refusals are plain", async () => {
    const { s } = await corsSite();
    const pre = (origin: string, headers: Record<string, string> = {}, path = "/v1/article") =>
      get(s.host, path, { origin, "access-control-request-method": "GET", ...headers }, "OPTIONS");

    const ok = await pre(APP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(APP);
    expect(ok.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    expect(ok.headers.get("access-control-max-age")).toBe("600");
    expect(ok.headers.get("vary")).toContain("Origin");

    const tokenPre = await pre(TOKENS, { "access-control-request-headers": "Authorization" }, "/v1/note/secret");
    expect(tokenPre.status).toBe(204);
    expect(tokenPre.headers.get("access-control-allow-origin")).toBe(TOKENS);
    expect(tokenPre.headers.get("access-control-allow-headers")).toBe("authorization");

    const refusals = [
      await pre(APP, { "access-control-request-headers": "authorization" }),
      await pre(APP, { "access-control-request-headers": "x-custom" }),
      await pre(STRANGER),
      await get(s.host, "/v1/article", { origin: APP, "access-control-request-method": "POST" }, "OPTIONS"),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(corsHeaderNames(refused.headers)).toEqual([]);
    }
    // Not a public route, or not a preflight: the public 404, without CORS headers.
    const noRoute = await pre(APP, {}, "/v1/article/a/b/c");
    expect(noRoute.status).toBe(404);
    expect(corsHeaderNames(noRoute.headers)).toEqual([]);
    const unknownHost = await get("no-such-site.test", "/v1/article", { origin: APP, "access-control-request-method": "GET" }, "OPTIONS");
    expect(unknownHost.status).toBe(404);
    expect(corsHeaderNames(unknownHost.headers)).toEqual([]);
    const plainOptions = await get(s.host, "/v1/article", { origin: APP }, "OPTIONS");
    expect(plainOptions.status).toBe(404);
  });

  it("decorates edge-cached answers per origin: one cached body, each origin its own headers", async () => {
    const { s } = await corsSite();
    const runEnv = { ...env, PUBLIC_CACHE_MAX_AGE: "60" } as Env;
    const read = async (origin: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(`http://${s.host}/v1/article?limit=7`, { headers: { origin } }), runEnv, ctx);
      await response.arrayBuffer();
      await waitOnExecutionContext(ctx);
      return response;
    };
    const first = await read(APP);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(first.headers.get("access-control-allow-origin")).toBe(APP);
    const cachedStranger = await read(STRANGER);
    expect(cachedStranger.headers.get("cache-control")).toBe("public, max-age=60");
    expect(corsHeaderNames(cachedStranger.headers)).toEqual([]);
    expect(cachedStranger.headers.get("vary")).toContain("Origin");
    const cachedApp = await read(APP);
    expect(cachedApp.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("honours http://localhost origins only in local development", async () => {
    const s = await seedSite();
    await blogModels(s.ctx());
    const token = await credential(s);
    const localEnv = { ...env, OUTBOUND_ALLOW_LOOPBACK: "true" } as Env;
    const call = async (url: string, init: RequestInit, runEnv: Env) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(url, init), runEnv, ctx);
      const text = await response.text();
      await waitOnExecutionContext(ctx);
      return { response, text };
    };
    const put = await call(
      "http://api.example.test/api/manage/v1/settings/cors",
      { method: "PUT", headers: { authorization: `Bearer ${token}`, "idempotency-key": newKey(), "content-type": "application/json" }, body: JSON.stringify({ origins: [{ origin: "http://localhost:*" }, { origin: "http://app.localhost:5173", tokens: true }] }) },
      localEnv,
    );
    expect(put.response.status).toBe(200);
    expect(JSON.parse(put.text)).toMatchObject({ local_origins_honoured: true });
    const local = await call(`http://${s.host}/v1/article`, { headers: { origin: "http://localhost:3000" } }, localEnv);
    expect(local.response.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    const named = await call(`http://${s.host}/v1/article`, { headers: { origin: "http://app.localhost:5173" } }, localEnv);
    expect(named.response.headers.get("access-control-allow-origin")).toBe("http://app.localhost:5173");
    const otherPort = await call(`http://${s.host}/v1/article`, { headers: { origin: "http://app.localhost:5174" } }, localEnv);
    expect(otherPort.response.headers.get("access-control-allow-origin")).toBeNull();
    const lookalike = await call(`http://${s.host}/v1/article`, { headers: { origin: "http://localhost:3000.evil.net" } }, localEnv);
    expect(lookalike.response.headers.get("access-control-allow-origin")).toBeNull();
    // The same stored settings on a deployment that is not local development: never honoured.
    const deployed = await get(s.host, "/v1/article", { origin: "http://localhost:3000" });
    expect(corsHeaderNames(deployed.headers)).toEqual([]);
  });
});
