import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, signIn } from "../helpers/admin-api";
import { answerWith, freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import * as lifecycle from "../../shared/services/lifecycle";
import { addModel, apply, blogModels, seedSite } from "../helpers/fixtures";
import { advanceWhile, allFindings, newImport, step as importStep, uploadFile } from "../helpers/imports-api";
import { credential, manage, newKey } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

type Err = { error: { code: string; [k: string]: unknown } };
type Entry = { instance_id: string; current_version_id: string; fields: Record<string, unknown>; policy_results?: Record<string, unknown>[] };

/**
 * A site whose plugin "guard" (endpoint: the fake plugin) declares `policies` on the article
 * model only; answers the site, models, the plugin and a credential with every scope.
 */
async function setup(policies: { id: string; mode: "validate" | "transform"; advisory?: boolean }[], name = "Guard") {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({ id: "guard", name, endpoint, content_policies: policies.map((p) => ({ label: `Policy ${p.id}`, ...p })) });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id] });
  const token = await credential(s);
  return { s, models, plugin, path, token };
}

async function createArticle(token: string, modelId: string, title: string) {
  return manage<Entry & Err>(token, "POST", "/entries", { body: { model_id: modelId, fields: { title } } });
}

async function articleCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("plugin content policies (spec 2 rule 14)", () => {
  it("asks before a create with the entry, language, fields and caller.via; a refusal writes nothing", async () => {
    const { s, models, plugin, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const before = await articleCount(s.site.id);
    const refused = await createArticle(token, models.article.id, "A FORBIDDEN title");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "plugin_policy_refused",
      installation_id: plugin.id,
      plugin_name: "Guard",
      policy_id: "forbid",
      policy_label: "Policy forbid",
      locale: "en",
      message: "Remove the word FORBIDDEN.",
      refusal: { code: "forbidden_word", message: "Remove the word FORBIDDEN." },
      fields: ["title"],
    });
    expect(await articleCount(s.site.id)).toBe(before);
    const [call] = await pluginCalls(`${path}/policies/forbid`);
    const sent = JSON.parse(call?.body ?? "{}") as Record<string, unknown>;
    expect(sent).toMatchObject({
      kind: "policy",
      installation_id: plugin.id,
      policy: "forbid",
      mode: "validate",
      operation: "create",
      caller: { via: "management_credential", person_id: s.adminId },
      entry: { instance_id: null, model_id: models.article.id, model_slug: models.article.slug, lang: "en" },
      locale: "en",
      fields: { title: "A FORBIDDEN title" },
    });
    expect(call?.headers["x-driftwood-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);

    const ok = await createArticle(token, models.article.id, "A fine title");
    expect(ok.status).toBe(201);
    expect(ok.body.policy_results).toBeUndefined();
    // A model not granted to the plugin asks nothing.
    const note = await manage<Entry>(token, "POST", "/entries", { body: { model_id: models.note.id, fields: { title: "FORBIDDEN but a note" } } });
    expect(note.status).toBe(201);
  });

  it("asks before save, publish, unpublish, move, trash, restore and version restore, on every surface", async () => {
    const { s, models, path, token } = await setup([{ id: "audit", mode: "validate" }]);
    const created = await createArticle(token, models.article.id, "Tracked");
    const id = created.body.instance_id;
    const saved = await manage<Entry>(token, "PUT", `/entries/${id}`, { body: { expected_version_id: created.body.current_version_id, fields: { title: "Tracked 2" } } });
    expect(saved.status).toBe(200);
    const moved = await manage<{ workflow: { revision: number } }>(token, "POST", `/entries/${id}/move`, { body: { to: "in_review", expected_workflow_revision: 0 } });
    expect(moved.status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/publish`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/unpublish`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/trash`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/restore`, { body: {} })).status).toBe(200);
    const restored = await manage(token, "POST", `/entries/${id}/versions/${created.body.current_version_id}/restore`, { body: {} });
    expect(restored.status).toBe(200);
    // The admin (a person's session) asks the same policies, with caller.via admin.
    const session = await signIn(`${s.site.slug}@example.test`);
    const current = await manage<Entry>(token, "GET", `/entries/${id}`);
    const adminSave = await adminCall(session, "PUT", `/api/v1/entries/${id}`, {
      siteId: s.site.id,
      body: { expected_version_id: current.body.current_version_id, fields: { title: "From the admin" } },
      headers: { "idempotency-key": `admin-save-${id}` },
    });
    expect(adminSave.status).toBe(200);
    const calls = (await pluginCalls(`${path}/policies/audit`)).map((c) => JSON.parse(c.body) as { operation: string; caller: { via: string }; fields: Record<string, unknown> });
    expect(calls.map((c) => c.operation)).toEqual(["create", "save", "move", "publish", "unpublish", "delete", "restore", "restore", "save"]);
    expect(calls.map((c) => c.caller.via)).toEqual([...Array(8).fill("management_credential"), "admin"]);
    // Writes other than a save send the entry's current values; a version restore the restored version's.
    expect(calls[3]?.fields).toMatchObject({ title: "Tracked 2" });
    expect(calls[7]?.fields).toMatchObject({ title: "Tracked" });
  });

  it("a transform changes the fields written and the answer says so (policy_results)", async () => {
    const { models, plugin, token } = await setup([{ id: "trim", mode: "transform" }]);
    const created = await createArticle(token, models.article.id, "  Spaced out  ");
    expect(created.status).toBe(201);
    expect(created.body.fields.title).toBe("Spaced out");
    expect(created.body.policy_results).toEqual([
      { installation_id: plugin.id, plugin_name: "Guard", policy_id: "trim", policy_label: "Policy trim", locale: "en", message: "Trimmed spaces.", fields: ["title"], outcome: "transformed" },
    ]);
    const read = await manage<Entry>(token, "GET", `/entries/${created.body.instance_id}`);
    expect(read.body.fields.title).toBe("Spaced out");
  });

  it("refuses invalid transforms (422 plugin_policy_transform_invalid with cause) and conflicting ones, writing nothing", async () => {
    const bad = await setup([{ id: "bad", mode: "transform" }]);
    const before = await articleCount(bad.s.site.id);
    const invalid = await createArticle(bad.token, bad.models.article.id, "Hello");
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", policy_id: "bad", cause: { code: "field_validation_failed" } });
    expect(await articleCount(bad.s.site.id)).toBe(before);

    const validate = await setup([{ id: "trim", mode: "validate" }]);
    const notAllowed = await createArticle(validate.token, validate.models.article.id, " padded ");
    expect(notAllowed.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", cause: { code: "transform_not_allowed" } });

    const stray = await setup([{ id: "stray", mode: "transform" }]);
    const strayed = await createArticle(stray.token, stray.models.article.id, "Hello");
    expect(strayed.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", cause: { code: "field_not_written", detail: { fields: ["not_written"] } } });

    const both = await setup([
      { id: "trim", mode: "transform" },
      { id: "shout", mode: "transform" },
    ]);
    const count = await articleCount(both.s.site.id);
    const conflict = await createArticle(both.token, both.models.article.id, " shout ");
    expect(conflict.status).toBe(422);
    expect(conflict.body.error).toMatchObject({ code: "plugin_policy_transform_conflict", field: "title" });
    expect(await articleCount(both.s.site.id)).toBe(count);
  });

  it("an unreachable enforcing policy is 503 plugin_policy_unavailable; an advisory one lets the write proceed", async () => {
    const enforcing = await setup([{ id: "down", mode: "validate" }]);
    const before = await articleCount(enforcing.s.site.id);
    const refused = await createArticle(enforcing.token, enforcing.models.article.id, "Hello");
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "plugin_policy_unavailable", policy_id: "down", failure: "unreachable" });
    expect(await articleCount(enforcing.s.site.id)).toBe(before);

    const advisory = await setup([{ id: "down", mode: "validate", advisory: true }]);
    const written = await createArticle(advisory.token, advisory.models.article.id, "Hello");
    expect(written.status).toBe(201);
    expect(written.body.policy_results).toEqual([
      { installation_id: advisory.plugin.id, plugin_name: "Guard", policy_id: "down", policy_label: "Policy down", locale: "en", message: null, fields: [], outcome: "unavailable", failure: "unreachable" },
    ]);
    // A policy answering nonsense is unavailable too.
    await answerWith(`${enforcing.path}/policies/down`, { status: 200, body: { outcome: "maybe" } });
    const nonsense = await createArticle(enforcing.token, enforcing.models.article.id, "Hello");
    expect(nonsense.body.error).toMatchObject({ code: "plugin_policy_unavailable", failure: "invalid_answer" });
  });

  it("a slow policy does not hold another entry's save (asked outside the site's write queue)", async () => {
    const { models, token } = await setup([{ id: "audit", mode: "validate" }]);
    const done: string[] = [];
    const slow = createArticle(token, models.article.id, "SLOW one").then((r) => {
      done.push("slow");
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fast = await createArticle(token, models.article.id, "Quick one");
    done.push("fast");
    expect(fast.status).toBe(201);
    expect((await slow).status).toBe(201);
    expect(done).toEqual(["fast", "slow"]);
  });

  it("too many policy calls for a site in a window give 429 plugin_policy_budget_exhausted, nothing written", async () => {
    const { s, models, token } = await setup([
      { id: "one", mode: "validate" },
      { id: "two", mode: "validate" },
      { id: "three", mode: "validate" },
    ]);
    // PLUGIN_POLICY_BUDGET is 30 in tests: ten creates ask three policies each.
    for (let i = 0; i < 10; i++) expect((await createArticle(token, models.article.id, `Entry ${i}`)).status).toBe(201);
    const before = await articleCount(s.site.id);
    const over = await createArticle(token, models.article.id, "One too many");
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: "plugin_policy_budget_exhausted", budget: 30, window_ms: 60000 });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await articleCount(s.site.id)).toBe(before);
    // Other sites keep their own budget.
    const other = await setup([{ id: "one", mode: "validate" }]);
    expect((await createArticle(other.token, other.models.article.id, "Fine")).status).toBe(201);
  });
});

