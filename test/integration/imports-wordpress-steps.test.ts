import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Model } from "../../shared/repositories/model-repository";
import { WRITE_STEP_ITEMS } from "../../shared/services/imports/wordpress/write-step";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, newImport, step, uploadFile } from "../helpers/imports-api";
import { addTopicAndPostModels, topicCategory, wxrWithTopics } from "../helpers/wxr-build";

/**
 * The write step's batches (docs/imports.md, "Steps and their bound"): a step writes up to
 * WRITE_STEP_ITEMS items, the creates of items written together in one D1 batch and their
 * publications with the job's move in another. Two posts of one step wanting the same address
 * make that batch refuse as a whole: the step writes its items one at a time then, so the refusal
 * stays one item's `slug_taken` finding and every other item is written and published.
 */

const POSTS = 30;
const CATEGORIES = 3;
/** Posts 7 and 8 want one address; post 12 has a shortcode. */
const SAME = [7, 8];

function wxr(): string {
  const items: string[] = [];
  for (let i = 1; i <= POSTS; i++) {
    const slug = SAME.includes(i) ? "same-address" : `steps-post-${i}`;
    const shortcode = i === 12 ? "\n\n[gallery ids=\"1,2\"]" : "";
    const day = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    items.push(`<item><title><![CDATA[Steps post ${i}]]></title><dc:creator><![CDATA[writer]]></dc:creator>
<content:encoded><![CDATA[Paragraph of post ${i}.${shortcode}\n\nSecond paragraph.]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${100 + i}</wp:post_id><wp:post_date_gmt><![CDATA[${day}]]></wp:post_date_gmt><wp:post_name><![CDATA[${slug}]]></wp:post_name>
<wp:status><![CDATA[publish]]></wp:status><wp:post_parent>0</wp:post_parent><wp:post_type><![CDATA[post]]></wp:post_type>
${topicCategory((i % CATEGORIES) + 1)}</item>`);
  }
  return wxrWithTopics("Steps", CATEGORIES, items);
}

describe("WordPress import: a write step's items in one batch, and a refused batch written item by item", () => {
  let s: SeededSite;
  let token: string;
  let id: string;
  let post: Model;

  it(`writes ${WRITE_STEP_ITEMS} items a step; two posts of one step wanting one address: one written, the other a slug_taken finding, never renamed`, async () => {
    s = await seedSite();
    const ctx = s.ctx();
    const models = await addTopicAndPostModels(ctx);
    const category = models.topic;
    post = models.post;
    token = await credential(s);
    const job = await newImport(token);
    id = job.id;
    expect((await uploadFile(token, id, new TextEncoder().encode(wxr()))).status).toBe(200);
    expect((await advanceWhile(token, id, ["uploaded", "parsing"])).state).toBe("review");
    expect((await step(token, id, "wordpress/review", { mapping: { post: post.id, page: null, category: category.id, tag: null }, approve: true })).status).toBe(200);

    // One step: the author (no write), the three categories and 22 posts = 25 writes.
    const key = `steps-first-${Date.now()}`;
    const first = await step(token, id, "advance", {}, key);
    expect(first.status).toBe(200);
    // The step's claim ended in the step's last batch, with the job's move (rule 5: done).
    const claim = await env.DB.prepare("SELECT state, position FROM job_step_claims WHERE site_id = ? AND key = ?").bind(s.site.id, key).first<{ state: string; position: number }>();
    expect(claim).toEqual({ state: "done", position: first.body.import.position - 1 });
    expect(first.body.import.state).toBe("writing");
    expect(first.body.import.progress.items_done).toBe(1 + WRITE_STEP_ITEMS);
    const second = await step(token, id, "advance");
    expect(second.body.import.state).toBe("done");
    // The first key again, after the job moved: the job as it is now, nothing run.
    const replay = await step(token, id, "advance", {}, key);
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.import.position).toBe(second.body.import.position);
    expect(second.body.import.progress.items_done).toBe(1 + CATEGORIES + POSTS);

    const findings = await allFindings(token, id);
    const taken = findings.filter((f) => f.code === "slug_taken");
    expect(taken).toHaveLength(1);
    expect(findings.filter((f) => f.code === "rich_markup_dropped").map((f) => f.details.dropped)).toEqual([["shortcode:gallery"]]);
    const written = await env.DB.prepare("SELECT slug FROM entries WHERE site_id = ? AND model_id = ? ORDER BY slug").bind(s.site.id, post.id).all<{ slug: string }>();
    expect(written.results).toHaveLength(POSTS - 1);
    expect(written.results.filter((r) => r.slug === "same-address")).toHaveLength(1);
    // Published with their category and WordPress's first publication.
    const one = await publicGet<{ data: { fields: Record<string, unknown>; first_published_at?: string } }>(s.host, "/v1/post/steps-post-20");
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).toContain("Paragraph of post 20.");
    expect(JSON.stringify(one.body)).toContain("topic-3");
    expect(JSON.stringify(one.body)).toContain("2015-01-01T20:00:00");
    expect((await publicGet(s.host, "/v1/post/same-address")).status).toBe(200);
  });

  it("undo removes exactly what the import created", async () => {
    let undo = (await step(token, id, "undo")).body.import;
    for (let i = 0; i < 10 && undo.state === "undoing"; i++) undo = (await step(token, id, "undo")).body.import;
    expect(undo.state).toBe("undone");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await publicGet(s.host, "/v1/post/steps-post-20")).status).toBe(404);
  });
});
