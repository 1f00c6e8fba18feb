/** The demo site's content: authors, categories, media, homepage, notes and articles with their history. */
import type { Model } from "../../shared/repositories/model-repository";
import { addLanguage, createEntry, publishEntry, unpublishEntry, type EntryView, type LifecycleContext } from "../../shared/services/lifecycle";
import { seedRulesDemo } from "./rules-demo";
import {
  AUTHORS,
  CATEGORIES,
  DRAFT_ARTICLES,
  HOMEPAGE,
  NOTES,
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
import type { SeedEnv } from "./demo-spec";
import { demoMedia } from "./media";
import { seedCategoryParents, seedRelatedArticles } from "./relations";
import { articleRuleValues } from "./content-rules";
import { tideTablesBody } from "./rich-text";
import { demoModels } from "./demo-models";
import { apply } from "./seed-apply";
import { dateOnly, DAY, FIRST_ARTICLE_DAY, hours, SETUP_AT, type SeedClock } from "./seed-clock";

export async function seedDemoSite(env: SeedEnv, ctx: LifecycleContext, clock: SeedClock, log: string[]): Promise<string> {
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
  await seedRulesDemo(ctx, log);

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
      // Its own SEO too: a new language starts from its source's values, and the English page head on a French page is wrong.
      const seo = { title: spec.fr.title.slice(0, 70), description: spec.fr.summary.slice(0, 160) };
      // And its own FAQ where the English has one (probe finding: the French page repeated the English question and answer).
      const faq = "faq" in fields ? { faq: [{ question: `De quoi parle « ${spec.fr.title.slice(0, 60)} » ?`, answer: spec.fr.summary }] } : {};
      const fr = await apply(ctx, addLanguage(ctx, { instance_id: entry.instance_id, lang: "fr", fields: { title: spec.fr.title, summary: spec.fr.summary, body: frenchBody(spec, index), seo, ...faq } }));
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