type BulkResult = { id: string; status: number; code?: string; changed: { instance_id: string; lang: string }[]; details?: Record<string, unknown>; policy_results?: Record<string, unknown>[] };
type Bulk = { action: string; results: BulkResult[] };

let bulkN = 0;
/** An article written directly (no request, so no policy is asked), optionally with a French language. */
async function directArticle(s: Awaited<ReturnType<typeof seedSite>>, modelId: string, title: string, fr?: string): Promise<string> {
  const ctx = s.ctx();
  const en = await apply(ctx, lifecycle.createEntry(ctx, { model_id: modelId, lang: "en", slug: `pol-bulk-${bulkN++}`, fields: { title } }));
  if (fr !== undefined) await apply(ctx, lifecycle.addLanguage(ctx, { instance_id: en.instance_id, lang: "fr", slug: `pol-bulk-fr-${bulkN++}`, fields: { title: fr } }));
  return en.instance_id;
}

async function entryRows(ids: string[]): Promise<Map<string, { published: boolean; trashed: boolean; lang: string }>> {
  const rows = await env.DB.prepare(`SELECT instance_id, translation_group_id, lang, published_version_id, trashed_at FROM entries WHERE instance_id IN (${ids.map(() => "?").join(",")}) OR translation_group_id IN (SELECT translation_group_id FROM entries WHERE instance_id IN (${ids.map(() => "?").join(",")}))`)
    .bind(...ids, ...ids)
    .all<{ instance_id: string; lang: string; published_version_id: string | null; trashed_at: string | null }>();
  return new Map(rows.results.map((r) => [r.instance_id, { published: r.published_version_id !== null, trashed: r.trashed_at !== null, lang: r.lang }]));
}

