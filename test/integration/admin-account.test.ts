import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, postSignIn, signIn, type ErrorBody, type SessionBody } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { uploadMedia, type MediaItemBody } from "../helpers/media-api";
import { pdf, png } from "../helpers/media-samples";
import { adminSession, customRole, member } from "../helpers/people-api";

/** Password reset links, own sessions (docs/people.md) and the media crop (docs/media.md, "Crop"). */

interface Created {
  person_id: string;
  email: string;
  expires_at: string;
  link: string;
}
interface SessionRow {
  id: string;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  current: boolean;
}

const tokenOf = (link: string) => link.split("#")[1] ?? "";

async function resetLink(session: Parameters<typeof adminCall>[0], siteId: string, personId: string) {
  return adminCall<Created & ErrorBody>(session, "POST", `/api/people/${personId}/password-reset`, { siteId });
}

describe("password reset links", () => {
  it("an administrator creates a one-time link; using it sets the password, ends every session and signs in; the link then dies", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const editor = await member(s, "editor");
    const created = await resetLink(admin, s.site.id, editor.id);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ person_id: editor.id, email: editor.email });
    expect(created.body.link).toMatch(/^http:\/\/admin\.localhost(:\d+)?\/reset-password#dwpw_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(created.body.expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const token = tokenOf(created.body.link);
    // Only the digest is stored.
    const stored = await env.DB.prepare("SELECT token_digest FROM password_resets WHERE person_id = ?").bind(editor.id).all<{ token_digest: string }>();
    expect(stored.results).toHaveLength(1);
    expect(JSON.stringify(stored.results)).not.toContain(token);

    const inspected = await adminCall<{ email: string; name: string }>(undefined, "POST", "/api/password-resets/inspect", { body: { token } });
    expect(inspected.status).toBe(200);
    expect(inspected.body).toMatchObject({ email: editor.email, name: "Member" });

    const short = await adminCall<ErrorBody & { error: { issues: { path: string }[] } }>(undefined, "POST", "/api/password-resets/complete", { body: { token, password: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.error.issues[0]?.path).toBe("password");

    const done = await adminCall<SessionBody>(undefined, "POST", "/api/password-resets/complete", { body: { token, password: "a brand new passphrase" } });
    expect(done.status).toBe(200);
    expect(done.body.person.id).toBe(editor.id);
    expect(done.headers.get("set-cookie")).toMatch(/^dw_session=dws_/);
    // The old session ended; the old password no longer works; the new one does.
    expect((await adminCall<ErrorBody>(editor.session, "GET", "/api/session")).status).toBe(401);
    expect((await postSignIn(editor.email, "pw")).status).toBe(401);
    expect((await postSignIn(editor.email, "a brand new passphrase")).status).toBe(200);
    // Used once: the same link is dead, for inspect and complete alike.
    const again = await adminCall<ErrorBody>(undefined, "POST", "/api/password-resets/complete", { body: { token, password: "another long passphrase" } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("password_reset_not_found");
    expect((await adminCall<ErrorBody>(undefined, "POST", "/api/password-resets/inspect", { body: { token } })).body.error.code).toBe("password_reset_not_found");
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE site_id = ? AND target_id = ? ORDER BY at").bind(s.site.id, editor.id).all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["password_reset.create", "password_reset.use"]);
  });

  it("a newer link voids the older; an expired, malformed or unknown link is one 404", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const editor = await member(s, "editor");
    const first = tokenOf((await resetLink(admin, s.site.id, editor.id)).body.link);
    const second = tokenOf((await resetLink(admin, s.site.id, editor.id)).body.link);
    const inspect = (token: string) => adminCall<ErrorBody>(undefined, "POST", "/api/password-resets/inspect", { body: { token } });
    expect((await inspect(first)).body.error.code).toBe("password_reset_not_found");
    expect((await inspect(second)).status).toBe(200);
    await env.DB.prepare("UPDATE password_resets SET expires_at = ? WHERE person_id = ?").bind(new Date(Date.now() - 1000).toISOString(), editor.id).run();
    expect((await inspect(second)).status).toBe(404);
    expect((await inspect("dwpw_nope")).status).toBe(404);
    expect((await inspect(`dwpw_${"A".repeat(43)}`)).status).toBe(404);
    const bad = await adminCall<ErrorBody>(undefined, "POST", "/api/password-resets/complete", { body: { token: second, password: "x".repeat(20), extra: 1 } });
    expect(bad.status).toBe(400);
  });

  it("needs role:manage and a member within the actor's role; refuses accounts reaching beyond the site; rate limited per person", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const editor = await member(s, "editor");
    expect((await resetLink(editor.session, s.site.id, s.adminId)).body.error.code).toBe("missing_permission");
    expect((await resetLink(admin, s.site.id, "per_nobody")).status).toBe(404);
    // A manager holding less than the seeded admin may not reset an administrator.
    const managerRole = await customRole(s, "manager", { models: { "*": ["read"] }, system: ["role:manage"] });
    const manager = await member(s, managerRole);
    const escalated = await resetLink(manager.session, s.site.id, s.adminId);
    expect(escalated.status).toBe(403);
    expect(escalated.body.error.code).toBe("escalation_refused");
    // A person of another site as well: refused (reason other_sites), nothing stored.
    const other = await seedSite();
    const both = await member(other, "viewer");
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) SELECT ?, person_id, (SELECT id FROM roles WHERE site_id = ? AND slug = 'viewer'), 1, created_at FROM memberships WHERE person_id = ?")
      .bind(s.site.id, s.site.id, both.id)
      .run();
    const beyond = await resetLink(admin, s.site.id, both.id);
    expect(beyond.status).toBe(409);
    expect(beyond.body).toMatchObject({ error: { code: "password_reset_refused", reason: "other_sites" } });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM password_resets WHERE person_id = ?").bind(both.id).first<{ n: number }>())?.n).toBe(0);
    // Five links an hour per person, then 429 with retry_after.
    for (let i = 0; i < 4; i++) expect((await resetLink(admin, s.site.id, editor.id)).status).toBe(201);
    expect((await resetLink(admin, s.site.id, editor.id)).status).toBe(201);
    const limited = await resetLink(admin, s.site.id, editor.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: "rate_limited" } });
    expect((limited.body as unknown as { error: { retry_after: number } }).error.retry_after).toBeGreaterThan(0);
  });
});

