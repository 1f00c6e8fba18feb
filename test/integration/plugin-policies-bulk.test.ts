import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pluginCalls } from "../helpers/fake-plugin";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, seedSite } from "../helpers/fixtures";
import { manage, newKey } from "../helpers/manage-api";
import { setup } from "../helpers/policy-plugin";

/** Content policies asked by bulk actions (issue #26, docs/plugin-policies.md "Bulk actions"). */
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