describe("content policies on bulk actions (every bulk kind asks as its single route would)", () => {
  it("a refusing policy refuses its items of a bulk publish and a bulk trash, per item, writing nothing of them", async () => {
    const { s, models, plugin, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const good = await directArticle(s, models.article.id, "Good one");
    const bad = await directArticle(s, models.article.id, "A FORBIDDEN one");
    // Two languages, the French one refused: the whole item stays unpublished (all languages or none).
    const mixed = await directArticle(s, models.article.id, "Fine in English", "FORBIDDEN en français");
    const ids = [good, bad, mixed];

    const published = await manage<Bulk>(token, "POST", "/entries/bulk-publish", { body: { ids } });
    expect(published.status).toBe(200);
    const [r0, r1, r2] = published.body.results;
    expect(r0).toMatchObject({ id: good, status: 200 });
    expect(r1).toMatchObject({ id: bad, status: 422, code: "plugin_policy_refused", changed: [] });
    expect(r1?.details).toMatchObject({ installation_id: plugin.id, plugin_name: "Guard", policy_id: "forbid", policy_label: "Policy forbid", locale: "en", refusal: { code: "forbidden_word" }, fields: ["title"] });
    expect(r2).toMatchObject({ id: mixed, status: 422, code: "plugin_policy_refused", changed: [] });
    expect(r2?.details).toMatchObject({ locale: "fr" });
    const afterPublish = await entryRows(ids);
    expect(afterPublish.get(good)?.published).toBe(true);
    expect(afterPublish.get(bad)?.published).toBe(false);
    expect([...afterPublish.values()].filter((r) => r.published)).toHaveLength(1);
    // Each language was asked as a single publish asks it: operation publish, the entry's current values.
    const asked = (await pluginCalls(`${path}/policies/forbid`)).map((c) => JSON.parse(c.body) as { operation: string; entry: { instance_id: string; lang: string }; caller: { via: string } });
    expect(asked.every((c) => c.operation === "publish" && c.caller.via === "management_credential")).toBe(true);
    expect(new Set(asked.map((c) => c.entry.lang))).toEqual(new Set(["en", "fr"]));
    expect(asked).toHaveLength(4);

    // The unpublished ones: a single Trash asks about the language it names (the refused item's
    // French language is not asked, as `POST /entries/{id}/trash` would not ask it).
    const trashed = await manage<Bulk>(token, "POST", "/entries/bulk-trash", { body: { ids: [bad, mixed] } });
    expect(trashed.status).toBe(200);
    expect(trashed.body.results.map((r) => [r.status, r.code ?? null])).toEqual([
      [422, "plugin_policy_refused"],
      [200, null],
    ]);
    const afterTrash = await entryRows([bad, mixed]);
    expect(afterTrash.get(bad)?.trashed).toBe(false);
    expect(afterTrash.get(mixed)?.trashed).toBe(true);
    const deletes = (await pluginCalls(`${path}/policies/forbid`)).map((c) => JSON.parse(c.body) as { operation: string }).filter((c) => c.operation === "delete");
    expect(deletes).toHaveLength(2);
  });

  it("a passing policy lets every item through; an unreachable enforcing one refuses each item 503; a replay asks nothing", async () => {
    const { s, models, path, token } = await setup([{ id: "audit", mode: "validate" }]);
    const one = await directArticle(s, models.article.id, "First", "Premier");
    const two = await directArticle(s, models.article.id, "Second");
    const key = newKey();
    const done = await manage<Bulk>(token, "POST", "/entries/bulk-publish", { body: { ids: [one, two] }, key });
    expect(done.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect(done.body.results[0]?.changed).toHaveLength(2);
    expect(await pluginCalls(`${path}/policies/audit`)).toHaveLength(3);
    const replay = await manage<Bulk>(token, "POST", "/entries/bulk-publish", { body: { ids: [one, two] }, key });
    expect(replay.body.results.map((r) => r.status)).toEqual([200, 200]);
    expect(await pluginCalls(`${path}/policies/audit`)).toHaveLength(3);
    const moved = await manage<Bulk>(token, "POST", "/entries/bulk-unpublish", { body: { ids: [two] } });
    expect(moved.body.results[0]?.status).toBe(200);
    expect((await pluginCalls(`${path}/policies/audit`)).map((c) => (JSON.parse(c.body) as { operation: string }).operation).at(-1)).toBe("unpublish");

    const down = await setup([{ id: "down", mode: "validate" }]);
    const three = await directArticle(down.s, down.models.article.id, "Third");
    const refused = await manage<Bulk>(down.token, "POST", "/entries/bulk-trash", { body: { ids: [three] } });
    expect(refused.body.results[0]).toMatchObject({ status: 503, code: "plugin_policy_unavailable", details: { policy_id: "down", failure: "unreachable" } });
    expect((await entryRows([three])).get(three)?.trashed).toBe(false);
    // An advisory one lets the item through and its result carries policy_results, as a single write's answer does.
    const advisory = await setup([{ id: "down", mode: "validate", advisory: true }]);
    const four = await directArticle(advisory.s, advisory.models.article.id, "Fourth");
    const through = await manage<Bulk>(advisory.token, "POST", "/entries/bulk-trash", { body: { ids: [four] } });
    expect(through.body.results[0]).toMatchObject({ status: 200, policy_results: [{ installation_id: advisory.plugin.id, policy_id: "down", locale: "en", outcome: "unavailable", failure: "unreachable" }] });
    expect((await entryRows([four])).get(four)?.trashed).toBe(true);
  });

  it("bulk move, restore and relate ask as their single routes do (move, restore, save with the fields written)", async () => {
    const { s, models, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const fine = await directArticle(s, models.article.id, "Fine");
    const bad = await directArticle(s, models.article.id, "FORBIDDEN here");
    const moved = await manage<Bulk>(token, "POST", "/entries/bulk-move", { body: { ids: [fine, bad], to: "in_review" } });
    expect(moved.body.results.map((r) => [r.status, r.code ?? null])).toEqual([
      [200, null],
      [422, "plugin_policy_refused"],
    ]);
    const states = await env.DB.prepare("SELECT instance_id, workflow_state FROM entries WHERE instance_id IN (?, ?)").bind(fine, bad).all<{ instance_id: string; workflow_state: string }>();
    expect(Object.fromEntries(states.results.map((r) => [r.instance_id, r.workflow_state]))).toEqual({ [fine]: "in_review", [bad]: "draft" });

    const ctx = s.ctx();
    for (const id of [fine, bad]) await apply(ctx, lifecycle.trashEntry(ctx, { instance_id: id }));
    const restored = await manage<Bulk>(token, "POST", "/entries/bulk-restore", { body: { ids: [fine, bad] } });
    expect(restored.body.results.map((r) => [r.status, r.code ?? null])).toEqual([
      [200, null],
      [422, "plugin_policy_refused"],
    ]);
    expect((await entryRows([bad])).get(bad)?.trashed).toBe(true);

    const category = await apply(ctx, lifecycle.createEntry(ctx, { model_id: models.category.id, lang: "en", slug: `pol-cat-${bulkN++}`, fields: { title: "News" } }));
    const related = await manage<Bulk>(token, "POST", "/entries/bulk-relate", { body: { ids: [fine], field: "categories", add: [category.instance_id] } });
    expect(related.body.results[0]?.status).toBe(200);
    const calls = (await pluginCalls(`${path}/policies/forbid`)).map((c) => JSON.parse(c.body) as { operation: string; fields: Record<string, unknown> });
    expect(calls.map((c) => c.operation)).toEqual(["move", "move", "restore", "restore", "save"]);
    expect(calls.at(-1)?.fields).toEqual({ categories: { connect: [category.instance_id] } });
  });
});

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
    expect(asked.map((c) => c.operation)).toEqual(["create", "publish", "create", "create", "publish"]);
    expect(asked.every((c) => c.caller.via === "management_credential")).toBe(true);
    expect(asked[2]?.fields).toMatchObject({ title: "A FORBIDDEN post" });
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
