/**
 * Checks and repairs of plain text that people name things with (file names, folder names, alt
 * texts, search terms): one place for what counts as a lone surrogate, a control character or a
 * bidirectional control (docs/media.md, "Text in names and alt texts").
 */

/** A UTF-16 surrogate without its partner: not Unicode text; D1 stores it as garbage. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** C0 controls, DEL and C1 controls (U+0080–U+009F). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this names
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), the
 * marks U+200E / U+200F and the Arabic letter mark U+061C. In a name they make `invoice\u202eexe.png`
 * display as "invoicegnp.exe".
 */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * The line and paragraph separators (U+2028, U+2029): not controls by category, but they break a
 * one-line name into two lines on a page, in a list or in a log, as a line feed would.
 */
export const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** The text with every lone surrogate replaced by U+FFFD (String#toWellFormed, ES2024). */
export function toWellFormedText(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
}

/** True when the text is well-formed UTF-16 (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** True when the text holds a C0 / C1 control character or DEL. */
export function hasControlCharacter(text: string): boolean {
  return new RegExp(CONTROL_CHARACTERS.source).test(text);
}

/** True when the text holds a line or paragraph separator (U+2028, U+2029). */
export function hasLineSeparator(text: string): boolean {
  return new RegExp(LINE_SEPARATORS.source).test(text);
}

/** True when the text holds a bidirectional control. */
export function hasBidiControl(text: string): boolean {
  return new RegExp(BIDI_CONTROLS.source).test(text);
}

/**
 * The text cut to at most `max` UTF-16 units (what `maxLength` counts) without cutting a surrogate
 * pair in two: a pair that would straddle the cut is dropped whole.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The length people count: code points (an emoji is one, though it takes two UTF-16 units). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Format characters (Unicode category Cf) that are part of what a name shows, so they are not
 * "invisible extras": the zero-width joiner inside an emoji sequence (👩‍💻), an emoji tag sequence
 * (🏴 flags of regions), and the joiners U+200C / U+200D after a letter or mark of a script whose
 * spelling needs them (Arabic, Persian, the Indic scripts, …; a Latin name never does).
 */
const EMOJI_ZWJ = /(?<=\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?)\u200d(?=\p{Extended_Pictographic})/gu;
const EMOJI_TAGS = /(?<=\u{1f3f4})[\u{e0020}-\u{e007e}]+\u{e007f}/gu;
const SCRIPT_JOINER =
  /(?<=[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tibetan}])[\u200c\u200d](?=\p{L}|\p{M})/gu;
/**
 * A variation selector choosing an emoji's text or emoji presentation (❤️, ☺︎, 🏳️‍🌈), or the one
 * inside a keycap (1️⃣): part of what the name shows.
 */
const EMOJI_PRESENTATION = /(?<=\p{Extended_Pictographic})[\ufe0e\ufe0f]|(?<=[0-9#*])\ufe0f(?=\u20e3)/gu;
/**
 * Characters that show nothing: format characters (category Cf) and the other default-ignorable
 * code points (the combining grapheme joiner U+034F, variation selectors on anything but an emoji,
 * the Hangul fillers U+115F/U+1160/U+3164/U+FFA0, the Mongolian free variation selectors, …).
 */
const FORMAT_CHARACTER = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * True when the text holds an invisible character (category Cf: U+200B zero-width space, U+2060
 * word joiner, U+FEFF, U+00AD soft hyphen, the bidirectional controls, …; or another
 * default-ignorable code point: U+034F, a variation selector after a letter, U+3164, …) outside
 * the sequences above. Two names that differ only by one look the same, so names refuse them.
 */
export function hasInvisibleFormat(text: string): boolean {
  return FORMAT_CHARACTER.test(text.replace(EMOJI_ZWJ, "").replace(EMOJI_TAGS, "").replace(EMOJI_PRESENTATION, "").replace(SCRIPT_JOINER, ""));
}

/**
 * True when the text can be a name people read in lists, pickers and consent pages: well-formed,
 * without control characters, line or paragraph separators, bidirectional controls or other
 * invisible format characters (docs/security.md, "Text in names"). Emoji sequences and scripts'
 * joiners stay.
 */
export function isReadableName(text: string): boolean {
  return isWellFormedText(text) && !hasControlCharacter(text) && !hasLineSeparator(text) && !hasBidiControl(text) && !hasInvisibleFormat(text);
}

/**
 * The key two names are compared by: Unicode canonical composition (NFC, so a precomposed "é" and
 * "e" + U+0301 are one name) and case folding (upper then lower case, so "ß" and "SS", "Ǆ" and "ǆ",
 * or "Σ" and "ς" fold together; locale-independent), composed again. Names that are equal under it
 * look the same to a person, so a name must be unique by its key, not by its code units.
 */
export function nameKey(text: string): string {
  return text.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}
