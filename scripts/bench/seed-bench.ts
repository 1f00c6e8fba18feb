/**
 * The bench site: `bench.localhost` (en, fr; fr falls back to en) with models `author`, `category`
 * and `article`, written through the real services (provisionSite, createModel, createEntry,
 * addLanguage, publishEntry) and committed with commitPlan, so the published snapshots and their
 * filter index rows are exactly what the lifecycle builds. Runs inside workerd (bench-worker.ts).
 *
 * Articles: slug `article-00000`…; ~2 KB snapshots; every tenth links to the chosen author
 * (`author-00`), so the relation-filtered list has matches all the way down; every tenth (offset 5)
 * also has a published French translation, so the fr list mixes fr and en (fallback) items.
 *
 * `growArticles` is the exception: for the rows-read measurement at 10,000 items it copies the
 * published rows (published_items, published_relations) directly with SQL. Nothing else reads them.
 */
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { isoAt, type Clock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById, type Site } from "../../shared/repositories/site-repository";
import type { Model } from "../../shared/repositories/model-repository";
import { addLanguage, commitPlan, createEntry, publishEntry, type Actor, type LifecycleContext, type WritePlan } from "../../shared/services/lifecycle";
import { createModel, type CreateModelInput } from "../../shared/services/models/create-model";
import { updateSettings } from "../../shared/services/settings/site-settings";
import { grantMembership, provisionPerson, provisionSite } from "../../shared/services/sites/provision";

export const BENCH_HOST = "bench.localhost";
export const AUTHOR_COUNT = 10;
export const CHOSEN_AUTHOR_SLUG = "author-00";
const CATEGORY_COUNT = 5;
const HOUR = 3_600_000;
/** Articles are dated an hour apart from here; setup happens a day before. */
const FIRST_ARTICLE_AT = Date.UTC(2025, 0, 1);

/** What the article batches need to rebuild their context (the Node side passes it back). */
export interface BenchSite {
  site_id: string;
  person_id: string;
  article_model_id: string;
  author_ids: string[];
  category_ids: string[];
}

export const articleSlug = (i: number) => `article-${String(i).padStart(5, "0")}`;

/** A clock the seed sets by hand, so list order follows the article numbers. */
class FixedClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
}

function systemActor(personId: string): Actor {
  const role = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!role) throw new Error("no seeded admin role");
  return { kind: "system", id: personId, permissions: structuredClone(role.permissions) };
}

async function apply<T>(ctx: LifecycleContext, plan: Promise<WritePlan<T>>): Promise<T> {
  return (await commitPlan(ctx, await plan)).answer;
}

function context(d1: D1Database, site: Site, personId: string, clock: Clock): LifecycleContext {
  return { db: createDb(d1), d1, scope: siteScope(site.id), site, actor: systemActor(personId), clock };
}

/** Deterministic words (mulberry32), so every run writes the same ~2 KB bodies. */
function words(seed: number): (n: number) => string {
  const WORDS = [
    "tide", "harbour", "driftwood", "grain", "salt", "weather", "shore", "coast", "fog", "light", "granite", "oak",
    "cedar", "storm", "sand", "village", "boat", "rope", "glass", "wave", "current", "cliff", "island", "wind",
    "north", "south", "morning", "evening", "season", "winter", "summer", "patience", "workshop", "chisel", "plane",
    "varnish", "photograph", "exposure", "contrast", "shell", "nest", "gull", "estuary", "channel", "lighthouse",
    "keeper", "map", "compass", "journey", "walk", "path", "stone", "moss", "lichen", "river", "delta", "reef",
  ];
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (n) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)] ?? "sea").join(" ");
}

