import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { saveDraft } from "../../shared/services/lifecycle";
import { createEntry } from "../../shared/services/lifecycle";
import type { Model } from "../../shared/repositories/model-repository";
import { addModel, apply, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, getJob, newImport, step, uploadFile, type FindingBody } from "../helpers/imports-api";
import smallExport from "../fixtures/wordpress/small-export.xml?raw";
import themeUnitTest from "../fixtures/wordpress/themeunittestdata.wordpress.xml?raw";

const encoder = new TextEncoder();
const codeOf = (r: { status: number; body: { error?: { code: string } } }) => [r.status, r.body.error?.code];

/** The blog models a WordPress site's content goes into. */
async function blog(s: SeededSite): Promise<{ category: Model; tag: Model; post: Model; page: Model }> {
  const ctx = s.ctx();
  const category = await addModel(ctx, {
    slug: "category",
    name: "Category",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "description", label: "Description", type: "long_text" },
      { key: "parent", label: "Parent", type: "relation", hierarchy: true },
    ],
  });
  const tag = await addModel(ctx, { slug: "tag", name: "Tag", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const post = await addModel(ctx, {
    slug: "post",
    name: "Post",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "excerpt", label: "Excerpt", type: "long_text" },
      { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] },
      { key: "tags", label: "Tags", type: "relation", multiple: true, targets: [tag.id] },
    ],
  });
  const page = await addModel(ctx, {
    slug: "page",
    name: "Page",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "parent", label: "Parent", type: "relation", hierarchy: true },
    ],
  });
  return { category, tag, post, page };
}

async function entriesOf(siteId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? -1;
}

