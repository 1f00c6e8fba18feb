import { sanitiseRichText } from "../../../content/rich-text";

/** A shortcode's tag (`[gallery ids="1,2"]`, `[/caption]`): a letter first, so `[1]` is text. */
const SHORTCODE = /\[(\/?)([A-Za-z][\w-]*)((?:\s[^\]]*)?)\/?\]/g;
/** Block-level markup that tells the content was written as HTML (block editor or hand-written). */
const HAS_BLOCKS = /<(p|div|h[1-6]|ul|ol|table|blockquote|figure|pre)[\s>]|<!-- wp:/i;

/**
 * WordPress's classic content keeps paragraphs as blank lines (the theme adds `<p>` at display,
 * `wpautop`): blank-line-separated text becomes paragraphs, single line breaks `<br>`.
 */
function paragraphs(content: string): string {
  if (HAS_BLOCKS.test(content)) return content;
  return content
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${p.replace(/\r?\n/g, "<br>")}</p>`)
    .join("");
}

export interface ConvertedContent {
  html: string;
  /** What was left out: `shortcode:<name>` for each shortcode, then what the sanitiser dropped (`script`, `iframe`, `#comment`…). */
  dropped: string[];
}

/**
 * A post's content as Driftwood's canonical rich text (docs/imports.md, "Content"): shortcodes are
 * removed (an enclosing one keeps its inner text) and named, paragraphs made explicit, then the
 * one sanitiser (docs/rich-text.md) makes it canonical and says what else it dropped. Nothing is
 * dropped silently: the caller reports `dropped` as a `rich_markup_dropped` finding.
 */
export function convertContent(content: string): ConvertedContent {
  const shortcodes = new Set<string>();
  const withoutShortcodes = content.replace(SHORTCODE, (_whole, _close: string, name: string) => {
    shortcodes.add(`shortcode:${name.toLowerCase()}`);
    return "";
  });
  const sanitised = sanitiseRichText(paragraphs(withoutShortcodes));
  return { html: sanitised.html, dropped: [...shortcodes, ...sanitised.dropped] };
}
