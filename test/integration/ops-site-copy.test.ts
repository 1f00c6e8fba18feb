import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { storedKeys } from "../helpers/media-api";
import { createEntry, mediaModel, uploadPng } from "../helpers/media-usage";
import { ops, opsKey, uniqueSlug, untilDone } from "../helpers/ops-api";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/** POST /api/ops/sites/{id}/copy (docs/site-copy.md): dry run, blockers, resumable copy, replay. */

interface Blocker {
  code: string;
  details?: Record<string, unknown>;
}
interface DryRun {
  dry_run: true;
  template: { id: string; slug: string };
  target: { id: string | null; slug: string };
  would_copy: { rows: Record<string, number>; objects: number; bytes: number };
  blocked_by: Blocker[];
}
interface CopyRun {
  dry_run: false;
  state: "running" | "done";
  template: { id: string; slug: string };
  site: { id: string; slug: string; hosts: string[]; languages: string[]; suspended: boolean; figures: { entries: Record<string, number>; media: { files: number; bytes: number } } };
  copied: { rows: Record<string, number>; objects: number; bytes: number };
  replayed?: true;
}
type ErrorBody = { error: { code: string; blocked_by?: Blocker[] } };

async function count(table: string, siteId: string, db: D1Database = env.DB): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`).bind(siteId).first<{ n: number }>())?.n ?? 0;
}

/** A template: a collection with a published entry using an uploaded image, and a single model with its item. */
async function template(): Promise<{ s: SeededSite; token: string; postSlug: string; mediaId: string }> {
  const s = await seedSite({ languages: ["en"] });
  const post = await mediaModel(s, "post");
  const home = await addModel(s.ctx(), { slug: "home", name: "Home", kind: "single", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const token = await credential(s);
  const image = await uploadPng(token, `tpl-${s.site.slug}`);
  const entry = await createEntry(token, post, { title: "Hello copy", cover: image.id });
  expect((await manage(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} })).status).toBe(200);
  const homeEntry = await createEntry(token, home, { title: "Welcome" });
  expect((await manage(token, "POST", `/entries/${homeEntry.instance_id}/publish`, { body: {} })).status).toBe(200);
  const got = await manage<{ slug: string }>(token, "GET", `/entries/${entry.instance_id}`);
  return { s, token, postSlug: got.body.slug, mediaId: image.id };
}

describe("copySite", () => {
  it("a dry run lists what would be copied and writes nothing; blockers are all listed", async () => {
    const { s } = await template();
    const slug = uniqueSlug("copy");
    const dry = await ops<DryRun>("POST", `/sites/${s.site.id}/copy`, { body: { to: { slug, name: "Copy", hosts: [`${slug}.test`] }, content: true, dry_run: true } });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, template: { id: s.site.id, slug: s.site.slug }, target: { id: null, slug }, blocked_by: [] });
    expect(dry.body.would_copy.rows).toMatchObject({ roles: 4, models: 2, entries: 2, media: 1, published_items: 2 });
    expect(dry.body.would_copy.objects).toBe(1);
    expect(dry.body.would_copy.bytes).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT id FROM sites WHERE slug = ?").bind(slug).first()).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM site_copies WHERE template_id = ?").bind(s.site.id).first<{ n: number }>()).toEqual({ n: 0 });

    // Models only: no entries, no media.
    const structure = await ops<DryRun>("POST", `/sites/${s.site.slug}/copy`, { body: { to: { slug, name: "Copy", hosts: [`${slug}.test`] }, dry_run: true } });
    expect(Object.keys(structure.body.would_copy.rows)).toEqual(["roles", "models"]);
    expect(structure.body.would_copy.objects).toBe(0);

    // A taken slug, a taken host and the admin host: every blocker listed.
    const blocked = await ops<DryRun>("POST", `/sites/${s.site.id}/copy`, { body: { to: { slug: s.site.slug, name: "Copy", hosts: [s.host, "admin.localhost"], database: "DB_9" }, dry_run: true } });
    expect(blocked.status).toBe(200);
    expect(blocked.body.blocked_by.map((b) => b.code).sort()).toEqual(["host_taken", "host_taken", "slug_taken", "unknown_database"]);

    // The same without dry_run: the first blocker's refusal, all of them in details, nothing written, the key free again.
    const key = opsKey();
    const refused = await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { to: { slug: s.site.slug, name: "Copy", hosts: [s.host] } }, key });
    expect(refused.status).toBe(409);
    expect(["slug_taken", "host_taken"]).toContain(refused.body.error.code);
    expect(refused.body.error.blocked_by?.map((b) => b.code).sort()).toEqual(["host_taken", "slug_taken"]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM ops_claims WHERE key = ?").bind(key).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("copies models, roles, settings, content and media into a new site over several calls with one key; a replay answers the copy", async () => {
    const { s, postSlug, mediaId } = await template();
    const slug = uniqueSlug("copy");
    const host = `${slug}.test`;
    const before = { entries: await count("entries", s.site.id), versions: await count("versions", s.site.id), objects: (await storedKeys(s.site.id)).length };
    const key = opsKey();
    const body = { to: { slug, name: "Copied", hosts: [host] }, content: true };

    // The first call starts the copy and leaves it running (15 rows per call in tests): the new site is suspended meanwhile.
    const first = await ops<CopyRun>("POST", `/sites/${s.site.id}/copy`, { body, key });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ dry_run: false, state: "running", site: { slug, suspended: true } });
    expect((await publicGet(host, "/health")).status).toBe(404);
    // The same key with another body is refused while the copy runs.
    const reused = await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { ...body, media: true }, key });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");

    const done = await untilDone<CopyRun>(`/sites/${s.site.id}/copy`, body, key);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const copy = done.body;
    expect(copy).toMatchObject({ state: "done", template: { id: s.site.id }, site: { slug, hosts: [host], languages: ["en"], suspended: false } });
    expect(copy.site.id).not.toBe(s.site.id);
    expect(copy.copied.rows).toMatchObject({ roles: 4, models: 2, entries: before.entries, versions: before.versions, media: 1 });
    expect(copy.copied.objects).toBe(1);
    expect(copy.site.figures.entries).toEqual({ published: 2 });

    // Every row is the copy's own: new ids, nothing shared with the template.
    const newId = copy.site.id;
    const models = await env.DB.prepare("SELECT id, slug FROM models WHERE site_id = ? ORDER BY slug").bind(newId).all<{ id: string; slug: string }>();
    expect(models.results.map((m) => m.slug)).toEqual(["home", "post"]);
    const shared = await env.DB.prepare("SELECT COUNT(*) AS n FROM entries a JOIN entries b ON a.instance_id = b.instance_id WHERE a.site_id = ? AND b.site_id = ?").bind(newId, s.site.id).first<{ n: number }>();
    expect(shared?.n).toBe(0);
    const roles = await env.DB.prepare("SELECT slug FROM roles WHERE site_id = ? AND seeded = 1 ORDER BY slug").bind(newId).all<{ slug: string }>();
    expect(roles.results.map((r) => r.slug)).toEqual(["admin", "author", "editor", "viewer"]);

    // The public API serves the copied entry on the new host, with its image copied in R2 under the new site.
    const item = await publicGet<{ data: { fields: { title: string }; media: { cover: { id: string; url: string }[] } } }>(host, `/v1/post/${postSlug}`);
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    expect(item.body.data.fields.title).toBe("Hello copy");
    const cover = item.body.data.media.cover[0];
    expect(cover?.id).toMatch(/^med_/);
    expect(cover?.id).not.toBe(mediaId);
    const keys = await storedKeys(newId);
    expect(keys).toHaveLength(1);
    const [copied, original] = [await env.MEDIA.get(keys[0] ?? ""), await env.MEDIA.get((await storedKeys(s.site.id))[0] ?? "")];
    expect(new Uint8Array(await copied!.arrayBuffer())).toEqual(new Uint8Array(await original!.arrayBuffer()));
    const file = await workerFetch(`http://${host}${cover?.url ?? ""}`);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer()).slice(1, 4)).toEqual(new TextEncoder().encode("PNG"));

    // The template is untouched.
    expect(await count("entries", s.site.id)).toBe(before.entries);
    expect((await storedKeys(s.site.id)).length).toBe(before.objects);

    // The same key replays the copy's answer; a new administrator can be invited at once.
    const replay = await ops<CopyRun>("POST", `/sites/${s.site.id}/copy`, { body, key });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ state: "done", replayed: true, site: { id: newId } });
    expect((await ops("POST", `/sites/${slug}/invitations`, { body: { email: `owner@${host}` } })).status).toBe(201);
  });

  it("into an existing site: same models reused, content added; a second copy is blocked by single_entry_taken and entry_slug_taken", async () => {
    const { s, postSlug } = await template();
    const slug = uniqueSlug("into");
    const created = await ops<{ id: string }>("POST", "/sites", { body: { slug, name: "Into", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" } });
    expect(created.status).toBe(201);
    const into = await untilDone<CopyRun>(`/sites/${s.site.id}/copy`, { into: slug, content: true });
    expect(into.status, JSON.stringify(into.body)).toBe(201);
    expect(into.body.copied.rows).not.toHaveProperty("roles");
    expect(await count("models", created.body.id)).toBe(2);
    expect(await count("roles", created.body.id)).toBe(4);
    expect((await publicGet(`${slug}.test`, `/v1/post/${postSlug}`)).status).toBe(200);

    // Again: the single model "home" already holds its item, and the post's address is taken.
    const dry = await ops<DryRun>("POST", `/sites/${s.site.id}/copy`, { body: { into: created.body.id, content: true, dry_run: true } });
    expect(dry.status).toBe(200);
    expect(dry.body.target).toEqual({ id: created.body.id, slug });
    const codes = dry.body.blocked_by.map((b) => b.code);
    expect(codes).toContain("single_entry_taken");
    expect(codes).toContain("entry_slug_taken");
    expect(dry.body.blocked_by.find((b) => b.code === "single_entry_taken")?.details).toEqual({ model: "home" });
    const entries = await count("entries", created.body.id);
    const refused = await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { into: created.body.id, content: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("single_entry_taken");
    expect(await count("entries", created.body.id)).toBe(entries);

    // Models only, into a site whose "post" is defined otherwise: model_conflict.
    const other = await seedSite({ languages: ["en"] });
    await addModel(other.ctx(), { slug: "post", name: "post", fields: [{ key: "headline", label: "Headline", type: "text", title: true }] });
    const conflict = await ops<DryRun>("POST", `/sites/${s.site.id}/copy`, { body: { into: other.site.id, dry_run: true } });
    expect(conflict.body.blocked_by).toEqual([expect.objectContaining({ code: "model_conflict", details: { model: "post" } })]);
    // A site into itself is a bad request.
    expect((await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { into: s.site.slug, dry_run: true } })).status).toBe(400);
  });

  it("needs exactly a target and a key; unknown template is 404", async () => {
    const { s } = await template();
    expect((await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { content: true, dry_run: true } })).status).toBe(400);
    // Both targets at once (probe finding, session 17: `to` was ignored and the copy went into `into`), dry run or not.
    const other = await seedSite();
    for (const dry_run of [true, false]) {
      const both = await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { to: { slug: "x-both", name: "X", hosts: ["x-both.test"] }, into: other.site.id, dry_run } });
      expect([both.status, both.body.error?.code]).toEqual([400, "invalid_request"]);
    }
    expect((await ops<ErrorBody>("POST", `/sites/${s.site.id}/copy`, { body: { to: { slug: "x-y", name: "X", hosts: ["x-y.test"] } }, key: null })).status).toBe(400);
    expect((await ops<ErrorBody>("POST", "/sites/site_nope/copy", { body: { to: { slug: "x-z", name: "X", hosts: ["x-z.test"] }, dry_run: true } })).status).toBe(404);
  });
});
