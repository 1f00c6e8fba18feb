/**
 * Generated WordPress exports for the import step tests: a WXR 1.2 channel with one author
 * (`writer`) and `categories` flat categories `topic-1`…`topic-n` ("Topic n"), around items the
 * test writes (real exports from WordPress are under test/fixtures/wordpress for the rest).
 */
import type { Model } from "../../shared/repositories/model-repository";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { addModel } from "./fixtures";

/** The `<category>` element of an item in topic `n` (1-based). */
export const topicCategory = (n: number): string => `<category domain="category" nicename="topic-${n}"><![CDATA[Topic ${n}]]></category>`;

/** A WXR document titled `title` with `categories` topics and these `<item>` elements. */
export function wxrWithTopics(title: string, categories: number, items: string[]): string {
  const terms = Array.from(
    { length: categories },
    (_, c) =>
      `<wp:category><wp:term_id>${c + 1}</wp:term_id><wp:category_nicename><![CDATA[topic-${c + 1}]]></wp:category_nicename><wp:category_parent><![CDATA[]]></wp:category_parent><wp:cat_name><![CDATA[Topic ${c + 1}]]></wp:cat_name></wp:category>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>${title}</title><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login><![CDATA[writer]]></wp:author_login><wp:author_email><![CDATA[writer@example.org]]></wp:author_email><wp:author_display_name><![CDATA[Writer]]></wp:author_display_name></wp:author>
${terms.join("\n")}
${items.join("\n")}
</channel></rss>
`;
}

/** The models these exports import into: `topic` (a title) and `post` (title, rich-text body, categories relating topics). */
export async function addTopicAndPostModels(ctx: LifecycleContext): Promise<{ topic: Model; post: Model }> {
  const topic = await addModel(ctx, { slug: "topic", name: "Topic", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const post = await addModel(ctx, {
    slug: "post",
    name: "Post",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [topic.id] },
    ],
  });
  return { topic, post };
}
