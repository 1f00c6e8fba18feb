/** Field values as they are stored: rich_text replaced by its canonical, sanitised HTML. */
import type { FieldDefinition } from "../../schema/model-definition";
import { canonicalRichText } from "./rich-text";
import { mapComponentLeaves } from "./components";
import { RICH_TEXT_MAX_BYTES, utf8Length } from "./value-limits";

/**
 * The values as they are stored: each rich_text string replaced by its canonical, sanitised HTML
 * (rich-text.ts); every other value, and keys not in `fields`, as given. Every write that stores
 * field values passes them through here before validating them, so the rules (length, pattern) judge
 * what is stored and served. A rich_text value over RICH_TEXT_MAX_BYTES is left as it is, unparsed:
 * validation refuses it, and the parser never sees more than the limit.
 */
export function canonicalFieldValues(
  fields: readonly FieldDefinition[],
  valuesByKey: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...valuesByKey };
  const canonical = (value: unknown): unknown => (typeof value === "string" && utf8Length(value) <= RICH_TEXT_MAX_BYTES ? canonicalRichText(value) : value);
  for (const field of fields) {
    if (!Object.hasOwn(valuesByKey, field.key)) continue;
    if (field.type === "rich_text") out[field.key] = canonical(valuesByKey[field.key]);
    // Rich text inside components too.
    if (field.type === "component") out[field.key] = mapComponentLeaves(field, valuesByKey[field.key], field.key, field.id, (leaf) => (leaf.field.type === "rich_text" ? canonical(leaf.value) : leaf.value));
  }
  return out;
}