describe("own sessions", () => {
  it("lists the person's sessions (the current one marked, never a digest) and revokes one: its next request is 401", async () => {
    const s = await seedSite();
    const editor = await member(s, "editor");
    const second = await signIn(editor.email, "pw");
    const listed = await adminCall<{ data: SessionRow[] }>(editor.session, "GET", "/api/sessions");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data.filter((row) => row.current)).toHaveLength(1);
    expect(Object.keys(listed.body.data[0] ?? {}).sort()).toEqual(["created_at", "current", "expires_at", "id", "user_agent"]);
    const digests = await env.DB.prepare("SELECT id_digest FROM sessions WHERE person_id = ?").bind(editor.id).all<{ id_digest: string }>();
    for (const d of digests.results) expect(JSON.stringify(listed.body)).not.toContain(d.id_digest.slice(0, 24));
    const other = listed.body.data.find((row) => !row.current);
    if (!other) throw new Error("no second session");
    // Another person cannot revoke it (404, as for an unknown id); the CSRF token is needed.
    const stranger = await member(s, "viewer");
    expect((await adminCall<ErrorBody>(stranger.session, "DELETE", `/api/sessions/${other.id}`)).status).toBe(404);
    expect((await adminCall<ErrorBody>(editor.session, "DELETE", `/api/sessions/${other.id}`, { csrf: null })).body.error.code).toBe("csrf_failed");
    const revoked = await adminCall<{ id: string; revoked: true }>(editor.session, "DELETE", `/api/sessions/${other.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: other.id, revoked: true });
    expect((await adminCall(second, "GET", "/api/session")).status).toBe(401);
    expect((await adminCall(editor.session, "GET", "/api/session")).status).toBe(200);
    expect((await adminCall<ErrorBody>(editor.session, "DELETE", `/api/sessions/${other.id}`)).status).toBe(404);
    expect((await adminCall(undefined, "GET", "/api/sessions")).status).toBe(401);
  });
});

describe("media crop", () => {
  it("stores a crop on an image (fractions inside the picture), clears it with null; refuses outside, too small and non-images", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const up = await uploadMedia(token, { bytes: png(4, 3, `crop-${Date.now()}`), name: "c.png" });
    const image = up.body.media as MediaItemBody & { crop: unknown; revision: number };
    expect(image.crop).toBeNull();
    const crop = { x: 0.1, y: 0.2, width: 0.5, height: 0.75 };
    const put = await manage<{ media: { crop: unknown; revision: number } }>(token, "PUT", `/media/${image.id}`, { body: { expected_revision: 0, crop } });
    expect(put.status).toBe(200);
    expect(put.body.media).toMatchObject({ crop, revision: 1 });
    expect((await manage<{ media: { crop: unknown } }>(token, "GET", `/media/${image.id}`)).body.media.crop).toEqual(crop);
    for (const bad of [{ x: 0.6, y: 0, width: 0.5, height: 0.5 }, { x: 0, y: 0, width: 0.001, height: 0.5 }, { x: 0, y: 0, width: 0.5 }, { x: -0.1, y: 0, width: 0.5, height: 0.5 }]) {
      const refused = await manage<ErrorBody>(token, "PUT", `/media/${image.id}`, { body: { crop: bad } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
    const doc = (await uploadMedia(token, { bytes: pdf(`crop-${Date.now()}`), name: "d.pdf" })).body.media as MediaItemBody;
    const notImage = await manage<ErrorBody>(token, "PUT", `/media/${doc.id}`, { body: { crop } });
    expect(notImage.body.error.code).toBe("media_framing_not_image");
    const cleared = await manage<{ media: { crop: unknown; revision: number } }>(token, "PUT", `/media/${image.id}`, { body: { crop: null } });
    expect(cleared.body.media).toMatchObject({ crop: null, revision: 2 });
  });
});
