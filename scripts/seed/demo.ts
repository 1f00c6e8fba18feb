/**
 * The demo seed: two sites, one admin, models and content, written through the real services
 * (provisionSite, createModel, createEntry, addLanguage, publishEntry, unpublishEntry, trashEntry)
 * and committed with commitPlan, so published snapshots are exactly what the lifecycle builds.
 *
 * Idempotent: when site `demo` already exists nothing is written and the existing ids are read back.
 * Runs inside workerd: from scripts/seed/seed-worker.ts (npm run seed) and from the integration test.
 */
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { isoAt, systemClock, type Clock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { SiteSettings } from "../../shared/content/site-settings";
import { findSiteById, type Site } from "../../shared/repositories/site-repository";
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import {
  addLanguage,
  commitPlan,
  createEntry,
  publishEntry,
  trashEntry,
  unpublishEntry,
  type Actor,
  type EntryView,
  type LifecycleContext,
  type WritePlan,
} from "../../shared/services/lifecycle";
import { createModel, type CreateModelInput } from "../../shared/services/models/create-model";
import { grantMembership, provisionPerson, provisionSite } from "../../shared/services/sites";
import {
  AUTHORS,
  CATEGORIES,
  DRAFT_ARTICLES,
  HOMEPAGE,
  NOTES,
  OTHER_ARTICLES,
  PLACES,
  PUBLISHED_ARTICLES,
  TRASHED_ARTICLE,
  UNPUBLISHED_ARTICLES,
  englishBody,
  frenchBody,
  type ArticleSpec,
  type AuthorKey,
  type CategoryKey,
} from "./content";
import { demoMedia } from "./media";
import { addRelatedField, seedCategoryParents, seedRelatedArticles } from "./relations";
import { ARTICLE_RULE_FIELDS, articleRuleValues } from "./content-rules";
import { tideTablesBody } from "./rich-text";

/** The demo login. Documented in docs/local-run.md; never use it outside a local database. */
export const DEMO_ADMIN = { email: "admin@demo.localhost", password: "driftwood-demo", name: "Demo Admin" } as const;

export interface DemoSiteSpec {
  slug: string;
  name: string;
  host: string;
  default_lang: string;
  languages: readonly string[];
  settings: Partial<SiteSettings>;
}

export const DEMO_SITES: readonly DemoSiteSpec[] = [
  {
    slug: "demo",
    name: "Driftwood Demo",
    host: "demo.localhost",
    default_lang: "en",
    languages: ["en", "fr"],
    // fr falls back to en when an item has no published French content.
    settings: { locale_fallback: ["en"], locale_fallback_enabled: true },
  },
  { slug: "other", name: "Other Site", host: "other.localhost", default_lang: "en", languages: ["en"], settings: {} },
];

/** Bindings the seed needs: the D1 database, and optionally the media bucket for the image bytes. */
export interface SeedEnv {
  DB: D1Database;
  MEDIA?: R2Bucket;
}

export interface DemoSite {
  id: string;
  slug: string;
  host: string;
  default_lang: string;
  languages: string[];
}

export interface DemoCounts {
  published_articles: Record<string, number>;
  drafts: number;
  unpublished: number;
  trashed: number;
  authors: number;
  categories: Record<string, number>;
  notes: number;
  media: number;
  other_published_articles: number;
}

export interface DemoSeedResult {
  /** True when this call wrote the demo; false when it was already there. */
  created: boolean;
  sites: DemoSite[];
  admin: { email: string; password: string };
  /** The demo admin's person id (acts for the seed's credentials). */
  admin_id: string;
  counts: DemoCounts;
  /** Progress lines, for the caller to print where it likes (stdout stays for --json). */
  log: string[];
}

export class IncompleteSeedError extends Error {
  override name = "IncompleteSeedError";
}

/** A clock the seed moves by hand, so the demo's history spreads over months instead of one second. */
class SeedClock implements Clock {
  private at: number | null = null;
  set(ms: number | null): void {
    this.at = ms;
  }
  now(): number {
    return this.at ?? systemClock.now();
  }
}

const DAY = 86_400_000;
/** The first article's date; the others follow every four days. */
const FIRST_ARTICLE_DAY = Date.UTC(2025, 8, 1);
/** Sites, people, models, authors and categories are dated two weeks before the first article. */
const SETUP_AT = FIRST_ARTICLE_DAY - 14 * DAY;

const dateOnly = (ms: number) => isoAt(ms).slice(0, 10);
const hours = (n: number) => n * 3_600_000;

function adminActor(personId: string): Actor {
  const role = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!role) throw new Error("no seeded admin role");
  // The seed acts as the system, on behalf of the demo admin (who then owns the entries).
  return { kind: "system", id: personId, permissions: structuredClone(role.permissions) };
}

