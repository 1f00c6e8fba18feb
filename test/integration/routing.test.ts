import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { adminCall, signIn, emailOf } from "../helpers/admin-api";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { expectEnvelope, setup } from "../helpers/plugin-protocol";
import { pluginCall } from "../helpers/plugins";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/** Percent-encodings that do not decode: a bad hex pair, a lone `%`, a truncated UTF-8 sequence, an overlong one. */
const MALFORMED = ["%ZZ", "abc%", "%E0%A4%A", "%C0%AF", "%FF"];

describe("routing: malformed percent-encoding (issue #9 item 9)", () => {
  it("public API: answers the one public 404 for a malformed item or model segment", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const missing = await publicGet(s.host, "/v1/article/no-such-item");
    expect(missing.status).toBe(404);
    for (const bad of MALFORMED) {
      for (const path of [`/v1/article/${bad}`, `/v1/${bad}`, `/v1/${bad}/hello`]) {
        const res = await publicGet(s.host, path);
        expect(res.status, path).toBe(404);
        expect(res.body, path).toEqual(missing.body);
      }
    }
    // A well-formed escape still decodes to the slug it names.
    expect((await publicGet(s.host, "/v1/article/h%65llo")).status).toBe(200);
  });

  it("management API: 401 without a valid credential, then 400 invalid_request", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const bad of MALFORMED) {
      for (const path of [`/entries/${bad}`, `/entries/${bad}/versions`, `/models/${bad}`]) {
        const anonymous = await manage<{ error: { code: string } }>(null, "GET", path);
        expect(anonymous.status, path).toBe(401);
        expect(anonymous.body.error.code).toBe("unauthorized");
        const wrong = await manage<{ error: { code: string } }>(`dwm_${"A".repeat(43)}`, "GET", path);
        expect(wrong.status, path).toBe(401);
        const signed = await manage<{ error: { code: string } }>(token, "GET", path);
        expect(signed.status, path).toBe(400);
        expect(signed.body.error.code).toBe("invalid_request");
      }
    }
    // Writes too: the key and body checks never see the path.
    const write = await manage<{ error: { code: string } }>(token, "POST", "/entries/%ZZ/publish", { body: {} });
    expect(write.status).toBe(400);
    expect(write.body.error.code).toBe("invalid_request");
  });

  it("plugin protocol: invalid_request with retry false, after the token check", async () => {
    const { plugin } = await setup();
    for (const bad of MALFORMED) {
      const read = await pluginCall(plugin.token, "GET", `/content/${bad}`);
      expectEnvelope(read, "invalid_request");
      expect(read.body.outcome.retry).toBe(false);
      const write = await pluginCall(plugin.token, "POST", `/content/${bad}/transitions`, { body: {} });
      expectEnvelope(write, "invalid_request");
    }
    expectEnvelope(await pluginCall(null, "GET", "/content/%ZZ"), "plugin_unauthorized");
  });

  it("admin host: 401 without a session, then 400 invalid_request", async () => {
    const s = await seedSite();
    expect((await adminCall(undefined, "DELETE", "/api/site-tokens/%ZZ")).status).toBe(401);
    const session = await signIn(await emailOf(s.adminId));
    const res = await adminCall<{ error: { code: string } }>(session, "DELETE", "/api/site-tokens/%ZZ", { siteId: s.site.id });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    // The table's closed path schemas hold too: an id longer than 100 characters is refused the same way.
    const long = await adminCall<{ error: { code: string } }>(session, "DELETE", `/api/site-tokens/${"x".repeat(101)}`, { siteId: s.site.id });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("invalid_request");
  });
});

describe("routing: one matcher for every surface (issue #9 item 17)", () => {
  it("management API: a known path with another method is 405 with Allow, after the credential", async () => {
    const s = await seedSite();
    const token = await credential(s);
    expect((await manage(null, "DELETE", "/site")).status).toBe(401);
    const res = await manage<{ error: { code: string; allow: string[] } }>(token, "DELETE", "/site");
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    const unknown = await manage<{ error: { code: string } }>(token, "GET", "/no-such-thing");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    // Paths match exactly: no trailing slash, no empty segment.
    expect((await manage(token, "GET", "/site/")).status).toBe(404);
    expect((await manage(token, "GET", "/entries//versions")).status).toBe(404);
  });

  it("management API: a literal segment wins over a parameter, and escapes in ids are decoded", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const proposals = await manage<{ data: unknown[] }>(token, "GET", "/models/proposals");
    expect(proposals.status).toBe(200);
    expect(Array.isArray(proposals.body.data)).toBe(true);
    const { article } = await blogModels(s.ctx());
    const encoded = article.id.replace(/_/g, "%5F");
    expect(encoded).not.toBe(article.id);
    const model = await manage<{ id: string }>(token, "GET", `/models/${encoded}`);
    expect(model.status).toBe(200);
  });

  it("admin host: 405 with Allow for a known path, 404 for an unknown one, both before the session", async () => {
    const wrong = await adminCall<{ error: { code: string } }>(undefined, "PATCH", "/api/session");
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe("method_not_allowed");
    expect(wrong.headers.get("allow")).toBe("DELETE, GET, HEAD, POST");
    expect((await adminCall(undefined, "GET", "/api/nothing")).status).toBe(404);
    expect((await adminCall(undefined, "GET", "/api/session/")).status).toBe(404);
  });

  it("admin host: path parameters arrive percent-decoded", async () => {
    const s = await seedSite();
    const session = await signIn(await emailOf(s.adminId));
    const { article } = await blogModels(s.ctx());
    const created = await adminCall<{ id: string }>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "t", model_ids: [article.id] } });
    expect(created.status).toBe(201);
    const revoked = await adminCall<{ id: string; revoked_at: string | null }>(session, "DELETE", `/api/site-tokens/${created.body.id.replace(/_/g, "%5F")}`, { siteId: s.site.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
  });

  it("public API: HEAD answers like GET; other methods and trailing slashes are the one 404", async () => {
    const s = await seedSite();
    const missing = await publicGet(s.host, "/v1/nothing-here");
    const head = await workerFetch(`http://${s.host}/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await workerFetch(`http://${s.host}/health`, { method });
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual(missing.body);
    }
    expect((await publicGet(s.host, "/health/")).body).toEqual(missing.body);
  });

  it("plugin protocol: an unknown route or method is invalid_request, never retryable", async () => {
    const { plugin } = await setup();
    expectEnvelope(await pluginCall(plugin.token, "DELETE", "/context"), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/nothing"), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context/"), "invalid_request");
  });
});
