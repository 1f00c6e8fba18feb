import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/index";
import { settle } from "../../workers/forward";
import type { WriteAnswer, WriteRequest } from "../../objects/site/commands";
import { IdempotencyLedger, RETENTION_DEFAULT_MS } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner, type PlanBuilder } from "../../objects/site/write-runner";
import { systemClock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { cloudflarePurger, MAX_TAGS_PER_PURGE_CALL } from "../../shared/public/cache-purge";
import * as lifecycle from "../../shared/services/lifecycle";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { createModel } from "../../shared/services/models/create-model";
import { createPreview } from "../../shared/services/preview/entry-preview";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { inSiteStorage } from "../helpers/site-storage";

/** A token only this file knows: it must never reach console output. */
const TOKEN = "cfpurge-secret-3b9f1c7e0d2a";

interface PurgeCall {
  zone: string;
  path: string;
  authorization: string | null;
  tags: string[];
}

let zones = 0;
/** Each test purges into its own zone id, so recorded calls never mix between tests or files. */
const newZone = () => `zone-${Date.now().toString(36)}-${(zones++).toString(36)}`;

/** The worker's env with caching on and (unless `zone` is undefined) purge credentials. */
function purgeEnv(zone: string | undefined, maxAge = "60"): Env {
  return { ...env, PUBLIC_CACHE_MAX_AGE: maxAge, ...(zone === undefined ? {} : { CF_PURGE_ZONE_ID: zone, CF_PURGE_API_TOKEN: TOKEN }) };
}
const cachingOn = (): Env => ({ ...env, PUBLIC_CACHE_MAX_AGE: "60" });
const cachingOff = (): Env => ({ ...env, PUBLIC_CACHE_MAX_AGE: "0" });

async function recordedCalls(zone: string): Promise<PurgeCall[]> {
  const api = env.CF_PURGE_API;
  if (!api) throw new Error("CF_PURGE_API is not bound (vitest.config.ts)");
  const response = await api.fetch(`http://fake/calls?zone=${encodeURIComponent(zone)}`);
  return (await response.json()) as PurgeCall[];
}

/** Runs one write through a WriteRunner built over `runEnv` (wrangler vars cannot change per test). */
async function runWrite<I extends object, T>(runEnv: Env, request: WriteRequest<I>, build: PlanBuilder<I, T>, status = 200): Promise<WriteAnswer<T>> {
  const outcome = await inSiteStorage(`cache-purge-${request.siteId}`, (storage) =>
    new WriteRunner(runEnv, systemClock, new WriteQueue(), new IdempotencyLedger(storage, systemClock), new LeaseBook(storage, systemClock)).run(request, build, status),
  );
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}`);
  return outcome.value;
}

interface Read {
  status: number;
  body: string;
  cacheControl: string | null;
  tags: string[];
}

/** One public request through the worker's default export, with its waitUntil work finished. */
async function read(host: string, path: string, runEnv: Env, headers: Record<string, string> = {}): Promise<Read> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://${host}${path}`, { headers }), runEnv, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  const tagHeader = response.headers.get("cache-tag");
  return { status: response.status, body, cacheControl: response.headers.get("cache-control"), tags: tagHeader === null ? [] : tagHeader.split(",") };
}

async function publishNew(s: SeededSite, modelId: string, fields: Record<string, unknown>) {
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields }));
  return apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
}

/**
 * Author "Xena" (a draft), article "Depends" (published, links to Xena), article "Elsewhere" and
 * category "Culture" (published, unrelated to Xena).
 */
async function dependentSetup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const x = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.author.id, fields: { name: "Xena" } }));
  const d = await publishNew(s, models.article.id, { title: "Depends", author: x.instance_id });
  const e = await publishNew(s, models.article.id, { title: "Elsewhere" });
  const c = await publishNew(s, models.category.id, { title: "Culture" });
  return { s, models, x, d, e, c };
}

const asSet = (tags: readonly string[]) => new Set(tags);

afterEach(() => {
  vi.restoreAllMocks();
});


/**
 * Removes a site's published answers straight from D1 (no purge, no event): the published rows and
 * the served view lists read (docs/scale.md, "Served lists").
 */