async function apply<T>(ctx: LifecycleContext, plan: Promise<WritePlan<T>>): Promise<T> {
  return (await commitPlan(ctx, await plan)).answer;
}

/** Seeds the demo unless site `demo` exists; either way answers the ids as D1 holds them. */
export async function seedDemo(env: SeedEnv): Promise<DemoSeedResult> {
  const log: string[] = [];
  const db = createDb(env.DB);
  const existing = await db.selectFrom("sites").select("id").where("slug", "=", "demo").executeTakeFirst();
  if (existing) {
    await requireComplete(env.DB, existing.id);
    log.push("Site demo already exists: nothing written.");
    return { created: false, ...(await readDemo(env.DB)), log };
  }

  const clock = new SeedClock();
  const setupAt = isoAt(SETUP_AT);

  // 1. The admin person, both sites, their hosts and roles, and the memberships: one atomic batch,
  //    so either both sites exist or neither does.
  const person = await db.selectFrom("persons").select("id").where("email", "=", DEMO_ADMIN.email).executeTakeFirst();
  const provisionedPerson = person ? undefined : await provisionPerson(db, { email: DEMO_ADMIN.email, name: DEMO_ADMIN.name, password: DEMO_ADMIN.password }, setupAt);
  const personId = person?.id ?? provisionedPerson?.personId ?? "";
  const statements = [...(provisionedPerson?.statements ?? [])];
  const siteIds: string[] = [];
  for (const spec of DEMO_SITES) {
    const provisioned = provisionSite(
      db,
      { slug: spec.slug, name: spec.name, default_lang: spec.default_lang, languages: [...spec.languages], hosts: [spec.host], settings: structuredClone(spec.settings) },
      setupAt,
    );
    const adminRole = provisioned.roleIds.admin;
    if (!adminRole) throw new Error("provisionSite made no admin role");
    statements.push(...provisioned.statements, grantMembership(db, provisioned.siteId, personId, adminRole, setupAt));
    siteIds.push(provisioned.siteId);
  }
  await commit(env.DB, statements);
  log.push(`Created ${DEMO_ADMIN.email} and sites ${DEMO_SITES.map((s) => s.slug).join(", ")}.`);

  const [demoSite, otherSite] = await Promise.all(siteIds.map((id) => findSiteById(db, id)));
  if (!demoSite || !otherSite) throw new Error("sites not created");
  const actor = adminActor(personId);
  const context = (site: Site): LifecycleContext => ({ db, d1: env.DB, scope: siteScope(site.id), site, actor, clock });

  const demo = context(demoSite);
  const trashCandidate = await seedDemoSite(env, demo, clock, log);
  await seedOtherSite(context(otherSite), clock, log);

  // Last step, on purpose: a trashed article in `demo` marks a complete seed (see requireComplete).
  clock.set(null);
  await apply(demo, trashEntry(demo, { instance_id: trashCandidate }));
  log.push("Moved 1 article to Trash.");

  return { created: true, ...(await readDemo(env.DB)), log };
}

