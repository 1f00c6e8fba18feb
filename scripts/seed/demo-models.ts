/** The demo site's models: author, category, article (with its related-articles list), note and homepage. */
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { ARTICLE_RULE_FIELDS } from "./content-rules";
import { addRelatedField } from "./relations";
import { addModel, apply } from "./seed-apply";

export async function demoModels(ctx: LifecycleContext): Promise<Record<"article" | "author" | "category" | "note" | "homepage", Model>> {
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
