import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { answerWith, freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { addModel, seedSite } from "../helpers/fixtures";
import { advanceWhile, allFindings, newImport, step as importStep, uploadFile } from "../helpers/imports-api";
import { credential } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";


/** Content policies asked by import steps (issue #26, docs/imports.md "Content policies"). */
const WXR_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.1/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.1/">
<channel><title>Policies</title><wp:wxr_version>1.1</wp:wxr_version><wp:base_site_url>http://localhost/</wp:base_site_url><wp:base_blog_url>http://localhost/</wp:base_blog_url>`;

/** A WordPress export of published posts with these titles. */
function wxr(titles: string[]): Uint8Array {
  const items = titles.map(
    (title, i) => `<item><title>${title}</title><dc:creator>author</dc:creator><content:encoded><![CDATA[Body ${i}]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${i + 1}</wp:post_id><wp:post_date_gmt>2020-01-0${i + 1} 10:00:00</wp:post_date_gmt><wp:post_name>policy-post-${i}</wp:post_name><wp:status>publish</wp:status><wp:post_parent>0</wp:post_parent><wp:post_type>post</wp:post_type></item>`,
  );
  return new TextEncoder().encode(`${WXR_HEAD}${items.join("\n")}</channel></rss>`);
}

/** A site with a `post` model whose plugin declares `policies` on it, and a WordPress import of `titles` parsed and approved. */
async function importSetup(policies: { id: string; mode: "validate" | "transform"; advisory?: boolean }[], titles: string[]) {
  const s = await seedSite();
  const ctx = s.ctx();
  const post = await addModel(ctx, {
    slug: "post",
    name: "Post",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
    ],
  });
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({ id: "guard", name: "Guard", endpoint, content_policies: policies.map((p) => ({ label: `Policy ${p.id}`, ...p })) });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [post.id] });
  const token = await credential(s);
  const job = await newImport(token);
  expect((await uploadFile(token, job.id, wxr(titles))).status).toBe(200);
  expect((await advanceWhile(token, job.id, ["uploaded", "parsing"])).state).toBe("review");
  expect((await importStep(token, job.id, "wordpress/review", { approve: true })).status).toBe(200);
  return { s, post, plugin, path, token, id: job.id };
}

async function postTitles(siteId: string, modelId: string): Promise<{ title: string; published: boolean }[]> {
  const found = await env.DB.prepare(
    "SELECT json_extract(v.fields, '$') AS fields, e.published_version_id AS published FROM entries e JOIN versions v ON v.id = e.current_version_id WHERE e.site_id = ? AND e.model_id = ? ORDER BY e.created_at, e.instance_id",
  )
    .bind(siteId, modelId)
    .all<{ fields: string; published: string | null }>();
  return found.results.map((r) => ({ title: String(Object.values(JSON.parse(r.fields) as Record<string, unknown>).find((v) => typeof v === "string" && !v.startsWith("{")) ?? ""), published: r.published !== null }));
}

describe("content policies on imports (an import's writes ask as single writes do)", () => {
  it("asks before each create and publication: a refused item is skipped with a finding, a transform is written and reported", async () => {
    const { s, post, plugin, path, token, id } = await importSetup(
      [
        { id: "forbid", mode: "validate" },
        { id: "shout", mode: "transform" },
      ],
      ["Good post", "A FORBIDDEN post", "Please shout"],
    );
    const done = await advanceWhile(token, id, ["review", "writing"], 10);
    expect(done.state).toBe("done");
    const written = await postTitles(s.site.id, post.id);
    expect(written).toEqual([
      { title: "Good post", published: true },
      { title: "PLEASE SHOUT", published: true },
    ]);
    const findings = await allFindings(token, id);
    const refused = findings.find((f) => f.code === "item_refused");
    expect(refused?.details).toMatchObject({ code: "plugin_policy_refused", installation_id: plugin.id, policy_id: "forbid", refusal: { code: "forbidden_word" }, fields: ["title"] });
    const transformed = findings.find((f) => f.code === "policy_transformed");
    expect(transformed?.details).toMatchObject({ policy_id: "shout", outcome: "transformed", fields: ["title"] });
    const asked = (await pluginCalls(`${path}/policies/forbid`)).map((c) => JSON.parse(c.body) as { operation: string; caller: { via: string }; fields: Record<string, unknown> });
    // A step plans its items' creates (each asked), commits them in one batch, then asks about the
    // publications of those written (docs/imports.md, "Steps and their bound").
    expect(asked.map((c) => c.operation)).toEqual(["create", "create", "create", "publish", "publish"]);
    expect(asked.every((c) => c.caller.via === "management_credential")).toBe(true);
    expect(asked[1]?.fields).toMatchObject({ title: "A FORBIDDEN post" });
  });

  it("an enforcing policy that cannot be asked stops the step (503 plugin_policy_unavailable), the item stays staged; the job goes on once it answers", async () => {
    const { s, post, path, token, id } = await importSetup([{ id: "down", mode: "validate" }], ["First", "Second"]);
    const stopped = await importStep(token, id, "advance");
    expect(stopped.status).toBe(503);
    expect(stopped.body.error).toMatchObject({ code: "plugin_policy_unavailable", policy_id: "down", failure: "unreachable" });
    expect(await postTitles(s.site.id, post.id)).toEqual([]);
    const staged = await env.DB.prepare("SELECT count(*) AS n FROM import_items WHERE job_id = ? AND state = 'staged'").bind(id).first<{ n: number }>();
    expect(staged?.n).toBe(2);
    await answerWith(`${path}/policies/down`, { status: 200, body: { outcome: "allowed" } });
    const done = await advanceWhile(token, id, ["review", "writing"], 10);
    expect(done.state).toBe("done");
    expect((await postTitles(s.site.id, post.id)).map((p) => p.title)).toEqual(["First", "Second"]);
  });
});
