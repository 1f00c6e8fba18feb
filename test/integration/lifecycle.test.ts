import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { addModel, apply, blogModels, seedSite, failure } from "../helpers/fixtures";

async function publishedRow(siteId: string, instanceId: string) {
  return env.DB.prepare("SELECT * FROM published_items WHERE site_id = ? AND instance_id = ?").bind(siteId, instanceId).first<{ body: string; sort_at: string; mentions: string }>();
}

describe("lifecycle: create and save", () => {
  it("creates a draft with its first version and reports the workflow", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const entry = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello World" } }));
    expect(entry.slug).toBe("hello-world");
    expect(entry.lang).toBe("en");
    expect(entry.primary_instance_id).toBe(entry.instance_id);
    expect(entry.workflow).toEqual({ state: "draft", revision: 0, transitions: [{ to: "in_review", kind: "move" }, { to: "published", kind: "publish" }] });
    expect(entry.fields).toEqual({ title: "Hello World" });
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(entry.instance_id).first<{ n: number }>();
    expect(versions?.n).toBe(1);
  });

  it("refuses a stale save with version_conflict and writes nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const entry = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "A" } }));
    const saved = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields: { summary: "one" } }));
    expect(saved.fields).toEqual({ title: "A", summary: "one" });
    const error = await failure(lifecycle.saveDraft(s.ctx(), { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields: { summary: "two" } }));
    expect(error.code).toBe("version_conflict");
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(entry.instance_id).first<{ n: number }>();
    expect(versions?.n).toBe(2);
  });

  it("refuses invalid values with field_validation_failed naming the field", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const error = await failure(lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "x".repeat(201), nope: 1 } }));
    expect(error.code).toBe("field_validation_failed");
    const paths = (error.details?.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(["nope", "title"]);
  });

  it("refuses a slug already used in the same model and language", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, slug: "same", fields: { title: "One" } }));
    // Refused by the unique index in the create's batch, then explained with the holder (a reader may see it).
    const taken = await failure(apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, slug: "same", fields: { title: "Two" } })));
    expect(taken.code).toBe("slug_taken");
    expect(taken.details).toMatchObject({ slug: "same", instance_id: expect.any(String) });
    const fr = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, lang: "fr", slug: "same", fields: { title: "Deux" } }));
    expect(fr.slug).toBe("same");
  });

  it("refuses links to missing items, items of another model and items of another site", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const { article, category } = await blogModels(s.ctx());
    const otherModels = await blogModels(other.ctx());
    const foreign = await apply(other.ctx(), lifecycle.createEntry(other.ctx(), { model_id: otherModels.author.id, fields: { name: "Foreign" } }));
    const cat = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: category.id, fields: { title: "Cat" } }));
    for (const target of ["ent_missing", foreign.instance_id, cat.instance_id]) {
      const error = await failure(lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "T", author: target } }));
      expect(error.code).toBe("relation_target_not_found");
      expect(error.details?.ids).toEqual([target]);
    }
  });

  it("allows a single model one entry, Trash counted", async () => {
    const s = await seedSite();
    const home = await addModel(s.ctx(), { slug: "homepage", name: "Homepage", kind: "single", fields: [{ key: "headline", label: "Headline", type: "text" }] });
    const first = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: home.id, fields: { headline: "Hi" } }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: first.instance_id }));
    const error = await failure(lifecycle.createEntry(s.ctx(), { model_id: home.id, fields: {} }));
    expect(error.code).toBe("single_entry_exists");
    expect(error.details?.instance_id).toBe(first.instance_id);
  });
});