async function withdrawBehindTheApi(siteId: string): Promise<void> {
  await env.DB.batch([env.DB.prepare("DELETE FROM published_items WHERE site_id = ?").bind(siteId), env.DB.prepare("DELETE FROM served_items WHERE site_id = ?").bind(siteId)]);
}

describe("cache purge after a write", () => {
  it("publish purges its model, its item, each re-rendered dependent and the dependents' models", async () => {
    const { s, models, x, d } = await dependentSetup();
    const zone = newZone();
    const published = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    const expected = [cacheTag.list(models.author.id), cacheTag.item(x.translation_group_id), cacheTag.item(d.translation_group_id), cacheTag.list(models.article.id)];
    expect(published.purge.evicted).toBe(true);
    expect(published.purge.reason).toBeUndefined();
    expect(asSet(published.purge.tags)).toEqual(asSet(expected));
    expect(published.purge.tags).toHaveLength(expected.length);
    const calls = await recordedCalls(zone);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe(`/client/v4/zones/${zone}/purge_cache`);
    expect(calls[0]?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(asSet(calls[0]?.tags ?? [])).toEqual(asSet(expected));

    // A draft is not served: saving one purges nothing and makes no call.
    const saved = await runWrite(
      purgeEnv(zone),
      { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id, expected_version_id: published.body.current_version_id ?? "", fields: { bio: "New bio" } } },
      lifecycle.saveDraft,
    );
    expect(saved.purge).toEqual({ tags: [], evicted: false });

    // Republished under the same slug: dependents' relation rows stay, so their model's lists stay.
    const republished = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    const sameSlug = [cacheTag.list(models.author.id), cacheTag.item(x.translation_group_id), cacheTag.item(d.translation_group_id)];
    expect(asSet(republished.purge.tags)).toEqual(asSet(sameSlug));
    expect(republished.purge.tags).toHaveLength(sameSlug.length);

    // Unpublished with no other language served: lists lose the dependent, and carry its item tag.
    const unpublished = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.unpublishEntry);
    expect(asSet(unpublished.purge.tags)).toEqual(asSet(sameSlug));
    expect(unpublished.purge.evicted).toBe(true);

    // Nothing served changes: create, Trash, restore, delete for good.
    const draft = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { model_id: models.author.id, fields: { name: "Yann" } } }, lifecycle.createEntry, 201);
    expect(draft.purge).toEqual({ tags: [], evicted: false });
    for (const build of [lifecycle.trashEntry, lifecycle.restoreEntry, lifecycle.trashEntry]) {
      const answer = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, build);
      expect(answer.purge).toEqual({ tags: [], evicted: false });
    }
    const gone = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.purgeEntry);
    expect(gone.purge).toEqual({ tags: [], evicted: false });
    expect(await recordedCalls(zone)).toHaveLength(3);

    // A model write purges its model tag.
    const model = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { slug: "page", name: "Page", fields: [{ key: "title", label: "Title", type: "text" }] } }, createModel, 201);
    expect(model.purge).toEqual({ tags: [cacheTag.model(model.body.id)], evicted: true });
  });

  it("every cached response a publish changes carries a purged tag; unrelated ones carry none", async () => {
    const { s, x } = await dependentSetup();
    const paths = [
      "/v1/article",
      "/v1/article/depends",
      "/v1/article/elsewhere",
      `/v1/article?relation=author:${x.instance_id}`,
      "/v1/article?tag=author:xena",
      "/v1/author",
      "/v1/category",
      "/v1/category/culture",
    ];
    const cached = new Map<string, Read>();
    for (const path of paths) {
      const answer = await read(s.host, path, cachingOn());
      expect(answer.status, path).toBe(200);
      cached.set(path, answer);
    }
    // The author's page does not exist yet: the 404 is not cached.
    expect((await read(s.host, "/v1/author/xena", cachingOn())).status).toBe(404);

    const zone = newZone();
    const published = await runWrite(purgeEnv(zone), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    const purged = asSet(published.purge.tags);
    const changed: string[] = [];
    for (const path of paths) {
      const before = cached.get(path);
      const fresh = await read(s.host, path, cachingOff());
      const hit = (before?.tags ?? []).some((t) => purged.has(t));
      if (fresh.body !== before?.body) {
        changed.push(path);
        expect(hit, `${path} changed but keeps its cached copy`).toBe(true);
      }
    }
    // The filtered lists gained "Depends" without mentioning it before: only the article model tag reaches them.
    expect(changed).toEqual(expect.arrayContaining([`/v1/article?relation=author:${x.instance_id}`, "/v1/article?tag=author:xena", "/v1/article/depends", "/v1/author"]));
    for (const path of ["/v1/category", "/v1/category/culture"]) {
      expect(changed).not.toContain(path);
      expect((cached.get(path)?.tags ?? []).some((t) => purged.has(t)), path).toBe(false);
    }
    expect((await read(s.host, "/v1/author/xena", cachingOn())).status).toBe(200);
  });

  it("splits 500 tags into ceil(500/30) calls, each tag once", async () => {
    const zone = newZone();
    const tags = Array.from({ length: 500 }, (_, i) => cacheTag.item(`grp_${i.toString().padStart(4, "0")}`));
    const result = await cloudflarePurger(purgeEnv(zone)).purgeTags([...tags, ...tags.slice(0, 60)]);
    expect(result).toEqual({ evicted: true });
    const calls = await recordedCalls(zone);
    expect(MAX_TAGS_PER_PURGE_CALL).toBe(30);
    expect(calls).toHaveLength(Math.ceil(500 / 30));
    for (const call of calls) {
      expect(call.tags.length).toBeLessThanOrEqual(MAX_TAGS_PER_PURGE_CALL);
      expect(call.authorization).toBe(`Bearer ${TOKEN}`);
    }
    expect(calls.flatMap((c) => c.tags).sort()).toEqual([...tags].sort());
  });

  it("without credentials the write succeeds and reports not_configured; with caching off, caching_off", async () => {
    const { s, x } = await dependentSetup();
    const answer = await runWrite(purgeEnv(undefined), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    expect(answer.body.workflow.state).toBe("published");
    expect(answer.purge.tags.length).toBeGreaterThan(0);
    expect(answer.purge).toMatchObject({ evicted: false, reason: "not_configured" });
    const zoneOnly = newZone();
    expect(await cloudflarePurger({ CF_PURGE_ZONE_ID: zoneOnly, CF_PURGE_API: env.CF_PURGE_API }).purgeTags(["s:x"])).toEqual({ evicted: false, reason: "not_configured" });
    expect(await cloudflarePurger({ CF_PURGE_API_TOKEN: TOKEN, CF_PURGE_API: env.CF_PURGE_API }).purgeTags(["s:x"])).toEqual({ evicted: false, reason: "not_configured" });
    expect(await recordedCalls(zoneOnly)).toEqual([]);

    // The real SiteObject under the default vars (PUBLIC_CACHE_MAX_AGE "0"): nothing is cached, no call.
    const outcome = await settle(env.SITE.getByName(s.site.id).unpublish({ siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }));
    if (!outcome.ok) throw new Error(outcome.error.code);
    expect(outcome.value.purge).toMatchObject({ evicted: false, reason: "caching_off" });
    expect(outcome.value.purge.tags).toContain(cacheTag.item(x.translation_group_id));
  });

  it("a refused purge reports purge_failed and the write stays committed", async () => {
    const { s, x } = await dependentSetup();
    const answer = await runWrite(purgeEnv("zone-fail"), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    expect(answer.purge).toMatchObject({ evicted: false, reason: "purge_failed" });
    const row = await env.DB.prepare("SELECT workflow_state, published_version_id FROM entries WHERE instance_id = ?").bind(x.instance_id).first<{ workflow_state: string; published_version_id: string | null }>();
    expect(row?.workflow_state).toBe("published");
    expect(row?.published_version_id).toBe(answer.body.current_version_id);
    expect((await read(s.host, "/v1/author/xena", cachingOff())).status).toBe(200);
  });

  it("succeeds only when every call answers success: true", async () => {
    const tags = Array.from({ length: 90 }, (_, i) => `i:grp_${i}`);
    for (const zone of ["zone-false", "zone-garbage"]) {
      expect(await cloudflarePurger(purgeEnv(zone)).purgeTags(tags.slice(0, 3)), zone).toEqual({ evicted: false, reason: "purge_failed" });
    }
    // One refused call of three: the others still run, the whole purge is reported failed.
    const before = (await recordedCalls("zone-second-fails")).length;
    expect(await cloudflarePurger(purgeEnv("zone-second-fails")).purgeTags(tags)).toEqual({ evicted: false, reason: "purge_failed" });
    expect((await recordedCalls("zone-second-fails")).length - before).toBe(3);
    // A call that outlives its timeout fails; the same call within it succeeds.
    expect(await cloudflarePurger(purgeEnv("zone-slow"), { timeoutMs: 50 }).purgeTags(["s:slow"])).toEqual({ evicted: false, reason: "purge_failed" });
    expect(await cloudflarePurger(purgeEnv("zone-slow")).purgeTags(["s:slow"])).toEqual({ evicted: true });
  });

  it("never writes the API token to the console", async () => {
    const printed: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        printed.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      });
    }
    const { s, x } = await dependentSetup();
    await runWrite(purgeEnv("zone-fail"), { siteId: s.site.id, actor: s.admin, input: { instance_id: x.instance_id } }, lifecycle.publishEntry);
    await cloudflarePurger(purgeEnv("zone-garbage")).purgeTags(["s:a"]);
    await cloudflarePurger(purgeEnv("zone-slow"), { timeoutMs: 20 }).purgeTags(["s:b"]);
    await cloudflarePurger(purgeEnv(newZone())).purgeTags(["s:c"]);
    expect(printed.some((line) => line.includes("cache purge"))).toBe(true);
    for (const line of printed) expect(line).not.toContain(TOKEN);
  });

  it("a replayed write reports no purge and makes no call", async () => {
    const { s, x } = await dependentSetup();
    const zone = newZone();
    const request = {
      siteId: s.site.id,
      actor: s.admin,
      input: { instance_id: x.instance_id },
      idempotency: { scope: "cred_purge", key: "publish-once", fingerprint: "fp", retentionMs: RETENTION_DEFAULT_MS },
    };
    const first = await runWrite(purgeEnv(zone), request, lifecycle.publishEntry);
    expect(first.purge.evicted).toBe(true);
    const again = await runWrite(purgeEnv(zone), request, lifecycle.publishEntry);
    expect(again.replayed).toBe(true);
    expect(again.purge).toEqual({ tags: [], evicted: false });
    expect(await recordedCalls(zone)).toHaveLength(1);
  });
});

