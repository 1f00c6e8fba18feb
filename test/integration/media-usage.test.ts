import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import usageMigration from "../../migrations/d1/0018_media_usage.sql";
import { seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";
import type { ErrBody } from "../helpers/media-api";
import { createEntry, fieldId, mediaModel, saveEntry, uploadPng, usageOf, type EntryBody } from "../helpers/media-usage";

const img = (id: string, name = "a.png") => `<p>Look</p><img src="/media/${id}/${name}" alt="x">`;

describe("GET /api/manage/v1/media/{id}/usage", () => {
  it("lists entries using the file through a media field, a multiple media field and a rich-text image; a file nobody uses has total 0", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const [a, b, c, unused] = [await uploadPng(token, "a"), await uploadPng(token, "b"), await uploadPng(token, "c"), await uploadPng(token, "unused")];
    const one = await createEntry(token, post, { title: "One", cover: a.id });
    const two = await createEntry(token, post, { title: "Two", gallery: [b.id, a.id] });
    const three = await createEntry(token, post, { title: "Three", body: `${img(c.id)}<p>and again</p><img alt="y" src="/media/${a.id}/other.png">` });

    const usedA = await usageOf(token, a.id);
    expect(usedA.status).toBe(200);
    const byId = new Map(usedA.body.used_by.map((u) => [u.instance_id, u]));
    expect(usedA.body).toMatchObject({ media_id: a.id, hidden: 0, at_least: 3, total: 3, more: false, unreadable: false });
    expect(byId.get(one.instance_id)).toEqual({ instance_id: one.instance_id, model_id: post.id, lang: "en", label: "One", field_ids: [fieldId(post, "cover")], current: true, published: false, in_trash: false });
    expect(byId.get(two.instance_id)?.field_ids).toEqual([fieldId(post, "gallery")]);
    expect(byId.get(three.instance_id)?.field_ids).toEqual([fieldId(post, "body")]);
    expect((await usageOf(token, b.id)).body).toMatchObject({ used_by: [{ instance_id: two.instance_id }], total: 1 });
    expect((await usageOf(token, c.id)).body).toMatchObject({ used_by: [{ instance_id: three.instance_id, field_ids: [fieldId(post, "body")] }], total: 1 });
    expect((await usageOf(token, unused.id)).body).toEqual({ media_id: unused.id, used_by: [], hidden: 0, at_least: 0, total: 0, more: false, unreadable: false });
  });

  it("counts only this site's relative media addresses in rich text: absolute URLs and text mentions are not uses", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    await createEntry(token, post, {
      title: "Mentions",
      body: `<p>src="/media/${a.id}/x.png" as text</p><img src="https://elsewhere.example/media/${a.id}/x.png"><img src="/media/${a.id}"><a href="/media/${a.id}/x.png">link</a>`,
    });
    expect((await usageOf(token, a.id)).body).toMatchObject({ used_by: [], total: 0 });
  });

  it("follows the current and published versions: a save that drops the file ends a draft use, history does not count, a published version keeps its use", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const [a, b] = [await uploadPng(token, "a"), await uploadPng(token, "b")];
    const entry = await createEntry(token, post, { title: "P", cover: a.id });
    const published = await manage<EntryBody>(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const saved = await saveEntry(token, published.body, { cover: b.id });
    const usedA = (await usageOf(token, a.id)).body;
    expect(usedA.used_by).toEqual([expect.objectContaining({ instance_id: entry.instance_id, current: false, published: true, in_trash: false })]);
    expect((await usageOf(token, b.id)).body.used_by).toEqual([expect.objectContaining({ current: true, published: false })]);

    // Unpublished, only history names the first file: no use any more.
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/unpublish`, { body: {} })).status).toBe(200);
    expect((await usageOf(token, a.id)).body).toMatchObject({ used_by: [], total: 0 });
    // A draft that drops the second file ends its use too.
    await saveEntry(token, { ...saved, current_version_id: (await manage<EntryBody>(token, "GET", `/entries/${entry.instance_id}`)).body.current_version_id }, { cover: null });
    expect((await usageOf(token, b.id)).body.total).toBe(0);
  });

  it("counts entries in Trash (a restore brings them back) and forgets purged ones", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    const entry = await createEntry(token, post, { title: "T", cover: a.id });
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect((await usageOf(token, a.id)).body).toMatchObject({ used_by: [{ instance_id: entry.instance_id, in_trash: true, current: true }], total: 1 });
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/purge`, { body: {} })).status).toBe(200);
    expect((await usageOf(token, a.id)).body).toMatchObject({ used_by: [], total: 0 });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM media_usage WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("counts entries the caller may not read in hidden: a credential limited to another model, a language limit, a field limit", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const admin = await credential(s);
    const post = await mediaModel(s);
    const page = await mediaModel(s, "page");
    const a = await uploadPng(admin, "a");
    const inPost = await createEntry(admin, post, { title: "Post", cover: a.id });
    await createEntry(admin, page, { title: "Page", body: img(a.id) });

    const limited = await credential(s, undefined, [post.id]);
    expect((await usageOf(limited, a.id)).body).toEqual({
      media_id: a.id,
      used_by: [expect.objectContaining({ instance_id: inPost.instance_id })],
      hidden: 1,
      at_least: 2,
      total: 2,
      more: false,
      unreadable: false,
    });

    // A field limit: the page's body and the post's title are not readable; the post's cover is.
    await changeAdminRole(s, (p) => ({ ...p, limits: { fields: { [page.id]: { read: [fieldId(page, "title")] }, [post.id]: { read: [fieldId(post, "cover")] } } } }));
    const fieldLimited = (await usageOf(admin, a.id)).body;
    expect(fieldLimited).toMatchObject({ hidden: 1, at_least: 2, total: 2, unreadable: false });
    expect(fieldLimited.used_by).toEqual([expect.objectContaining({ instance_id: inPost.instance_id, label: null, field_ids: [fieldId(post, "cover")] })]);

    // A language limit that excludes the entries' language hides both.
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { read: ["fr"] } } }));
    expect((await usageOf(admin, a.id)).body).toMatchObject({ used_by: [], hidden: 2, at_least: 2, total: 2 });
  });

  it("is unreadable (nothing told, total null) for a caller who may read no model at all", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    await createEntry(token, post, { title: "X", cover: a.id });
    await changeAdminRole(s, (p) => ({ ...p, models: {} }));
    expect((await usageOf(token, a.id)).body).toEqual({ media_id: a.id, used_by: [], hidden: 0, at_least: 0, total: null, more: false, unreadable: true });
  });

  it("lists at most 50: more, at_least, total null", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    // Several credentials: one would meet the per-credential write rate limit.
    let writer = token;
    for (let i = 0; i < 51; i++) {
      if (i % 20 === 19) writer = await credential(s);
      await createEntry(writer, post, { title: `E${i}`, cover: a.id });
    }
    const capped = (await usageOf(token, a.id)).body;
    expect(capped.used_by).toHaveLength(50);
    expect(capped).toMatchObject({ hidden: 0, at_least: 51, total: null, more: true, unreadable: false });
    expect(new Set(capped.used_by.map((u) => u.instance_id)).size).toBe(50);
  });

  it("reads at most 1000 index rows: beyond them the count is capped (more, total null), and a removal is still refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const a = await uploadPng(token, "a");
    // 1001 entries using the file, written straight into D1 (creating them through the API would take minutes).
    const at = new Date().toISOString();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
       INSERT INTO entries (instance_id, site_id, model_id, primary_instance_id, translation_group_id, lang, label, current_version_id, created_at, updated_at)
       SELECT printf('ent_bulk%04d', i), ?1, ?2, printf('ent_bulk%04d', i), printf('grp_bulk%04d', i), 'en', 'Bulk', printf('ver_bulk%04d', i), ?3, ?3 FROM n`,
    ).bind(s.site.id, post.id, at).run();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
       INSERT INTO media_usage (site_id, version_id, instance_id, media_id, field_id, source)
       SELECT ?1, printf('ver_bulk%04d', i), printf('ent_bulk%04d', i), ?2, ?3, 'field' FROM n`,
    ).bind(s.site.id, a.id, fieldId(post, "cover")).run();
    const capped = (await usageOf(token, a.id)).body;
    expect(capped.used_by).toHaveLength(50);
    // The 1000th row's entry may be cut, so it is left out of the count.
    expect(capped).toMatchObject({ hidden: 0, at_least: 999, total: null, more: true, unreadable: false });
    const refused = await manage<ErrBody>(token, "POST", `/media/${a.id}/remove`, { body: {} });
    expect([refused.status, refused.body.error.code]).toEqual([409, "media_in_use"]);
  });

  it("is 404 for another site's file or an unknown id", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const a = await uploadPng(await credential(other), "a");
    const token = await credential(s);
    for (const id of [a.id, "med_nope"]) {
      const res = await usageOf<ErrBody>(token, id);
      expect([res.status, res.body.error.code]).toEqual([404, "not_found"]);
    }
  });

  it("the migration's backfill rebuilds the index of current and published versions from version bodies", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const post = await mediaModel(s);
    const [a, b, c] = [await uploadPng(token, "a"), await uploadPng(token, "b"), await uploadPng(token, "c")];
    const one = await createEntry(token, post, { title: "One", cover: a.id, gallery: [b.id], body: `${img(c.id)}<img src="/media/${a.id}/z.png">` });
    await saveEntry(token, one, { cover: null });
    const snapshot = async () =>
      (await env.DB.prepare("SELECT version_id, instance_id, media_id, field_id, source FROM media_usage WHERE site_id = ? ORDER BY version_id, field_id, media_id").bind(s.site.id).all()).results;
    const current = (await manage<EntryBody>(token, "GET", `/entries/${one.instance_id}`)).body.current_version_id;
    const written = (await snapshot()).filter((r) => r.version_id === current);
    await env.DB.prepare("DELETE FROM media_usage WHERE site_id = ?").bind(s.site.id).run();
    const inserts = usageMigration.split(/;\s*\n/).map((part) => part.replace(/^\s*--.*$/gm, "").trim()).filter((part) => part.startsWith("INSERT"));
    expect(inserts).toHaveLength(2);
    // The files of a group share one database: the backfill runs over this site's entries only, so
    // another file's deliberately malformed rows cannot break it.
    const ownEntries = `FROM (SELECT * FROM entries WHERE site_id = '${s.site.id}') e`;
    expect(inserts.every((statement) => statement.includes("FROM entries e"))).toBe(true);
    for (const statement of inserts) await env.DB.prepare(statement.replaceAll("FROM entries e", ownEntries)).run();
    expect(await snapshot()).toEqual(written);
    expect(written.map((r) => `${String(r.media_id)}:${String(r.source)}`).sort()).toEqual([`${a.id}:rich_text`, `${b.id}:field`, `${c.id}:rich_text`].sort());
  });
});
