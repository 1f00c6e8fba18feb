/** Field types and their groups, relation kinds, and the shape of a field key. */
import * as v from "valibot";

/** Every field type, in the order editors list them. */
export const FIELD_TYPES = [
  "text",
  "long_text",
  "rich_text",
  "integer",
  "decimal",
  "boolean",
  "date",
  "datetime",
  "select",
  "slug",
  "media",
  "relation",
  "location",
  "component",
] as const;

export const FieldType = v.pipe(
  v.picklist(FIELD_TYPES, "Field type must be one of: " + FIELD_TYPES.join(", ") + "."),
  v.title("FieldType"),
  v.description("The kind of value a field holds."),
);
export type FieldType = v.InferOutput<typeof FieldType>;

/** Types whose value is a string with a length: they take min_length, max_length and pattern. */
export const LENGTH_TYPES: readonly FieldType[] = ["text", "long_text", "rich_text", "slug"];
/** Types whose value is a number: they take min, max and step. */
export const NUMBER_TYPES: readonly FieldType[] = ["integer", "decimal"];
/** Types whose value is a date: they take min_date and max_date. */
export const DATE_TYPES: readonly FieldType[] = ["date", "datetime"];
/** Types that may hold several values (`multiple: true`). */
export const MULTIPLE_TYPES: readonly FieldType[] = ["select", "media", "relation", "component"];
/** Types whose value may be unique (`unique: "model" | "language"`). */
export const UNIQUE_TYPES: readonly FieldType[] = ["text", "slug", "integer", "decimal"];
/** Where a unique value must be unique: among all the model's entries, or per language. */
export const UNIQUE_SCOPES = ["model", "language"] as const;
/**
 * How a relation field links items (docs/content-rules-relations.md): `one_` kinds let a target be
 * held by one item only (through this field), `_to_many` kinds hold an ordered list.
 */
export const RELATION_KINDS = ["one_to_one", "many_to_one", "one_to_many", "many_to_many"] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];
/** A relation field's kind; a field saved before kinds existed reads as many_to_many when multiple, else many_to_one. */
export function relationKind(field: { relation?: RelationKind | undefined; multiple?: boolean | undefined }): RelationKind {
  return field.relation ?? (field.multiple === true ? "many_to_many" : "many_to_one");
}
/** Whether a relation kind holds an ordered list. */
export const isToMany = (kind: RelationKind): boolean => kind === "one_to_many" || kind === "many_to_many";

/**
 * Names a plain JavaScript object already holds (Object.prototype's own properties, and `prototype`):
 * refused as field keys (422 invalid_field_key, docs/content-rules-fields.md, "Field keys"), at every
 * depth. A value keyed by one of them would be dropped by the request schemas (`__proto__`,
 * `constructor`, `prototype`), or read back as the prototype's function by `values[key]` in any
 * code — the service's, an import's, or a consumer's of the generated client.
 */
export const RESERVED_FIELD_KEYS = [
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "prototype",
  "toLocaleString",
  "toString",
  "valueOf",
] as const;

/** Whether `key` is one of {@link RESERVED_FIELD_KEYS}. */
export function isReservedFieldKey(key: string): boolean {
  return (RESERVED_FIELD_KEYS as readonly string[]).includes(key);
}

/** The check of FieldKey that refuses reserved names; `parse` turns its issues into 422 invalid_field_key. */
export function notReservedFieldKey(key: string): boolean {
  return !isReservedFieldKey(key);
}

export const FieldKey = v.pipe(
  v.string("Field key must be a string."),
  v.check(notReservedFieldKey, (issue) => `"${String(issue.input)}" is a name JavaScript objects already use; it cannot be a field key.`),
  v.regex(
    /^[a-z][a-zA-Z0-9_]{0,63}$/,
    "Field key must start with a lowercase letter and hold at most 64 letters, digits or underscores.",
  ),
  v.title("FieldKey"),
  v.description("The name a field's value has in the API, such as `title` or `heroImage`."),
);
export type FieldKey = v.InferOutput<typeof FieldKey>;
