import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signCapability } from "../../shared/auth/tokens";
import { mintPreview, PREVIEW_AUDIENCE } from "../../shared/public/preview";
import { signingSecret } from "../../shared/public/signing-keys";
import * as lifecycle from "../../shared/services/lifecycle";
import { adminCall, roleId, signIn, withoutRequestId, type AdminSession, type ErrorBody } from "../helpers/admin-api";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

interface PreviewAnswer {
  preview: string;
  expires_at: string;
  url: string;
}

interface ItemBody {
  data: { id: string; slug: string; version: string; published_at: string; fields: Record<string, unknown> };
}

/** A site with an article published as "Published title" and then edited to a draft "Draft title". */
async function siteWithDraft() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, slug: "story", fields: { title: "Published title" } }));
  await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
  const draft = await apply(
    s.ctx(),
    lifecycle.saveDraft(s.ctx(), { instance_id: created.instance_id, expected_version_id: created.current_version_id ?? "", fields: { title: "Draft title", internal_note: "secret" } }),
  );
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, entry: draft, session };
}

async function requestPreview(session: AdminSession, s: SeededSite, body: unknown) {
  return adminCall<PreviewAnswer>(session, "POST", "/api/preview", { siteId: s.site.id, body });
}

/** The 404 every refusal of the public API gives, without its request id. */
async function notFoundBody(host: string): Promise<unknown> {
  return withoutRequestId((await publicGet(host, "/v1/article/no-such-item")).body);
}

describe("POST /api/preview", () => {
  it("mints a capability whose url serves the current draft, never cached", async () => {
    const { s, entry, session } = await siteWithDraft();
    const before = Date.now();
    const res = await requestPreview(session, s, { instance_id: entry.instance_id });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`/v1/article/story?preview=${encodeURIComponent(res.body.preview)}`);
    const lifetime = Date.parse(res.body.expires_at) - before;
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    // workerd advances Date.now() only on I/O, so the test's clock may lag the worker's by a moment.
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    const preview = await publicGet<ItemBody>(s.host, res.body.url);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toBe("private, no-store");
    expect(preview.body.data.fields.title).toBe("Draft title");
    expect(preview.body.data.version).toBe(entry.current_version_id);
    expect(JSON.stringify(preview.body)).not.toContain("internal_note");

    const live = await publicGet<ItemBody>(s.host, "/v1/article/story");
    expect(live.body.data.fields.title).toBe("Published title");
    expect(live.headers.get("cache-control")).toBe("no-store");
  });

  it("serves a never-published draft, dated by its version, and also under the published slug after a slug change", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const draft = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, slug: "unseen", fields: { title: "Unseen" } }));
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await requestPreview(session, s, { instance_id: draft.instance_id, minutes: 1 });
    const preview = await publicGet<ItemBody>(s.host, res.body.url);
    expect(preview.status).toBe(200);
    expect(preview.body.data.fields.title).toBe("Unseen");
    const version = await env.DB.prepare("SELECT created_at FROM versions WHERE id = ?").bind(draft.current_version_id).first<{ created_at: string }>();
    expect(preview.body.data.published_at).toBe(version?.created_at);
    expect((await publicGet(s.host, "/v1/article/unseen")).status).toBe(404);

    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: draft.instance_id }));
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: draft.instance_id, expected_version_id: draft.current_version_id ?? "", fields: {}, slug: "renamed" }));
    const token = encodeURIComponent(res.body.preview);
    expect((await publicGet(s.host, `/v1/article/renamed?preview=${token}`)).status).toBe(200);
    expect((await publicGet(s.host, `/v1/article/unseen?preview=${token}`)).status).toBe(200);
  });

  it("needs read on the entry's model, an entry of the site, and minutes from 1 to 60", async () => {
    const { s, entry, session } = await siteWithDraft();
    for (const minutes of [0, 61, 1.5, "5"]) {
      const res = await adminCall<ErrorBody>(session, "POST", "/api/preview", { siteId: s.site.id, body: { instance_id: entry.instance_id, minutes } });
      expect(res.status).toBe(400);
    }
    const unknown = await adminCall<ErrorBody>(session, "POST", "/api/preview", { siteId: s.site.id, body: { instance_id: "ent_nope" } });
    expect(unknown.status).toBe(404);

    const other = await seedSite();
    const otherSession = await signIn(`${other.site.slug}@example.test`);
    const foreign = await adminCall<ErrorBody>(otherSession, "POST", "/api/preview", { siteId: other.site.id, body: { instance_id: entry.instance_id } });
    expect(foreign.status).toBe(404);

    await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = ?").bind(JSON.stringify({ models: {}, system: ["site:settings"] }), await roleId(s.site.id, "admin")).run();
    // An entry the person may not read is "not found", as every read and write answers it (authorise first, then reveal).
    const refused = await adminCall<ErrorBody>(session, "POST", "/api/preview", { siteId: s.site.id, body: { instance_id: entry.instance_id } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("not_found");
  });
});