function articleFields(i: number, site: BenchSite): Record<string, unknown> {
  const w = words(i + 1);
  const sentence = () => {
    const s = w(12);
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = () => `<p>${Array.from({ length: 4 }, sentence).join(" ")}</p>`;
  return {
    title: `Article ${i}: ${w(5)}`,
    summary: `${sentence()} ${sentence()}`,
    body: `<h2>${w(4)}</h2>${Array.from({ length: 4 }, paragraph).join("")}<ul><li>${w(6)}</li><li>${w(6)}</li></ul>`,
    published_date: isoAt(FIRST_ARTICLE_AT + i * HOUR).slice(0, 10),
    author: site.author_ids[i % AUTHOR_COUNT] ?? null,
    categories: [site.category_ids[i % CATEGORY_COUNT] ?? "", site.category_ids[(i + 2) % CATEGORY_COUNT] ?? ""],
    internal_note: `private note ${i}: never served`,
  };
}

/** Site, person, models, authors and categories. Expects fresh storage. */
export async function provisionBenchSite(d1: D1Database): Promise<BenchSite> {
  const db = createDb(d1);
  const taken = await db.selectFrom("site_hosts").select("site_id").where("host", "=", BENCH_HOST).executeTakeFirst();
  if (taken) throw new Error(`${BENCH_HOST} already exists: the bench expects fresh storage`);
  const clock = new FixedClock(FIRST_ARTICLE_AT - 24 * HOUR);
  const at = isoAt(clock.now());
  const provisioned = provisionSite(
    db,
    { slug: "bench", name: "Bench", default_lang: "en", languages: ["en", "fr"], hosts: [BENCH_HOST], settings: { locale_fallback: ["en"], locale_fallback_enabled: true } },
    at,
  );
  const person = await provisionPerson(db, { email: "bench@bench.localhost", name: "Bench", password: "bench-only-password" }, at);
  const adminRole = provisioned.roleIds.admin;
  if (!adminRole) throw new Error("provisionSite made no admin role");
  await commit(d1, [...provisioned.statements, ...person.statements, grantMembership(db, provisioned.siteId, person.personId, adminRole, at)]);
  const site = await findSiteById(db, provisioned.siteId);
  if (!site) throw new Error("bench site not created");
  const ctx = context(d1, site, person.personId, clock);

  const addModel = (input: CreateModelInput): Promise<Model> => apply(ctx, createModel(ctx, input));
  const author = await addModel({
    slug: "author",
    name: "Author",
    fields: [
      { key: "name", label: "Name", type: "text", required: true, title: true },
      { key: "bio", label: "Bio", type: "long_text" },
    ],
  });
  const category = await addModel({
    slug: "category",
    name: "Category",
    fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }],
  });
  const article = await addModel({
    slug: "article",
    name: "Article",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 200 } },
      { key: "summary", label: "Summary", type: "long_text" },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "published_date", label: "Published date", type: "date" },
      { key: "author", label: "Author", type: "relation", targets: [author.id] },
      { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] },
      { key: "internal_note", label: "Internal note", type: "text", private: true },
    ],
  });

  // Search on over articles, as a site using search has it: every publish writes the search documents
  // too, and the search figures (search-bench.ts) read them.
  await apply(ctx, updateSettings(ctx, { search: { enabled: true, models: [article.id] } }));

  const publishNew = async (modelId: string, slug: string, fields: Record<string, unknown>): Promise<string> => {
    const entry = await apply(ctx, createEntry(ctx, { model_id: modelId, slug, fields }));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    return entry.instance_id;
  };
  const author_ids: string[] = [];
  for (let a = 0; a < AUTHOR_COUNT; a++) {
    const slug = `author-${String(a).padStart(2, "0")}`;
    author_ids.push(await publishNew(author.id, slug, { name: `Author ${a}`, bio: `Writes bench article number n where n mod ${AUTHOR_COUNT} is ${a}.` }));
  }
  const category_ids: string[] = [];
  for (let c = 0; c < CATEGORY_COUNT; c++) category_ids.push(await publishNew(category.id, `category-${c}`, { title: `Category ${c}` }));
  return { site_id: site.id, person_id: person.personId, article_model_id: article.id, author_ids, category_ids };
}

/** Creates and publishes articles [from, from + count) through the lifecycle; every tenth (offset 5) also in French. */
export async function seedArticles(d1: D1Database, bench: BenchSite, from: number, count: number): Promise<{ published: number; french: number }> {
  const site = await findSiteById(createDb(d1), bench.site_id);
  if (!site) throw new Error("bench site missing");
  const clock = new FixedClock(0);
  const ctx = context(d1, site, bench.person_id, clock);
  let french = 0;
  for (let i = from; i < from + count; i++) {
    const at = FIRST_ARTICLE_AT + i * HOUR;
    clock.at = at;
    const entry = await apply(ctx, createEntry(ctx, { model_id: bench.article_model_id, slug: articleSlug(i), fields: articleFields(i, bench) }));
    clock.at = at + 60_000;
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    if (i % 10 === 5) {
      const w = words(1_000_000 + i);
      clock.at = at + 120_000;
      const fr = await apply(
        ctx,
        addLanguage(ctx, { instance_id: entry.instance_id, lang: "fr", slug: `${articleSlug(i)}-fr`, fields: { title: `Article ${i} (fr) : ${w(5)}`, summary: w(30) } }),
      );
      clock.at = at + 180_000;
      await apply(ctx, publishEntry(ctx, { instance_id: fr.instance_id }));
      french += 1;
    }
  }
  return { published: count, french };
}

