import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { draft, setup, type Exchanged } from "../helpers/plugin-protocol";
import { pluginCall } from "../helpers/plugins";

/**
 * Findings of the black-box probe of the management API under a session (/api/v1,
 * docs/admin-ui.md "One API"): each case failed before its fix.
 */

describe("plugin launches through /api/v1 (the session)", () => {
  it("launches as the person, so the plugin's delegation works and names no credential", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const session = await signIn(await emailOf(s.adminId));
    const path = `/api/v1/plugins/${plugin.id}/content-actions/review/entries/${post.instance_id}/launch`;
    // A launch is a write: the session's CSRF token is needed.
    const noCsrf = await adminCall<{ error: { code: string } }>(session, "POST", path, { siteId: s.site.id, csrf: null, body: {} });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    const launched = await adminCall<{ url: string }>(session, "POST", path, { siteId: s.site.id, body: {} });
    expect(launched.status).toBe(201);
    const code = new URL(launched.body.url).searchParams.get("code");
    // Before the fix the delegation named "person:…" as its credential: the exchange was refused as revoked.
    const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code } });
    expect(exchanged.status).toBe(200);
    const delegation = exchanged.body.data?.delegation_id ?? "";
    expect(exchanged.body.data?.person.id).toBe(s.adminId);
    const row = await env.DB.prepare("SELECT credential_id FROM plugin_delegations WHERE id = ?").bind(delegation).first<{ credential_id: string | null }>();
    expect(row?.credential_id).toBeNull();
    const read = await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expect(read.status).toBe(200);
    // The delegation still stands for the person: a deactivated membership ends it.
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(s.adminId, s.site.id).run();
    const after = await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expect(after.status).toBe(403);
    expect(after.body.outcome.code).toBe("requester_unauthorized");
  });
});