describe("public answers with caching on", () => {
  it("are public with max-age, tagged with site, model and every item, and repeated from caches.default", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const ann = await publishNew(s, models.author.id, { name: "Ann" });
    const a1 = await publishNew(s, models.article.id, { title: "A1", author: ann.instance_id });
    const a2 = await publishNew(s, models.article.id, { title: "A2" });

    const list = await read(s.host, "/v1/article", cachingOn());
    expect(list.status).toBe(200);
    expect(list.cacheControl).toBe("public, max-age=60");
    const listTags = [cacheTag.site(s.site.id), cacheTag.model(models.article.id), cacheTag.list(models.article.id), cacheTag.item(a1.translation_group_id), cacheTag.item(ann.translation_group_id), cacheTag.item(a2.translation_group_id)];
    expect(asSet(list.tags)).toEqual(asSet(listTags));
    expect(list.tags).toHaveLength(listTags.length);
    const paged = await read(s.host, "/v1/article?limit=5&order=desc", cachingOn());
    const item = await read(s.host, "/v1/article/a1", cachingOn());
    expect(item.cacheControl).toBe("public, max-age=60");
    expect(asSet(item.tags)).toEqual(asSet([cacheTag.site(s.site.id), cacheTag.model(models.article.id), cacheTag.item(a1.translation_group_id), cacheTag.item(ann.translation_group_id)]));

    // Withdraw everything behind the API's back: the repeats still come from the cache.
    await withdrawBehindTheApi(s.site.id);
    const listAgain = await read(s.host, "/v1/article", cachingOn());
    expect(listAgain.body).toBe(list.body);
    expect(listAgain.tags).toEqual(list.tags);
    // The key ignores the order of parameters.
    expect((await read(s.host, "/v1/article?order=desc&limit=5", cachingOn())).body).toBe(paged.body);
    expect((await read(s.host, "/v1/article/a1", cachingOn())).body).toBe(item.body);
    // Caching off reads D1.
    const fresh = await read(s.host, "/v1/article", cachingOff());
    expect(JSON.parse(fresh.body)).toMatchObject({ data: [] });
    expect((await read(s.host, "/v1/article/a1", cachingOff())).status).toBe(404);
  });

  it("share one cursor between every order of the same filters, so a cached page's next page answers", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const ann = await publishNew(s, models.author.id, { name: "Ann" });
    const culture = await publishNew(s, models.category.id, { title: "Culture" });
    for (const title of ["One", "Two", "Three"]) await publishNew(s, models.article.id, { title, author: ann.instance_id, categories: [culture.instance_id] });
    const byAuthor = `relation=${encodeURIComponent(`author:${ann.instance_id}`)}`;
    const byCategory = `relation=${encodeURIComponent(`categories:${culture.instance_id}`)}`;

    const first = await read(s.host, `/v1/article?${byAuthor}&${byCategory}&limit=2`, cachingOn());
    expect(first.status).toBe(200);
    // The other order is the same cache entry, so this caller receives the first caller's cursor.
    const swapped = await read(s.host, `/v1/article?${byCategory}&${byAuthor}&limit=2`, cachingOn());
    expect(swapped.body).toBe(first.body);
    const cursor = (JSON.parse(swapped.body) as { page: { next_cursor: string } }).page.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    for (const order of [`${byCategory}&${byAuthor}`, `${byAuthor}&${byCategory}`]) {
      const next = await read(s.host, `/v1/article?${order}&limit=2&cursor=${encodeURIComponent(cursor)}`, cachingOn());
      expect(next.status, next.body).toBe(200);
      expect((JSON.parse(next.body) as { data: { slug: string }[] }).data.map((d) => d.slug)).toEqual(["one"]);
    }
  });

  it("answers with a token or a preview privately, never from or into the cache", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    await publishNew(s, models.article.id, { title: "First" });
    const token = { authorization: `Bearer dw_site_${"A".repeat(43)}` };

    const withToken = await read(s.host, "/v1/article", cachingOn(), token);
    expect(withToken.cacheControl).toBe("private, no-store");
    expect(withToken.tags).toEqual([]);
    await publishNew(s, models.article.id, { title: "Second" });
    // Not stored: the first anonymous request reads D1 (and is stored).
    const anonymous = await read(s.host, "/v1/article", cachingOn());
    expect(anonymous.body).toContain('"second"');
    await publishNew(s, models.article.id, { title: "Third" });
    expect((await read(s.host, "/v1/article", cachingOn())).body).toBe(anonymous.body);
    // Not served from the cache: the same key with a token reads D1.
    const tokenAgain = await read(s.host, "/v1/article", cachingOn(), token);
    expect(tokenAgain.body).toContain('"third"');
    expect(tokenAgain.cacheControl).toBe("private, no-store");

    // Preview: the draft, privately, each time from D1.
    const second = await read(s.host, "/v1/article/second", cachingOn());
    expect(second.cacheControl).toBe("public, max-age=60");
    const row = await env.DB.prepare("SELECT instance_id, current_version_id FROM entries WHERE site_id = ? AND slug = 'second'").bind(s.site.id).first<{ instance_id: string; current_version_id: string }>();
    const saved = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: row?.instance_id ?? "", expected_version_id: row?.current_version_id ?? "", fields: { title: "Second, edited" } }));
    const link = await createPreview(s.ctx(), { instance_id: row?.instance_id ?? "" });
    const preview = await read(s.host, link.url, cachingOn());
    expect(preview.status).toBe(200);
    expect(preview.cacheControl).toBe("private, no-store");
    expect(preview.body).toContain("Second, edited");
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: saved.instance_id, expected_version_id: saved.current_version_id ?? "", fields: { title: "Second, edited twice" } }));
    expect((await read(s.host, link.url, cachingOn())).body).toContain("Second, edited twice");
    expect((await read(s.host, "/v1/article/second", cachingOn())).body).toBe(second.body);
  });

  it("are no-store by default (PUBLIC_CACHE_MAX_AGE 0)", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    await publishNew(s, models.article.id, { title: "Only" });
    expect(env.PUBLIC_CACHE_MAX_AGE).toBe("0");
    for (const path of ["/v1/article", "/v1/article/only"]) {
      const answer = await read(s.host, path, env);
      expect(answer.cacheControl, path).toBe("no-store");
      expect(answer.tags, path).toEqual([]);
    }
    await withdrawBehindTheApi(s.site.id);
    expect(JSON.parse((await read(s.host, "/v1/article", env)).body)).toMatchObject({ data: [] });
  });
});
