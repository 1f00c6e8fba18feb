/**
 * Files derived from the real WordPress exports in test/fixtures/wordpress/ (their README): a test
 * keeps only some items, or adds what a plugin writes, so that what it checks is exactly what differs
 * from a real export. Nothing else of the file is touched.
 */

const ITEM = /<item>[\s\S]*?<\/item>/g;
const postIdOf = (item: string) => /<wp:post_id>(?:<!\[CDATA\[)?(\d+)/.exec(item)?.[1] ?? "";

/** The file with only the items whose `wp:post_id` is listed (its channel head — authors, terms — kept whole). */
export function keepItems(file: string, postIds: readonly string[]): string {
  const head = file.slice(0, file.indexOf("<item>"));
  const items = [...file.matchAll(ITEM)].map((m) => m[0]).filter((item) => postIds.includes(postIdOf(item)));
  return `${head}${items.join("\n")}\n</channel>\n</rss>\n`;
}

/** The file with one item's element text replaced (`<wp:attachment_url>` of an attachment, say). */
export function replaceInItem(file: string, postId: string, from: string, to: string): string {
  return file.replace(ITEM, (item) => (postIdOf(item) === postId ? item.split(from).join(to) : item));
}

/**
 * The markers Polylang's export writes on an item (its language, and the translation group shared
 * by the item and its translations), as `<category>` elements of the `language` and
 * `post_translations` taxonomies, the way WordPress's exporter writes every taxonomy of an item.
 */
export function withPolylang(file: string, markers: Readonly<Record<string, { lang: string; group: string }>>): string {
  return file.replace(ITEM, (item) => {
    const marker = markers[postIdOf(item)];
    if (!marker) return item;
    const added = `\t<category domain="language" nicename="${marker.lang}"><![CDATA[${marker.lang}]]></category>\n\t<category domain="post_translations" nicename="${marker.group}"><![CDATA[${marker.group}]]></category>\n`;
    return item.replace(/<\/item>$/, `${added}</item>`);
  });
}