describe("lifecycle: languages", () => {
  it("adds a language to the same translation group, copying the draft", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const en = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello", summary: "S" } }));
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr", slug: "bonjour", fields: { title: "Bonjour" } }));
    expect(fr.translation_group_id).toBe(en.translation_group_id);
    expect(fr.primary_instance_id).toBe(en.instance_id);
    expect(fr.fields).toEqual({ title: "Bonjour", summary: "S" });
    expect((await failure(lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr" }))).code).toBe("locale_exists");
    expect((await failure(lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "de" }))).code).toBe("unknown_locale");
  });

  it("refuses a second language on a model that is not translated", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    expect((await failure(lifecycle.addLanguage(s.ctx(), { instance_id: a.instance_id, lang: "fr" }))).code).toBe("unknown_locale");
  });

  it("says language_in_trash when the language being added sits in Trash", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const en = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello" } }));
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr", slug: "bonjour" }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: fr.instance_id, language_only: true }));
    expect((await failure(lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr" }))).code).toBe("language_in_trash");
  });
});

describe("lifecycle: publish and unpublish", () => {
  it("publishes a snapshot with relations and media resolved and private fields left out", async () => {
    const s = await seedSite();
    const { article, author, category } = await blogModels(s.ctx());
    await env.DB.prepare(
      "INSERT INTO media (id, site_id, object_key, kind, file_name, mime_type, byte_length, sha256, width, height, alt_texts, created_at, updated_at) VALUES (?, ?, 'k', 'image', 'c.jpg', 'image/jpeg', 10, 'x', 10, 20, '{\"en\":\"A cover\"}', 't', 't')",
    ).bind(`med_${s.site.id}`, s.site.id).run();
    const ann = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann Lee" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ann.instance_id }));
    const cat = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: category.id, fields: { title: "News" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: cat.instance_id }));
    const draftCat = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: category.id, fields: { title: "Hidden" } }));
    const post = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), {
      model_id: article.id,
      fields: { title: "Post", author: ann.instance_id, categories: [cat.instance_id, draftCat.instance_id], cover: `med_${s.site.id}`, internal_note: "secret" },
    }));
    const published = await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: post.instance_id, expected_version_id: post.current_version_id ?? "", expected_workflow_revision: 0 }));
    expect(published.workflow.state).toBe("published");
    expect(published.workflow.revision).toBe(1);
    expect(published.published_version_id).toBe(post.current_version_id);
    const row = await publishedRow(s.site.id, post.instance_id);
    const body = JSON.parse(row?.body ?? "{}");
    expect(Object.keys(body).sort()).toEqual(["fields", "first_published_at", "id", "locale", "media", "model", "published_at", "relations", "slug", "version"]);
    expect(body.fields).toEqual({ title: "Post", summary: null, body: null });
    expect(body.relations.author).toEqual([{ instance_id: ann.instance_id, model: "author", slug: "ann-lee", display: "Ann Lee" }]);
    expect(body.relations.categories).toEqual([{ instance_id: cat.instance_id, model: "category", slug: "news", display: "News" }]);
    expect(body.media.cover[0]).toMatchObject({ id: `med_${s.site.id}`, alt: "A cover", width: 10, height: 20 });
    expect(JSON.stringify(body)).not.toContain("secret");
    const tags = await env.DB.prepare("SELECT field, target_slug FROM published_relations WHERE instance_id = ? ORDER BY field").bind(post.instance_id).all();
    expect(tags.results).toEqual([{ field: "author", target_slug: "ann-lee" }, { field: "categories", target_slug: "news" }]);
  });

  it("refuses to publish a draft missing a required value", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, slug: "nameless", fields: {} }));
    const error = await failure(lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    expect(error.code).toBe("field_validation_failed");
    expect(await publishedRow(s.site.id, a.instance_id)).toBeNull();
  });

  it("refuses a stale workflow revision and a move the workflow does not offer", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "A" } }));
    expect((await failure(lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id, expected_workflow_revision: 3 }))).code).toBe("workflow_conflict");
    expect((await failure(lifecycle.unpublishEntry(s.ctx(), { instance_id: a.instance_id }))).code).toBe("transition_unavailable");
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    expect((await failure(lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }))).code).toBe("transition_unavailable");
  });

  it("keeps dependents' relation values in step when a target is unpublished and published again", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const ann = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ann.instance_id }));
    const post = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "P", author: ann.instance_id } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: post.instance_id }));
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: ann.instance_id }));
    expect(JSON.parse((await publishedRow(s.site.id, post.instance_id))?.body ?? "{}").relations.author).toEqual([]);
    const renamed = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: ann.instance_id, expected_version_id: ann.current_version_id ?? "", fields: { name: "Ann B" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: renamed.instance_id }));
    expect(JSON.parse((await publishedRow(s.site.id, post.instance_id))?.body ?? "{}").relations.author).toEqual([
      { instance_id: ann.instance_id, model: "author", slug: "ann", display: "Ann B" },
    ]);
  });

  it("refuses an unpublish a plugin asks for while published content links to the item", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const ann = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ann.instance_id }));
    const post = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "P", author: ann.instance_id } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: post.instance_id }));
    const error = await failure(lifecycle.unpublishEntry(s.ctx(), { instance_id: ann.instance_id, refuse_if_dependents: true }));
    expect(error.code).toBe("dependent_content");
    expect(error.details?.dependents).toEqual([post.instance_id]);
  });

  it("orders a translation by its group's first publication", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const en = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: en.instance_id }));
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr", slug: "bonjour" }));
    await new Promise((r) => setTimeout(r, 5));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    expect((await publishedRow(s.site.id, fr.instance_id))?.sort_at).toBe((await publishedRow(s.site.id, en.instance_id))?.sort_at);
  });
});