async function seedDemoSite(env: SeedEnv, ctx: LifecycleContext, clock: SeedClock, log: string[]): Promise<string> {
  clock.set(SETUP_AT + hours(1));
  const models = await demoModels(ctx);
  log.push("demo: models article, author, category, note, homepage.");

  // Authors and categories (with their French titles), published before anything links to them.
  const authors = new Map<AuthorKey, string>();
  for (const a of AUTHORS) {
    const entry = await apply(ctx, createEntry(ctx, { model_id: models.author.id, slug: a.slug, fields: { name: a.name, bio: a.bio } }));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    authors.set(a.key, entry.instance_id);
  }
  const categories = new Map<CategoryKey, string>();
  for (const c of CATEGORIES) {
    const entry = await apply(ctx, createEntry(ctx, { model_id: models.category.id, slug: c.slug, fields: { title: c.title } }));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    const fr = await apply(ctx, addLanguage(ctx, { instance_id: entry.instance_id, lang: "fr", fields: { title: c.fr } }));
    await apply(ctx, publishEntry(ctx, { instance_id: fr.instance_id }));
    categories.set(c.key, entry.instance_id);
  }
  log.push(`demo: ${AUTHORS.length} authors, ${CATEGORIES.length} categories (en + fr).`);
  // Relations: categories in a parent hierarchy (scripts/seed/relations.ts).
  await seedCategoryParents(ctx, apply, categories);
  log.push("demo: category hierarchy (parent links).");

  const media = await demoMedia(env, ctx);
  const cover = media[0] ?? null;
  log.push(`demo: ${media.length} media files${env.MEDIA ? " (bytes in R2)" : ""}.`);

  const home = await apply(ctx, createEntry(ctx, { model_id: models.homepage.id, slug: "home", fields: { ...HOMEPAGE } }));
  await apply(ctx, publishEntry(ctx, { instance_id: home.instance_id }));
  for (const note of NOTES) {
    const entry = await apply(ctx, createEntry(ctx, { model_id: models.note.id, fields: { ...note } }));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
  }
  log.push(`demo: homepage and ${NOTES.length} private notes published.`);

  const articleFields = (spec: ArticleSpec, index: number, day: number, withCover: boolean): Record<string, unknown> => ({
    title: spec.title,
    summary: spec.summary,
    body: englishBody(spec, index),
    published_date: dateOnly(day),
    author: authors.get(spec.author) ?? null,
    categories: spec.categories.map((c) => categories.get(c) ?? ""),
    ...(withCover && cover ? { cover } : {}),
    ...(spec.place ? { location: { ...PLACES[spec.place] } } : {}),
    ...articleRuleValues(spec, index),
  });

  // Published articles, one every four days; every fourth has the cover image.
  let french = 0;
  const publishedArticles: string[] = [];
  for (const [index, spec] of PUBLISHED_ARTICLES.entries()) {
    const day = FIRST_ARTICLE_DAY + index * 4 * DAY;
    clock.set(day + hours(8));
    const fields = articleFields(spec, index, day, index % 4 === 0);
    // The first article shows a table, a gallery and an embed (scripts/seed/rich-text.ts).
    if (index === 0) fields.body = await tideTablesBody(ctx, media);
    const entry = await apply(ctx, createEntry(ctx, { model_id: models.article.id, fields }));
    clock.set(day + hours(9));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    publishedArticles.push(entry.instance_id);
    if (spec.fr) {
      clock.set(day + DAY + hours(10));
      const fr = await apply(ctx, addLanguage(ctx, { instance_id: entry.instance_id, lang: "fr", fields: { title: spec.fr.title, summary: spec.fr.summary, body: frenchBody(spec, index) } }));
      await apply(ctx, publishEntry(ctx, { instance_id: fr.instance_id }));
      french += 1;
    }
  }
  log.push(`demo: ${PUBLISHED_ARTICLES.length} published articles, ${french} with a published French translation.`);
  // Relations: ordered related articles (scripts/seed/relations.ts).
  const related = await seedRelatedArticles(ctx, apply, publishedArticles);
  log.push(`demo: ${related} articles with ordered related articles.`);

  // Published, then withdrawn.
  const afterLast = FIRST_ARTICLE_DAY + PUBLISHED_ARTICLES.length * 4 * DAY;
  for (const [offset, spec] of UNPUBLISHED_ARTICLES.entries()) {
    const index = PUBLISHED_ARTICLES.length + offset;
    const day = afterLast + offset * 3 * DAY;
    clock.set(day + hours(8));
    const entry = await createArticle(ctx, models.article, articleFields(spec, index, day, false));
    clock.set(day + hours(9));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
    clock.set(day + 2 * DAY + hours(11));
    await apply(ctx, unpublishEntry(ctx, { instance_id: entry.instance_id }));
  }
  log.push(`demo: ${UNPUBLISHED_ARTICLES.length} articles published then unpublished.`);

  // Drafts and the Trash candidate are written now (real time): they have no publication history.
  clock.set(null);
  for (const [offset, spec] of DRAFT_ARTICLES.entries()) {
    const index = PUBLISHED_ARTICLES.length + UNPUBLISHED_ARTICLES.length + offset;
    await createArticle(ctx, models.article, articleFields(spec, index, Date.now(), false));
  }
  log.push(`demo: ${DRAFT_ARTICLES.length} draft articles.`);
  const trash = await createArticle(ctx, models.article, { title: TRASHED_ARTICLE.title, summary: TRASHED_ARTICLE.summary });
  return trash.instance_id;
}

