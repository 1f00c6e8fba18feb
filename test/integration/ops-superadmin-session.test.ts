import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import type { Env } from "../../shared/env";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { provisionPerson } from "../../shared/services/sites/provision";
import { ADMIN, adminCall, emailOf, signIn, type AdminSession } from "../helpers/admin-api";
import { fixturePasswordHash, seedSite } from "../helpers/fixtures";
import { opsKey, uniqueSlug } from "../helpers/ops-api";

/**
 * The operators' routes under a superadmin's admin session (issue #23 item 5,
 * docs/operations-api.md "Who may call"): the session stands for the operators' token, writes need
 * its CSRF token, anyone else's session is refused as if it carried no token, and the session
 * answer tells the admin whether to show the Sites screens.
 */
async function superadmin(): Promise<AdminSession> {
  const email = `${uniqueSlug("operator")}@example.test`;
  const person = await provisionPerson(createDb(env.DB), { email, name: "Operator", password: "correct horse", is_superadmin: true }, new Date().toISOString(), fixturePasswordHash("correct horse"));
  await commit(env.DB, person.statements);
  return signIn(email);
}

type Err = { error: { code: string } };

describe("the operators' routes under a superadmin session", () => {
  it("lets a superadmin list, create and suspend sites with the session and its CSRF token", async () => {
    const op = await superadmin();
    expect(op.body.person.superadmin).toBe(true);
    expect(op.body.sites).toEqual([]);

    const listed = await adminCall<{ data: { slug: string }[] }>(op, "GET", "/api/ops/sites");
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body.data)).toBe(true);

    const slug = uniqueSlug("ui-made");
    const body = { slug, name: "Made in the admin", hosts: [`${slug}.example.test`], languages: ["en"], default_lang: "en" };
    const noCsrf = await adminCall<Err>(op, "POST", "/api/ops/sites", { body, csrf: null, headers: { "idempotency-key": opsKey() } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sites WHERE slug = ?").bind(slug).first("n")).toBe(0);

    const created = await adminCall<{ id: string; slug: string; suspended: boolean }>(op, "POST", "/api/ops/sites", { body, headers: { "idempotency-key": opsKey() } });
    expect(created.status).toBe(201);
    expect(created.body.slug).toBe(slug);

    const suspended = await adminCall<{ suspended: boolean }>(op, "POST", `/api/ops/sites/${slug}/suspend`, { body: {}, headers: { "idempotency-key": opsKey() } });
    expect(suspended.status).toBe(200);
    expect(suspended.body.suspended).toBe(true);
  });

  it("refuses a session of a person who is not superadmin, as a request without the token", async () => {
    const site = await seedSite();
    const admin = await signIn(await emailOf(site.adminId));
    expect(admin.body.person.superadmin).toBe(false);
    const asked = await adminCall<Err>(admin, "GET", "/api/ops/sites");
    expect(asked.status).toBe(401);
    expect(asked.body.error.code).toBe("unauthorized");
    const write = await adminCall<Err>(admin, "POST", `/api/ops/sites/${site.site.id}/suspend`, { body: {}, headers: { "idempotency-key": opsKey() } });
    expect(write.status).toBe(401);
    expect(await env.DB.prepare("SELECT suspended_at FROM sites WHERE id = ?").bind(site.site.id).first("suspended_at")).toBeNull();
  });

  it("checks a bearer token when one is sent, even beside a superadmin's cookie", async () => {
    const op = await superadmin();
    const wrong = await adminCall<Err>(op, "GET", "/api/ops/sites", { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
  });

  it("serves a superadmin's session without an OPS_TOKEN secret, and nobody else", async () => {
    const op = await superadmin();
    const site = await seedSite();
    const admin = await signIn(await emailOf(site.adminId));
    const withoutSecret = { ...(env as unknown as Env), OPS_TOKEN: undefined };
    const through = async (session: AdminSession) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(`${ADMIN}/api/ops/sites/${site.site.id}`, { headers: { cookie: session.cookie } }) as Request<unknown, IncomingRequestCfProperties>, withoutSecret, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    expect((await through(op)).status).toBe(200);
    expect((await through(admin)).status).toBe(404);
  });
});