describe("lifecycle: workflow moves", () => {
  it("moves draft → in review → draft, bumping the revision each time", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "A" } }));
    const review = await apply(s.ctx(), lifecycle.moveEntry(s.ctx(), { instance_id: a.instance_id, to: "in_review", expected_workflow_revision: 0 }));
    expect(review.workflow).toEqual({ state: "in_review", revision: 1, transitions: [{ to: "draft", kind: "move" }, { to: "published", kind: "publish" }] });
    const back = await apply(s.ctx(), lifecycle.moveEntry(s.ctx(), { instance_id: a.instance_id, to: "draft" }));
    expect(back.workflow.revision).toBe(2);
    expect((await failure(lifecycle.moveEntry(s.ctx(), { instance_id: a.instance_id, to: "published" }))).code).toBe("transition_unavailable");
  });
});

describe("lifecycle: trash, restore, purge", () => {
  it("refuses Trash while published, then trashes every language, restores and purges", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const en = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello" } }));
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr", slug: "bonjour" }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    expect((await failure(lifecycle.trashEntry(s.ctx(), { instance_id: en.instance_id }))).code).toBe("entry_published");
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: fr.instance_id }));
    const trashed = await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: en.instance_id }));
    expect(trashed.instance_ids.sort()).toEqual([en.instance_id, fr.instance_id].sort());
    expect((await failure(lifecycle.saveDraft(s.ctx(), { instance_id: en.instance_id, expected_version_id: en.current_version_id ?? "", fields: {} }))).code).toBe("entry_in_trash");

    // While in Trash the address is free; restoring refuses when someone took it.
    const squatter = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, slug: "hello", fields: { title: "Squatter" } }));
    expect((await failure(lifecycle.restoreEntry(s.ctx(), { instance_id: en.instance_id }))).code).toBe("slug_taken");
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: squatter.instance_id }));
    const restored = await apply(s.ctx(), lifecycle.restoreEntry(s.ctx(), { instance_id: en.instance_id }));
    expect(restored.trashed_at).toBeNull();
    expect((await failure(lifecycle.purgeEntry(s.ctx(), { instance_id: en.instance_id }))).code).toBe("entry_not_in_trash");

    // Purge removes the item and the relation rows that point at it.
    const ann = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: en.instance_id, expected_version_id: en.current_version_id ?? "", fields: { author: ann.instance_id } }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: ann.instance_id }));
    const purged = await apply(s.ctx(), lifecycle.purgeEntry(s.ctx(), { instance_id: ann.instance_id }));
    expect(purged.purged_instance_ids).toEqual([ann.instance_id]);
    const left = await env.DB.prepare("SELECT (SELECT count(*) FROM entries WHERE instance_id = ?1) + (SELECT count(*) FROM versions WHERE instance_id = ?1) + (SELECT count(*) FROM relation_links WHERE target_instance_id = ?1) AS n").bind(ann.instance_id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("lifecycle: permissions", () => {
  it("lets an author edit only what it owns and never publish", async () => {
    const s = await seedSite();
    const { author: authorModel } = await blogModels(s.ctx());
    const writer = await s.person("author");
    const mine = await apply(s.ctx(writer), lifecycle.createEntry(s.ctx(writer), { model_id: authorModel.id, fields: { name: "Mine" } }));
    expect(mine.owner_id).toBe(writer.id);
    await apply(s.ctx(writer), lifecycle.saveDraft(s.ctx(writer), { instance_id: mine.instance_id, expected_version_id: mine.current_version_id ?? "", fields: { bio: "b" } }));
    expect((await failure(lifecycle.publishEntry(s.ctx(writer), { instance_id: mine.instance_id }))).code).toBe("missing_permission");
    const theirs = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: authorModel.id, fields: { name: "Theirs" } }));
    expect((await failure(lifecycle.saveDraft(s.ctx(writer), { instance_id: theirs.instance_id, expected_version_id: theirs.current_version_id ?? "", fields: { bio: "x" } }))).code).toBe("not_owner");
  });

  it("refuses writes outside field and language limits with nothing written", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const titleId = article.fields.find((f) => f.key === "title")?.id ?? "";
    const limited = { ...s.admin, permissions: { ...s.admin.permissions, limits: { fields: { [article.id]: { write: [titleId] } }, languages: { create: ["en"] } } } };
    const ok = await apply(s.ctx(limited), lifecycle.createEntry(s.ctx(limited), { model_id: article.id, fields: { title: "T" } }));
    const fieldError = await failure(lifecycle.createEntry(s.ctx(limited), { model_id: article.id, fields: { title: "U", summary: "no" } }));
    expect(fieldError.code).toBe("field_denied");
    const langError = await failure(lifecycle.addLanguage(s.ctx(limited), { instance_id: ok.instance_id, lang: "fr", slug: "t-fr" }));
    expect(langError.code).toBe("locale_denied");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe("lifecycle: version restore", () => {
  it("restores an old version as a new draft version", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "First" } }));
    const b = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: a.instance_id, expected_version_id: a.current_version_id ?? "", fields: { name: "Second" } }));
    const restored = await apply(s.ctx(), lifecycle.restoreVersion(s.ctx(), { instance_id: a.instance_id, version_id: a.current_version_id ?? "" }));
    expect(restored.fields.name).toBe("First");
    expect(restored.current_version_id).not.toBe(a.current_version_id);
    expect(restored.current_version_id).not.toBe(b.current_version_id);
  });
});

