import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../shared/db/client";
import type { Model } from "../../shared/repositories/model-repository";
import type { StepContext } from "../../shared/services/imports/job-step";
import { loadImportJob } from "../../shared/services/imports/jobs";
import { WRITE_STEP_ITEMS, wordpressWriteStep } from "../../shared/services/imports/wordpress/write-step";
import { servedGroupStatements } from "../../shared/services/lifecycle/served-view";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { advanceWhile, newImport, step, uploadFile } from "../helpers/imports-api";
import { credential } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { heaviest, meteredD1 } from "../helpers/rows-read";
import { addTopicAndPostModels, topicCategory, wxrWithTopics } from "../helpers/wxr-build";

/**
 * The rows a WordPress write step reads do not grow with what the site already serves (issue #28,
 * the 20,000-post import: each step of 25 posts took 1.0 s at the start and 3.2 s after 17,000
 * items, because each publish rebuilt its group's served rows with a query that walked every
 * published item and every relation row of the site; docs/imports.md, "Steps and their bound").
 *
 * Measured with D1's own `rows_read` (not time: the machine is shared), for a step before and a
 * step after 3,000 published items and 6,000 relation rows were added to the site (written straight
 * to D1: the volume, not the publish path, is under test).
 */

/** The first step writes 22 posts beside the categories, then two measured steps of 25. */
const POSTS = 72;
const CATEGORIES = 3;
const BULK = 3000;

