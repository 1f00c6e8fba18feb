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

/** True when the text is well-formed UTF-16 (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** True when the text holds a C0 / C1 control character or DEL. */
export function hasControlCharacter(text: string): boolean {
  return new RegExp(CONTROL_CHARACTERS.source).test(text);
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
