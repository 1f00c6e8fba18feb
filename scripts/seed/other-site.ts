/** The other site: one article model and a few published articles, to show that sites never mix. */
import { createEntry, publishEntry, type LifecycleContext } from "../../shared/services/lifecycle";
import { OTHER_ARTICLES } from "./content";
import { addModel, apply } from "./seed-apply";
import { dateOnly, DAY, FIRST_ARTICLE_DAY, hours, SETUP_AT, type SeedClock } from "./seed-clock";

export async function seedOtherSite(ctx: LifecycleContext, clock: SeedClock, log: string[]): Promise<void> {
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