/**
 * Rows-read measurement only: copies the model's published rows (and their relation index rows)
 * until it has `target` items. Copies get new instance and group ids, slugs with `-x<n>`, and sort
 * keys a year older per copy, so they sort after the originals and keep the 1-in-10 author ratio.
 */
export async function growArticles(d1: D1Database, siteId: string, modelId: string, target: number): Promise<{ items: number; rows: number }> {
  const groups = async () =>
    (await d1.prepare("SELECT count(DISTINCT translation_group_id) AS n FROM published_items WHERE site_id = ? AND model_id = ?").bind(siteId, modelId).first<{ n: number }>())?.n ?? 0;
  // Copy k of an original is `<id>-x<k>`; growing again (10,000 then 100,000) adds the copies not made yet.
  const originals =
    (await d1
      .prepare("SELECT count(DISTINCT translation_group_id) AS n FROM published_items WHERE site_id = ? AND model_id = ? AND instance_id NOT LIKE '%-x%'")
      .bind(siteId, modelId)
      .first<{ n: number }>())?.n ?? 0;
  const made =
    (await d1
      .prepare("SELECT max(CAST(substr(instance_id, instr(instance_id, '-x') + 2) AS INTEGER)) AS k FROM published_items WHERE site_id = ? AND model_id = ? AND instance_id LIKE '%-x%'")
      .bind(siteId, modelId)
      .first<{ k: number | null }>())?.k ?? 0;
  const copies = originals === 0 ? 0 : Math.ceil(target / originals) - 1;
  if (copies > made) {
    const k = "WITH RECURSIVE k(n) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT n + 1 FROM k WHERE n < CAST(? AS INTEGER))";
    const older = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', julianday(${column}) - 366 * k.n)`;
    await d1.batch([
      d1
        .prepare(
          `${k} INSERT INTO published_items (site_id, instance_id, model_id, translation_group_id, lang, slug, label, version_id, published_at, sort_at, manual_position, body, mentions)
           SELECT p.site_id, p.instance_id || '-x' || k.n, p.model_id, p.translation_group_id || '-x' || k.n, p.lang, p.slug || '-x' || k.n, p.label, p.version_id,
                  p.published_at, ${older("p.sort_at")}, p.manual_position, json_set(p.body, '$.first_published_at', ${older("p.sort_at")}), p.mentions
           FROM published_items p, k WHERE p.site_id = ? AND p.model_id = ? AND p.instance_id NOT LIKE '%-x%'`,
        )
        .bind(made + 1, copies, siteId, modelId),
      d1
        .prepare(
          `${k} INSERT INTO published_relations (site_id, instance_id, model_id, lang, field, target_group_id, target_slug, translation_group_id, sort_at)
           SELECT r.site_id, r.instance_id || '-x' || k.n, r.model_id, r.lang, r.field, r.target_group_id, r.target_slug, r.translation_group_id || '-x' || k.n, ${older("r.sort_at")}
           FROM published_relations r, k WHERE r.site_id = ? AND r.model_id = ? AND r.instance_id NOT LIKE '%-x%'`,
        )
        .bind(made + 1, copies, siteId, modelId),
      // The served view (shared/services/lifecycle/served-view.ts) of the copies: the same rows under the copies' ids.
      d1
        .prepare(
          `${k} INSERT INTO served_items (site_id, model_id, lang, list_key, translation_group_id, instance_id, sort_at, manual_position, body, mentions)
           SELECT s.site_id, s.model_id, s.lang, s.list_key, s.translation_group_id || '-x' || k.n, s.instance_id || '-x' || k.n, ${older("s.sort_at")}, s.manual_position,
                  json_set(s.body, '$.first_published_at', ${older("s.sort_at")}), s.mentions
           FROM served_items s, k WHERE s.site_id = ? AND s.model_id = ? AND s.instance_id NOT LIKE '%-x%'`,
        )
        .bind(made + 1, copies, siteId, modelId),
    ]);
  }
  const rows = (await d1.prepare("SELECT count(*) AS n FROM published_items WHERE site_id = ? AND model_id = ?").bind(siteId, modelId).first<{ n: number }>())?.n ?? 0;
  return { items: await groups(), rows };
}