function createArticle(ctx: LifecycleContext, model: Model, fields: Record<string, unknown>): Promise<EntryView> {
  return apply(ctx, createEntry(ctx, { model_id: model.id, fields }));
}

async function addModel(ctx: LifecycleContext, input: CreateModelInput): Promise<Model> {
  return apply(ctx, createModel(ctx, input));
}

async function demoModels(ctx: LifecycleContext): Promise<Record<"article" | "author" | "category" | "note" | "homepage", Model>> {
  const author = await addModel(ctx, {
    slug: "author",
    name: "Author",
    description: "People who write for the journal.",
    fields: [
      { key: "name", label: "Name", type: "text", required: true, title: true, validation: { max_length: 120 } },
      { key: "bio", label: "Bio", type: "long_text" },
    ],
  });
  const category = await addModel(ctx, {
    slug: "category",
    name: "Category",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 80 } },
      // A hierarchy (parent) link: targets default to the model itself (docs/content-rules-relations.md).
      { key: "parent", label: "Parent category", type: "relation", relation: "many_to_one", hierarchy: true },
    ],
  });
  const article = await addModel(ctx, {
    slug: "article",
    name: "Article",
    description: "Stories, guides and field notes. The address is the entry slug.",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 200 } },
      { key: "summary", label: "Summary", type: "long_text", validation: { max_length: 500 } },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "published_date", label: "Published date", type: "date" },
      { key: "author", label: "Author", type: "relation", targets: [author.id] },
      { key: "categories", label: "Categories", type: "relation", relation: "many_to_many", multiple: true, targets: [category.id], validation: { max_items: 5 } },
      { key: "cover", label: "Cover", type: "media" },
      { key: "location", label: "Location", type: "location" },
      ...ARTICLE_RULE_FIELDS,
    ],
  });
  // The ordered related-articles list targets the article model itself, so it is added once the model exists.
  await addRelatedField(ctx, apply, article);
  const articleNow = (await modelRepository(ctx.db, ctx.scope).findById(article.id)) ?? article;
  const note = await addModel(ctx, {
    slug: "note",
    name: "Note",
    description: "Internal notes for the editors; never served publicly.",
    is_public: false,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "long_text" },
    ],
  });
  const homepage = await addModel(ctx, {
    slug: "homepage",
    name: "Homepage",
    kind: "single",
    fields: [
      { key: "headline", label: "Headline", type: "text", required: true, title: true },
      { key: "intro", label: "Intro", type: "long_text" },
    ],
  });
  return { article: articleNow, author, category, note, homepage };
}