describe("GET /v1/{model}/{slug}?preview= and field read limits", () => {
  it("shows only the fields its minter may read, whoever opens it", async () => {
    const { s, models, entry, session } = await siteWithDraft();
    const field = (key: string) => models.article.fields.find((f) => f.key === key)?.id ?? "";
    await apply(
      s.ctx(),
      lifecycle.saveDraft(s.ctx(), { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields: { title: "Draft title", summary: "Embargoed summary", body: "<p>Embargoed body</p>" } }),
    );
    // The minter's role may read the article's title and summary only (roles are re-read on every admin request).
    const adminRole = await roleId(s.site.id, "admin");
    const row = await env.DB.prepare("SELECT permissions FROM roles WHERE id = ?").bind(adminRole).first<{ permissions: string }>();
    const permissions = { ...(JSON.parse(row?.permissions ?? "{}") as Record<string, unknown>), limits: { fields: { [models.article.id]: { read: [field("title"), field("summary")] } } } };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), adminRole).run();

    const limited = await requestPreview(session, s, { instance_id: entry.instance_id });
    expect(limited.status, JSON.stringify(limited.body)).toBe(200);
    const shown = await publicGet<{ data: ItemBody["data"] & { relations: Record<string, unknown>; media: Record<string, unknown> } }>(s.host, limited.body.url);
    expect(shown.status).toBe(200);
    expect(shown.body.data.fields).toEqual({ title: "Draft title", summary: "Embargoed summary" });
    expect(shown.body.data.relations).toEqual({});
    expect(shown.body.data.media).toEqual({});
    expect(JSON.stringify(shown.body)).not.toContain("Embargoed body");

    // A link minted after the role narrows shows less.
    const narrower = { ...permissions, limits: { fields: { [models.article.id]: { read: [field("title")] } } } };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(narrower), adminRole).run();
    const titleOnly = await requestPreview(session, s, { instance_id: entry.instance_id });
    const shownNow = await publicGet<ItemBody>(s.host, titleOnly.body.url);
    expect(shownNow.body.data.fields).toEqual({ title: "Draft title" });

    // A capability that does not say which fields it shows shows nothing.
    const unbounded = await signCapability(
      { site: s.site.id, sub: entry.instance_id, mdl: models.article.id },
      await signingSecret(env.DB, "preview"),
      { audience: PREVIEW_AUDIENCE, issuedAtMs: Date.now(), expiresAtMs: Date.now() + 60_000 },
    );
    const refused = await publicGet(s.host, `/v1/article/story?preview=${encodeURIComponent(unbounded)}`);
    expect(refused.status).toBe(404);
    expect(withoutRequestId(refused.body)).toEqual(await notFoundBody(s.host));
  });

  it("shows every public field to a minter without field limits, never a private one", async () => {
    const { s, entry, session } = await siteWithDraft();
    const res = await requestPreview(session, s, { instance_id: entry.instance_id });
    const shown = await publicGet<ItemBody & { data: { first_published_at: string } }>(s.host, res.body.url);
    expect(Object.keys(shown.body.data.fields).sort()).toEqual(["body", "summary", "title"]);
    // The draft of a published item shows when the item was first published, like the live item.
    const live = await publicGet<{ data: { first_published_at: string } }>(s.host, "/v1/article/story");
    expect(shown.body.data.first_published_at).toBe(live.body.data.first_published_at);
    expect(JSON.stringify(shown.body)).not.toContain("secret");
  });
});