describe("lifecycle: events and audit", () => {
  it("writes one outbox event and one audit row per successful change and none for a refusal", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "A" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    await failure(lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    const events = await env.DB.prepare("SELECT name FROM outbox_events WHERE site_id = ? AND name LIKE 'entry.%' ORDER BY created_at").bind(s.site.id).all<{ name: string }>();
    expect(events.results.map((e) => e.name)).toEqual(["entry.created", "entry.published"]);
    const audit = await env.DB.prepare("SELECT action, details FROM audit_log WHERE site_id = ? AND action LIKE 'entry.%' ORDER BY at").bind(s.site.id).all<{ action: string; details: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["entry.create", "entry.publish"]);
    expect(audit.results[0]?.details).not.toContain('"A"');
  });
});

describe("lifecycle: served addresses", () => {
  it("refuses to publish at an address another published item still serves", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const a = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, slug: "x", fields: { name: "A" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: a.instance_id, expected_version_id: a.current_version_id ?? "", slug: "y", fields: {} }));
    const b = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, slug: "x", fields: { name: "B" } }));
    const error = await failure(lifecycle.publishEntry(s.ctx(), { instance_id: b.instance_id }));
    expect(error.code).toBe("slug_taken");
    expect(error.details?.instance_id).toBe(a.instance_id);
    // Once A is published at its new address, x is free for B.
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: b.instance_id }));
  });
});