/** Uploads a file and advances its parse: the job as it ends (failed, or review). */
async function parsed(token: string, file: Uint8Array) {
  const job = await newImport(token);
  const done = await uploadFile(token, job.id, file);
  expect(done.status).toBe(200);
  return { id: job.id, job: await advanceWhile(token, job.id, ["uploaded", "parsing"]) };
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n`;
const RSS = `<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>x</title>`;

describe("WordPress import: hostile files are refused before anything is written", () => {
  const cases: [string, Uint8Array, string][] = [
    [
      "an XML entity bomb",
      encoder.encode(`${HEAD}<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n${RSS}<item><title>&lol3;</title></item></channel></rss>`),
      "entity_declaration",
    ],
    ["an external entity", encoder.encode(`${HEAD}<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${RSS}<item><title>&xxe;</title></item></channel></rss>`), "external_entity"],
    ["an undefined entity", encoder.encode(`${HEAD}${RSS}<item><title>caf&eacute;</title></item></channel></rss>`), "undefined_entity"],
    ["a truncated file", encoder.encode(smallExport.slice(0, Math.floor(smallExport.length / 2))), "truncated"],
    ["invalid UTF-8", new Uint8Array([...encoder.encode(smallExport.slice(0, 4000)), 0xff, 0xfe, ...encoder.encode(smallExport.slice(4000))]), "invalid_utf8"],
    ["a file that is not a WordPress export", encoder.encode(`${HEAD}<html><body>hello</body></html>`), "not_wxr"],
  ];
  for (const [name, file, reason] of cases) {
    it(`refuses ${name}: the job fails with an import_file_invalid finding (${reason}), nothing staged, no entry written`, async () => {
      const s = await seedSite();
      await blog(s);
      const token = await credential(s);
      const { id, job } = await parsed(token, file);
      expect(job.state).toBe("failed");
      expect(job.failure).toMatchObject({ code: "import_file_invalid", reason });
      const findings = await allFindings(token, id);
      expect(findings.map((f) => [f.code, f.details.reason])).toEqual([["import_file_invalid", reason]]);
      // The finding names the byte to look at: the first invalid one, not the start of the read.
      if (reason === "invalid_utf8") expect((findings[0]?.details as { at?: number }).at).toBe(encoder.encode(smallExport.slice(0, 4000)).length);
      const staged = await env.DB.prepare("SELECT count(*) AS n FROM import_items WHERE job_id = ?").bind(id).first<{ n: number }>();
      expect(staged?.n).toBe(0);
      expect(await entriesOf(s.site.id)).toBe(0);
      expect(codeOf(await step(token, id, "advance"))).toEqual([409, "import_state_conflict"]);
    });
  }
});

describe("WordPress import: a real export (WordPress importer's small-export.xml) end to end", () => {
  // One import followed through its stages, one test each (each stays within the suite's 30 s).
  let s: SeededSite;
  let models: Awaited<ReturnType<typeof blog>>;
  let token: string;
  let existing: { instance_id: string; current_version_id: string | null };
  let id: string;

  it("reviews before writing: counts, the proposed mapping and fields, the taken address; nothing written until approved", async () => {
    s = await seedSite();
    models = await blog(s);
    token = await credential(s);
    // An entry the site already has at one of the file's addresses.
    existing = await apply(s.ctx(), createEntry(s.ctx(), { model_id: models.post.id, slug: "hello-world", fields: { title: "Our own hello" } }));

    const parsedJob = await parsed(token, encoder.encode(smallExport));
    id = parsedJob.id;
    expect(parsedJob.job.state).toBe("review");
    expect(await entriesOf(s.site.id)).toBe(1);

    type Review = { counts: Record<string, { total: number; by_status: Record<string, number> }>; mapping: { proposed: Record<string, string | null> }; fields: Record<string, Record<string, string | null>>; conflicts: { item_seq: number; slug: string; taken_by: Record<string, unknown> }[]; decided: boolean };
    const review = (await manage<Review>(token, "GET", `/imports/${id}/wordpress/review`)).body;
    expect(review.counts.author?.total).toBe(3);
    expect(review.counts.category?.total).toBe(30);
    expect(review.counts.tag?.total).toBe(3);
    expect(review.counts.page?.by_status).toMatchObject({ publish: 4, draft: 1 });
    expect(review.counts.post?.by_status).toMatchObject({ private: 1 });
    expect(review.mapping.proposed).toEqual({ post: models.post.id, page: models.page.id, category: models.category.id, tag: models.tag.id });
    expect(review.fields.post).toMatchObject({ title: "title", body: "body", excerpt: "excerpt", categories: "categories", tags: "tags" });
    expect(review.fields.category).toMatchObject({ parent: "parent" });
    expect(review.conflicts).toEqual([expect.objectContaining({ slug: "hello-world", taken_by: { instance_id: existing.instance_id } })]);
    expect(review.decided).toBe(false);

    expect(codeOf(await step(token, id, "advance"))).toEqual([409, "import_review_pending"]);
    expect(codeOf(await step(token, id, "wordpress/review", { mapping: { post: "mdl_nope", page: null, category: null, tag: null } }))).toEqual([422, "import_mapping_invalid"]);
    // Renames are checked when decided (probe finding: a slug that can never be written, or an item
    // the file does not hold, was recorded and failed only at the write): every problem named, nothing recorded.
    const taken = review.conflicts[0]?.item_seq ?? 0;
    const badRenames = await step(token, id, "wordpress/review", { renames: { [String(taken)]: "Not A Slug", "99999": "elsewhere", "1": "an-author" } });
    expect(codeOf(badRenames)).toEqual([422, "import_mapping_invalid"]);
    expect(badRenames.body.error?.problems).toEqual([
      { item_seq: 1, slug: "an-author", reason: "not_renamable" },
      { item_seq: taken, slug: "Not A Slug", reason: "invalid_slug" },
      { item_seq: 99999, slug: "elsewhere", reason: "not_in_file" },
    ]);
    expect((await manage<{ mapping: { chosen: unknown } }>(token, "GET", `/imports/${id}/wordpress/review`)).body.mapping.chosen).toBeNull();
    const decided = await step(token, id, "wordpress/review", { approve: true });
    expect(decided.status).toBe(200);
    expect(await entriesOf(s.site.id)).toBe(1);
  });

  it("writes in bounded steps, reporting what it cannot keep and never renaming a taken address", async () => {
    const done = await advanceWhile(token, id, ["review", "writing"], 20);
    expect(done.state).toBe("done");
    expect(done.progress.items_done).toBe(done.progress.items_total);
    const findings = await allFindings(token, id);
    const byCode = (code: string) => findings.filter((f: FindingBody) => f.code === code);
    expect(byCode("slug_taken")).toHaveLength(1);
    expect(byCode("status_kept_as_draft").map((f) => f.details.status)).toEqual(["private"]);
    const kept = await env.DB.prepare("SELECT label FROM versions WHERE id = ?").bind(existing.current_version_id).first<{ label: string }>();
    expect(kept?.label).toBe("Our own hello");
  });

  it("serves the published posts with their categories and WordPress's first publication, pages with their parent, categories with theirs", async () => {
    const foo = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/post/top-level-foo");
    expect(foo.status).toBe(200);
    expect(JSON.stringify(foo.body)).toContain('"foo"');
    expect(foo.body.data.fields.body).toBe("<p>Post associated with the top-level Foo category.</p>");
    expect(JSON.stringify(foo.body)).toContain("2011-01-18T07:48:32");
    expect(JSON.stringify((await publicGet(s.host, "/v1/category/foo-bar")).body)).toContain('"bar"');
    expect(JSON.stringify((await publicGet(s.host, "/v1/category/eternity")).body)).toContain("远征手记");
    expect(JSON.stringify((await publicGet(s.host, "/v1/page/child-page")).body)).toContain('"parent-page"');
    expect((await publicGet(s.host, "/v1/post/private-post")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/page/draft-page")).status).toBe(404);
  });

  it("undo removes exactly what the import created, keeping (and reporting) an entry an editor changed since", async () => {
    const edited = await env.DB.prepare("SELECT instance_id, current_version_id FROM entries WHERE site_id = ? AND model_id = ? AND slug = 'many-categories'").bind(s.site.id, models.post.id).first<{ instance_id: string; current_version_id: string }>();
    await apply(s.ctx(), saveDraft(s.ctx(), { instance_id: edited?.instance_id ?? "", expected_version_id: edited?.current_version_id ?? "", fields: { title: "Many categories, edited" } }));
    let undo = (await step(token, id, "undo")).body.import;
    for (let i = 0; i < 20 && undo.state === "undoing"; i++) undo = (await step(token, id, "undo")).body.import;
    expect(undo.state).toBe("undone");
    const after = await allFindings(token, id);
    expect(after.filter((f) => f.code === "undo_kept_changed").map((f) => f.details.instance_id)).toEqual([edited?.instance_id]);
    const failed = after.filter((f) => f.code === "undo_failed");
    // The categories the kept post links to stay too, since the site now serves a link to them.
    const left = await env.DB.prepare("SELECT instance_id FROM entries WHERE site_id = ?").bind(s.site.id).all<{ instance_id: string }>();
    const leftIds = left.results.map((r) => r.instance_id);
    expect(leftIds).toContain(existing.instance_id);
    expect(leftIds).toContain(edited?.instance_id);
    expect(leftIds.length).toBe(2 + failed.length);
    expect((await publicGet(s.host, "/v1/post/top-level-foo")).status).toBe(404);
    expect((await getJob(token, id)).next).toEqual([]);
  });
});

describe("WordPress import: the WordPress project's theme unit test export (WordPress.com, WXR 1.2)", () => {
  let s: SeededSite;
  let token: string;
  let id: string;
  let post: Model;

  it("parses 609 KB in bounded steps and reviews every kind it holds", async () => {
    s = await seedSite();
    ({ post } = await blog(s));
    token = await credential(s);
    const parsedJob = await parsed(token, encoder.encode(themeUnitTest));
    id = parsedJob.id;
    expect(parsedJob.job.state).toBe("review");
    type Review = { counts: Record<string, { total: number; by_status: Record<string, number> }> };
    const review = (await manage<Review>(token, "GET", `/imports/${id}/wordpress/review`)).body;
    expect(review.counts.post?.total).toBe(58);
    expect(review.counts.page?.total).toBe(21);
    expect(review.counts.attachment?.total).toBe(37);
    expect(review.counts.category?.total).toBe(69);
    expect(review.counts.tag?.total).toBe(110);
    expect(review.counts.author?.total).toBe(2);
    // 70 menu items and the menus' own terms: read, reported, never imported.
    expect(review.counts.other?.total).toBeGreaterThanOrEqual(70);
    expect(review.counts.post?.by_status).toMatchObject({ future: 1, draft: 1 });
    // Only posts this time: pages, categories and tags left out by choice.
    const decided = await step(token, id, "wordpress/review", { mapping: { post: post.id, page: null, category: null, tag: null }, approve: true });
    expect(decided.status).toBe(200);
  });

  it("converts content to canonical rich text, reporting the shortcodes, players and markup it drops, item by item", async () => {
    const done = await advanceWhile(token, id, ["review", "writing"], 30);
    expect(done.state).toBe("done");
    const findings = await allFindings(token, id);
    const dropped = findings.filter((f) => f.code === "rich_markup_dropped");
    const all = dropped.flatMap((f) => f.details.dropped as string[]);
    expect(all).toContain("shortcode:gallery");
    expect(all).toContain("shortcode:caption");
    // Audio and video players, block-editor comments and presentational classes: left out, and said so.
    for (const name of ["shortcode:audio", "<audio>", "<video>", "#comment", "p[style]"]) expect(all).toContain(name);
    expect(findings.filter((f) => f.code === "media_not_imported")).toHaveLength(37);
    expect(findings.filter((f) => f.code === "status_kept_as_draft").map((f) => f.details.status)).toEqual(["future"]);
    // The gallery post is served without its shortcodes and with its text.
    const gallery = await publicGet<{ data: { fields: { body: string } } }>(s.host, "/v1/post/post-format-gallery");
    expect(gallery.status).toBe(200);
    expect(gallery.body.data.fields.body).not.toContain("[gallery");
    expect(gallery.body.data.fields.body).toContain("gallery shortcode");
  });
});