describe("GET /v1/{model}/{slug}?preview=", () => {
  it("answers expired, tampered, foreign-site, other-model, other-slug and foreign-purpose capabilities with the same 404", async () => {
    const { s, models, entry, session } = await siteWithDraft();
    const twin = await seedSite();
    await blogModels(twin.ctx());
    await apply(twin.ctx(), lifecycle.createEntry(twin.ctx(), { model_id: (await twinArticle(twin)).id, slug: "story", fields: { title: "Twin" } }));
    const good = (await requestPreview(session, s, { instance_id: entry.instance_id })).body.preview;

    const expired = (await mintPreview(env.DB, { siteId: s.site.id, instanceId: entry.instance_id, modelId: models.article.id, fields: "all" }, { nowMs: Date.now() - 2 * 60 * 60_000, minutes: 1 })).token;
    const [header, payload, signature] = good.split(".");
    const flipped = `${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`;
    const badSignature = `${header}.${payload}.${flipped}`;
    const claims = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const otherPayload = btoa(JSON.stringify({ ...claims, exp: Number(claims.exp) + 3600 })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const alteredClaims = `${header}.${otherPayload}.${signature}`;
    const cursorSigned = await signCapability(
      { site: s.site.id, sub: entry.instance_id, mdl: models.article.id },
      await signingSecret(env.DB, "cursor"),
      { audience: PREVIEW_AUDIENCE, issuedAtMs: Date.now(), expiresAtMs: Date.now() + 60_000 },
    );
    const wrongAudience = await signCapability(
      { site: s.site.id, sub: entry.instance_id, mdl: models.article.id },
      await signingSecret(env.DB, "preview"),
      { audience: "driftwood:something-else", issuedAtMs: Date.now(), expiresAtMs: Date.now() + 60_000 },
    );

    const refusals: [string, string][] = [
      [s.host, `/v1/article/story?preview=${encodeURIComponent(expired)}`],
      [s.host, `/v1/article/story?preview=${encodeURIComponent(badSignature)}`],
      [s.host, `/v1/article/story?preview=${encodeURIComponent(alteredClaims)}`],
      [s.host, `/v1/article/story?preview=${encodeURIComponent(cursorSigned)}`],
      [s.host, `/v1/article/story?preview=${encodeURIComponent(wrongAudience)}`],
      [s.host, "/v1/article/story?preview=garbage"],
      [twin.host, `/v1/article/story?preview=${encodeURIComponent(good)}`],
      [s.host, `/v1/category/story?preview=${encodeURIComponent(good)}`],
      [s.host, `/v1/author/story?preview=${encodeURIComponent(good)}`],
      [s.host, `/v1/article/other-slug?preview=${encodeURIComponent(good)}`],
    ];
    const expected = await notFoundBody(s.host);
    for (const [host, path] of refusals) {
      const res = await publicGet(host, path);
      expect(res.status, `${host}${path}`).toBe(404);
      expect(withoutRequestId(res.body)).toEqual(expected);
    }
    // The good capability still works: the refusals above were about the capability, not the entry.
    expect((await publicGet(s.host, `/v1/article/story?preview=${encodeURIComponent(good)}`)).status).toBe(200);
  });

  it("stops serving an entry moved to Trash", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const draft = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, slug: "doomed", fields: { title: "Doomed" } }));
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await requestPreview(session, s, { instance_id: draft.instance_id });
    expect((await publicGet(s.host, res.body.url)).status).toBe(200);
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: draft.instance_id }));
    const gone = await publicGet(s.host, res.body.url);
    expect(gone.status).toBe(404);
    expect(withoutRequestId(gone.body)).toEqual(await notFoundBody(s.host));
  });

  it("never makes a private model readable: a note preview needs a site token too", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const note = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.note.id, slug: "memo", fields: { title: "Memo draft" } }));
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await requestPreview(session, s, { instance_id: note.instance_id });
    expect(res.status).toBe(200);
    const anonymous = await publicGet(s.host, res.body.url);
    expect(anonymous.status).toBe(404);
    expect(withoutRequestId(anonymous.body)).toEqual(await notFoundBody(s.host));

    const token = (await adminCall<{ token: string }>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "Frontend", model_ids: [models.note.id] } })).body.token;
    const withToken = await publicGet<ItemBody>(s.host, res.body.url, { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("cache-control")).toBe("private, no-store");
    expect(withToken.body.data.fields.title).toBe("Memo draft");
  });
});

async function twinArticle(twin: SeededSite) {
  const row = await env.DB.prepare("SELECT id FROM models WHERE site_id = ? AND slug = 'article'").bind(twin.site.id).first<{ id: string }>();
  if (!row) throw new Error("no article model");
  return row;
}
