import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { adminCall } from "../helpers/admin-api";
import { blogModels, roleActor, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { member } from "../helpers/people-api";

/**
 * Issue #27 item 7 (docs/recovery-drafts.md): spec 3's "unsaved text stays in a personal recovery
 * draft" on the server, per person and entry language: a save refused with lock_lost keeps its
 * text, whatever the surface; only its person reads it back; dropped after 30 days.
 */

type Draft = { instance_id: string; lang: string; values: Record<string, unknown>; base_version_id: string | null; reason: string; expires_at: string };
type Err = { error: { code: string; recovery_draft?: boolean } };
type Lease = { lease: { token: string } };

async function people() {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  const a = await credential(s);
  const other = await member(s, "admin");
  const b = await createManagementCredential(s.ctx(roleActor(other.id, "admin")), { name: "b", scopes: [...ALL_SCOPES] });
  const entry = await manage<{ instance_id: string; current_version_id: string }>(a, "POST", "/entries", { body: { model_id: article.id, slug: `rec-${Date.now()}`, fields: { title: "Tides" } } });
  expect(entry.status).toBe(201);
  return { s, a, b: b.token, bSession: other.session, entry: entry.body };
}

describe("recovery drafts on the server", () => {
  it("keeps the text of a save refused after a take-over; its person reads it back through the API, nobody else; then drops it", async () => {
    const p = await people();
    const id = p.entry.instance_id;
    const mine = await manage<Lease>(p.a, "POST", `/entries/${id}/editing`, { body: {}, key: null });
    expect(mine.status).toBe(201);
    // B takes the entry over in the admin; A's save with its lease token is refused, its text kept.
    const over = await adminCall<Lease>(p.bSession, "POST", `/api/v1/entries/${id}/editing/take-over`, { siteId: p.s.site.id, body: {} });
    expect(over.status).toBe(200);
    const lost = await manage<Err>(p.a, "PUT", `/entries/${id}`, { body: { expected_version_id: p.entry.current_version_id, fields: { summary: "my unsaved paragraph" } }, headers: { "x-editing-token": mine.body.lease.token } });
    expect(lost.status).toBe(423);
    expect(lost.body.error).toMatchObject({ code: "lock_lost", recovery_draft: true });

    const back = await manage<Draft>(p.a, "GET", `/entries/${id}/recovery-draft`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ instance_id: id, lang: "en", values: { summary: "my unsaved paragraph" }, base_version_id: p.entry.current_version_id, reason: "lock_lost" });
    expect(Date.parse(back.body.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    // Only its person: B (through the API or the admin) has none.
    expect((await manage(p.b, "GET", `/entries/${id}/recovery-draft`)).status).toBe(404);
    expect((await adminCall(p.bSession, "GET", `/api/v1/entries/${id}/recovery-draft`, { siteId: p.s.site.id })).status).toBe(404);
    // The entry itself was not written.
    expect((await manage<{ current_version_id: string }>(p.a, "GET", `/entries/${id}`)).body.current_version_id).toBe(p.entry.current_version_id);

    expect((await manage(p.a, "DELETE", `/entries/${id}/recovery-draft`)).status).toBe(200);
    expect((await manage(p.a, "GET", `/entries/${id}/recovery-draft`)).status).toBe(404);
    expect((await manage(p.a, "DELETE", `/entries/${id}/recovery-draft`)).status).toBe(404);
  });

  it("refuses a kept draft whose values name a reserved JavaScript key as entry writes do: 422 invalid_field_key, nothing kept", async () => {
    // Probe-30 leftover: `{"constructor": …}` was 400 "This key is not allowed" here, 422 invalid_field_key in entry writes.
    const p = await people();
    const id = p.entry.instance_id;
    for (const key of ["constructor", "__proto__", "toString"]) {
      const kept = await manage<{ error: { code: string; keys?: string[] } }>(p.a, "PUT", `/entries/${id}/recovery-draft`, { rawBody: `{"values":{"title":"x","${key}":"y"},"reason":"unsaved"}` });
      expect([kept.status, kept.body.error.code, kept.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);
    }
    expect((await manage(p.a, "GET", `/entries/${id}/recovery-draft`)).status).toBe(404);
    expect((await manage(p.a, "PUT", `/entries/${id}/recovery-draft`, { body: { values: { title: "x", constructorName: "fine" }, reason: "unsaved" } })).status).toBe(200);
  });

  it("the editor keeps its text through the admin bridge; a draft older than 30 days is gone", async () => {
    const p = await people();
    const id = p.entry.instance_id;
    const kept = await adminCall<Draft>(p.bSession, "PUT", `/api/v1/entries/${id}/recovery-draft`, { siteId: p.s.site.id, body: { values: { title: "Kept by the editor" }, base_version_id: p.entry.current_version_id, reason: "version_conflict" }, headers: { "idempotency-key": `keep-${id}` } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((await manage<Draft>(p.b, "GET", `/entries/${id}/recovery-draft`)).body.values).toEqual({ title: "Kept by the editor" });
    expect((await manage(p.a, "GET", `/entries/${id}/recovery-draft`)).status).toBe(404);
    // 30 days on, it is no longer served (and the next draft kept on the site removes it).
    await env.DB.prepare("UPDATE recovery_drafts SET expires_at = ? WHERE site_id = ? AND instance_id = ?").bind(new Date(Date.now() - 1000).toISOString(), p.s.site.id, id).run();
    expect((await manage(p.b, "GET", `/entries/${id}/recovery-draft`)).status).toBe(404);
    expect((await manage(p.a, "PUT", `/entries/${id}/recovery-draft`, { body: { values: { title: "A's" }, reason: "lock_lost" } })).status).toBe(200);
    const left = await env.DB.prepare("SELECT person_id FROM recovery_drafts WHERE site_id = ? AND instance_id = ?").bind(p.s.site.id, id).all<{ person_id: string }>();
    expect(left.results).toHaveLength(1);
    // Unknown entry: 404; a bad body: 400.
    expect((await manage(p.a, "GET", "/entries/ent_nope/recovery-draft")).status).toBe(404);
    expect((await manage(p.a, "PUT", `/entries/${id}/recovery-draft`, { body: { values: {}, reason: "other" } })).status).toBe(400);
  });
});
