/** Size limits of field values, and how text is measured against them (code points, UTF-8 bytes). */

/** The most UTF-8 bytes a rich_text value may hold, whatever its max_length. */
export const RICH_TEXT_MAX_BYTES = 262_144;
/** The most characters a slug value may hold. */
export const SLUG_MAX_LENGTH = 200;
/** The form of a slug value: lowercase letters and digits in hyphen-separated runs. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The most characters a media or entry id may hold. */
export const ID_MAX_LENGTH = 64;

/** Characters as people count them: Unicode code points, so an emoji is one, not two. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Bytes of `text` encoded as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