async function seedOtherSite(ctx: LifecycleContext, clock: SeedClock, log: string[]): Promise<void> {
  clock.set(SETUP_AT + hours(2));
  const article = await addModel(ctx, {
    slug: "article",
    name: "Article",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 200 } },
      { key: "summary", label: "Summary", type: "long_text" },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "published_date", label: "Published date", type: "date" },
    ],
  });
  for (const [index, spec] of OTHER_ARTICLES.entries()) {
    const day = FIRST_ARTICLE_DAY + (index * 9 + 2) * DAY;
    clock.set(day + hours(8));
    const entry = await apply(
      ctx,
      createEntry(ctx, {
        model_id: article.id,
        slug: spec.slug,
        fields: { title: spec.title, summary: spec.summary, body: `<p>${spec.summary}</p><p>This article belongs to the other site; its address may match one in the demo site, its content never does.</p>`, published_date: dateOnly(day) },
      }),
    );
    clock.set(day + hours(9));
    await apply(ctx, publishEntry(ctx, { instance_id: entry.instance_id }));
  }
  log.push(`other: model article and ${OTHER_ARTICLES.length} published articles.`);
}

/** A seed that stopped part way leaves `demo` without its trashed article; say so instead of pretending. */
async function requireComplete(d1: D1Database, demoSiteId: string): Promise<void> {
  const row = await d1.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND trashed_at IS NOT NULL").bind(demoSiteId).first<{ n: number }>();
  if ((row?.n ?? 0) === 0) {
    throw new IncompleteSeedError(
      "Site demo exists but its seed did not finish (an earlier run stopped part way). Delete the local database (rm -rf .wrangler/state/v3/d1) and run `npm run seed` again.",
    );
  }
}

/** The demo as D1 holds it: site ids (read back, so every run answers the same ones) and counts. */
export async function readDemo(d1: D1Database): Promise<Omit<DemoSeedResult, "created" | "log">> {
  const sites: DemoSite[] = [];
  for (const spec of DEMO_SITES) {
    const row = await d1
      .prepare("SELECT s.id, s.slug, s.default_lang, s.languages, (SELECT min(host) FROM site_hosts h WHERE h.site_id = s.id) AS host FROM sites s WHERE s.slug = ?")
      .bind(spec.slug)
      .first<{ id: string; slug: string; default_lang: string; languages: string; host: string | null }>();
    if (!row) throw new IncompleteSeedError(`Site ${spec.slug} is missing from the local database.`);
    sites.push({ id: row.id, slug: row.slug, host: row.host ?? spec.host, default_lang: row.default_lang, languages: JSON.parse(row.languages) as string[] });
  }
  const [demo, other] = sites;
  if (!demo || !other) throw new Error("unreachable");
  const admin = await d1.prepare("SELECT id FROM persons WHERE email = ?").bind(DEMO_ADMIN.email).first<{ id: string }>();
  if (!admin) throw new IncompleteSeedError("The demo admin is missing from the local database.");
  return { sites, admin: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }, admin_id: admin.id, counts: await countDemo(d1, demo.id, other.id) };
}

async function countDemo(d1: D1Database, demoId: string, otherId: string): Promise<DemoCounts> {
  const number = async (sql: string, ...params: unknown[]) => (await d1.prepare(sql).bind(...params).first<{ n: number }>())?.n ?? 0;
  const perLang = async (siteId: string, model: string) => {
    const { results } = await d1
      .prepare("SELECT p.lang, count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ? GROUP BY p.lang ORDER BY p.lang")
      .bind(siteId, model)
      .all<{ lang: string; n: number }>();
    return Object.fromEntries(results.map((r) => [r.lang, r.n]));
  };
  const entriesOf = "FROM entries e JOIN models m ON m.id = e.model_id WHERE e.site_id = ? AND m.slug = ?";
  return {
    published_articles: await perLang(demoId, "article"),
    drafts: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NULL AND e.first_published_at IS NULL`, demoId, "article"),
    unpublished: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NULL AND e.workflow_state = 'unpublished'`, demoId, "article"),
    trashed: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NOT NULL`, demoId, "article"),
    authors: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, demoId, "author"),
    categories: await perLang(demoId, "category"),
    notes: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, demoId, "note"),
    media: await number("SELECT count(*) AS n FROM media WHERE site_id = ?", demoId),
    other_published_articles: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, otherId, "article"),
  };
}

