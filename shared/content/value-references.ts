/** What a field value points to: the entries of a relation field and the media of a media field. */
import type { FieldDefinition } from "../../schema/model-definition";

/** Non-empty strings of a one-or-many value: `"a"` → `["a"]`, `["a", "b"]` as is, empty → `[]`. */
function oneOrMany(value: unknown): string[] {
  if (typeof value === "string") return value.length > 0 ? [value] : [];
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    return items.filter((item): item is string => typeof item === "string" && item.length > 0);
  }
  return [];
}

/**
 * The entry instance ids a relation field's value points to, in order: one id or a list of them
 * becomes a list; an empty value, or a field that is not a relation, gives `[]`.
 */
export function relationTargets(field: FieldDefinition, value: unknown): string[] {
  return field.type === "relation" ? oneOrMany(value) : [];
}

/**
 * The media ids a media field's value names, in order: one id or a list of them becomes a list;
 * an empty value, or a field that is not a media field, gives `[]`.
 */
export function mediaIds(field: FieldDefinition, value: unknown): string[] {
  return field.type === "media" ? oneOrMany(value) : [];
}