function wxr(): string {
  const items: string[] = [];
  for (let i = 1; i <= POSTS; i++) {
    const day = new Date(Date.UTC(2016, 0, 1) + i * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    items.push(`<item><title><![CDATA[Rows post ${i}]]></title><dc:creator><![CDATA[writer]]></dc:creator>
<content:encoded><![CDATA[Paragraph of post ${i}.\n\nSecond paragraph.]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${500 + i}</wp:post_id><wp:post_date_gmt><![CDATA[${day}]]></wp:post_date_gmt><wp:post_name><![CDATA[rows-post-${i}]]></wp:post_name>
<wp:status><![CDATA[publish]]></wp:status><wp:post_parent>0</wp:post_parent><wp:post_type><![CDATA[post]]></wp:post_type>
${topicCategory((i % CATEGORIES) + 1)}
${topicCategory(((i + 1) % CATEGORIES) + 1)}</item>`);
  }
  return wxrWithTopics("Rows", CATEGORIES, items);
}

describe("WordPress import: a write step's reads are bounded by its items, not by the site", () => {
  let s: SeededSite;
  let post: Model;

  /** One write step run on a D1 handle that counts rows read (the step the site's object runs for advanceImport). */
  async function meteredStep(jobId: string) {
    const { d1, read } = meteredD1(s.ctx().d1);
    const ctx: StepContext = { ...s.ctx(), d1, db: createDb(d1), files: env.MEDIA, writtenVia: `import:${jobId}` };
    const result = await wordpressWriteStep(ctx, await loadImportJob(ctx, jobId));
    return { read, done: result.job.items_done };
  }

  let id: string;
  let categoryModel: Model;
  let before: Awaited<ReturnType<typeof meteredStep>>;

  it("imports the file to its first write step (the author, the categories, the first posts)", async () => {
    s = await seedSite();
    const ctx = s.ctx();
    ({ topic: categoryModel, post } = await addTopicAndPostModels(ctx));
    const token = await credential(s);
    id = (await newImport(token)).id;
    expect((await uploadFile(token, id, new TextEncoder().encode(wxr()))).status).toBe(200);
    expect((await advanceWhile(token, id, ["uploaded", "parsing"])).state).toBe("review");
    expect((await step(token, id, "wordpress/review", { mapping: { post: post.id, page: null, category: categoryModel.id, tag: null }, approve: true })).status).toBe(200);
    // The author and the categories go first (through the API, as a client advances).
    const first = await step(token, id, "advance");
    expect(first.status).toBe(200);
    expect(first.body.import.progress.items_done).toBe(1 + WRITE_STEP_ITEMS);
  });

  it(`measures a step of ${WRITE_STEP_ITEMS} posts`, async () => {
    before = await meteredStep(id);
    expect(before.read.total).toBeGreaterThan(0);
  });

  it(`a step of ${WRITE_STEP_ITEMS} posts reads about as many rows beside ${BULK} more published items as before them`, async () => {
    // The site now serves BULK more items of the post model, each with two category rows.
    const groups = await env.DB.prepare("SELECT translation_group_id AS g FROM entries WHERE site_id = ? AND model_id = ? ORDER BY translation_group_id").bind(s.site.id, categoryModel.id).all<{ g: string }>();
    expect(groups.results.length).toBe(CATEGORIES);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK})
       INSERT INTO published_items (site_id, instance_id, model_id, translation_group_id, lang, slug, label, version_id, published_at, sort_at, body)
       SELECT ?1, 'ent_rows' || i, ?2, 'grp_rows' || i, 'en', 'bulk-' || i, 'Bulk ' || i, 'ver_rows' || i, '2026-11-01T10:00:00.000Z', printf('2026-11-01T10:00:%05d', i), '{}' FROM n`,
    )
      .bind(s.site.id, post.id)
      .run();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK}), g(k, target) AS (SELECT 0, ?3 UNION ALL SELECT 1, ?4)
       INSERT INTO published_relations (site_id, instance_id, model_id, lang, field, target_group_id, target_slug, translation_group_id, sort_at)
       SELECT ?1, 'ent_rows' || i, ?2, 'en', 'categories', g.target, 'topic-' || g.k, 'grp_rows' || i, printf('2026-11-01T10:00:%05d', i) FROM n, g`,
    )
      .bind(s.site.id, post.id, groups.results[0]?.g, groups.results[1]?.g)
      .run();
    const after = await meteredStep(id);

    // Both steps wrote and published a whole step of posts.
    expect(after.done - before.done).toBe(WRITE_STEP_ITEMS);
    const perItem = (after.read.total - before.read.total) / WRITE_STEP_ITEMS;
    // Before the fix a publish read every published and relation row of the site: 75,000 more rows an item here.
    expect(perItem, `rows read: ${before.read.total} before, ${after.read.total} after the bulk rows\n${heaviest(after.read)}`).toBeLessThan(20);
    // And a step stays a few thousand rows whatever the site holds (about 90 an item).
    expect(after.read.total, heaviest(after.read)).toBeLessThan(WRITE_STEP_ITEMS * 200);

    // The posts the measured steps published are served with their categories.
    const served = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/post/rows-post-40");
    expect(served.status).toBe(200);
    expect(JSON.stringify(served.body)).toContain("topic-");
    const topic = await env.DB.prepare("SELECT instance_id AS i FROM entries WHERE site_id = ? AND model_id = ? AND slug = 'topic-2'").bind(s.site.id, categoryModel.id).first<{ i: string }>();
    const listed = await publicGet<{ data: unknown[] }>(s.host, `/v1/post?relation=${encodeURIComponent(`categories:${topic?.i}`)}&limit=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
  });

  it("the served rows of one group are found by index: the group's published rows, then their relation rows", async () => {
    const [, insert] = servedGroupStatements(createDb(env.DB), s.site, "grp_rows7", "en");
    expect(insert).toBeDefined();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${insert?.sql ?? ""}`).bind(...(insert?.parameters ?? [])).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    expect(details.some((d) => d.includes("idx_published_group (site_id=? AND translation_group_id=?"))).toBe(true);
    expect(details.filter((d) => d.includes("idx_published_relations_instance (site_id=? AND instance_id=?)"))).toHaveLength(2);
    // No walk of the site's published or relation rows: every read of them is a keyed search.
    expect(details.filter((d) => /^SCAN (p|r)\b/.test(d) || /\b(p|r) USING (COVERING )?INDEX \w+ \(site_id=\?\)$/.test(d)), details.join("\n")).toEqual([]);
    // Run: it reads the group's rows (and the served rows its inserts look up), not the site's 9,000.
    const ran = await env.DB.prepare(insert?.sql ?? "").bind(...(insert?.parameters ?? [])).run();
    expect(ran.meta.rows_read).toBeLessThan(100);
  });
});
