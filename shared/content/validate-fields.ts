/**
 * Validation of a version's field values against a model's field definitions, and the small
 * conversions between values addressed by field key (the API) and by field id (storage).
 * Everything here is pure: no I/O, no clock, no randomness.
 */
import { dateTimeMillis, isCalendarDate } from "../../schema/dates";
import { fieldPattern } from "./field-pattern";
import { canonicalRichText } from "./rich-text";
import { COMPONENT_MAX_ITEMS, knownComponentValue } from "./components";
import { isShown } from "./conditions";
import {
  type FieldDefinition,
  type FieldValue,
} from "../../schema/model-definition";

/**
 * How strictly required fields are enforced. `draft`: required fields may be missing or empty (a
 * draft may be incomplete), but every value given must still be well-formed and within bounds.
 * `publish` and `strict` (a site that validates every save as if publishing): required fields must
 * hold a non-empty value too.
 */
export type ValidationMode = "draft" | "publish" | "strict";

/** Every code a FieldIssue can carry. */
export type FieldIssueCode =
  | "unknown_field"
  | "required"
  | "wrong_type"
  | "too_short"
  | "too_long"
  | "pattern_mismatch"
  | "below_min"
  | "above_max"
  | "step_mismatch"
  | "not_an_option"
  | "too_few_items"
  | "too_many_items"
  | "duplicate_item"
  | "invalid_date"
  | "invalid_slug"
  | "out_of_range";

/**
 * One problem with one value. `path` is the field key, followed by `[i]` for an item of a
 * multi-value field or `.lat` / `.lon` for a part of a location (`categories[2]`, `location.lat`),
 * and inside a component by `.` and the nested path (`seo.title`, `faq[1].question`).
 * `code` is stable and meant for programs; `message` is for people.
 */
export interface FieldIssue {
  path: string;
  code: string;
  message: string;
}

/** The most UTF-8 bytes a rich_text value may hold, whatever its max_length. */
export const RICH_TEXT_MAX_BYTES = 262_144;
/** The most characters a slug value may hold. */
export const SLUG_MAX_LENGTH = 200;
/** The form of a slug value: lowercase letters and digits in hyphen-separated runs. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The most characters a media or entry id may hold. */
const ID_MAX_LENGTH = 64;

/** Types whose single value is a string, so that `""` is their empty value. */
const STRING_VALUED: ReadonlySet<FieldDefinition["type"]> = new Set([
  "text",
  "long_text",
  "rich_text",
  "slug",
  "date",
  "datetime",
  "select",
  "media",
  "relation",
]);

type Push = (path: string, code: FieldIssueCode, message: string) => void;

/**
 * Checks values addressed by field KEY against `fields` and returns every problem found, in field
 * order followed by unknown keys; an empty array means the values are valid. `null` or a missing
 * key means empty, as does `""` for a string-valued field and `[]` for a `multiple` field; an
 * empty value is never checked further, and is refused (`required`) only for a required field
 * outside `draft` mode. Keys not in `fields` are refused (`unknown_field`) in every mode.
 */
export function validateFieldValues(
  fields: readonly FieldDefinition[],
  valuesByKey: Readonly<Record<string, unknown>>,
  mode: ValidationMode,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const push: Push = (path, code, message) => issues.push({ path, code, message });

  for (const field of fields) {
    const value = Object.hasOwn(valuesByKey, field.key) ? valuesByKey[field.key] : undefined;
    if (isEmpty(field, value)) {
      // A field its condition hides is not required (conditions.ts); hidden values stay stored.
      if (field.required === true && mode !== "draft" && isShown(field, fields, valuesByKey)) push(field.key, "required", `${field.label} is required.`);
      continue;
    }
    checkValue(field, value, push, mode);
  }

  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(valuesByKey)) {
    if (!known.has(key)) push(key, "unknown_field", `The model has no field "${key}".`);
  }
  return issues;
}

/** True when `value` is the empty value for `field`: null, missing, `""` or `[]` where it fits. */
function isEmpty(field: FieldDefinition, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (field.multiple === true) return Array.isArray(value) && value.length === 0;
  if (field.type === "component") return typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
  return value === "" && STRING_VALUED.has(field.type);
}

function checkValue(field: FieldDefinition, value: unknown, push: Push, mode: ValidationMode): void {
  switch (field.type) {
    case "text":
    case "long_text":
    case "rich_text":
    case "slug":
      checkString(field, value, push);
      return;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        push(field.key, "wrong_type", `${field.label} must be a whole number.`);
      } else if (!Number.isSafeInteger(value)) {
        push(field.key, "out_of_range", `${field.label} is too large to be stored exactly.`);
      } else {
        checkNumberBounds(field, value, push);
      }
      return;
    case "decimal":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        push(field.key, "wrong_type", `${field.label} must be a finite number.`);
      } else {
        checkNumberBounds(field, value, push);
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") push(field.key, "wrong_type", `${field.label} must be true or false.`);
      return;
    case "date":
    case "datetime":
      checkDate(field, value, push);
      return;
    case "select":
      checkOneOrMany(field, value, push, (item, path) => {
        if (typeof item !== "string") {
          push(path, "wrong_type", `${field.label} takes option values (strings).`);
        } else if (!(field.options ?? []).some((option) => option.value === item)) {
          push(path, "not_an_option", `"${item}" is not an option of ${field.label}.`);
        }
      }, true);
      return;
    case "media":
      checkOneOrMany(field, value, push, (item, path) => checkId(field, item, path, "media id", push), false);
      return;
    case "relation":
      checkOneOrMany(field, value, push, (item, path) => checkId(field, item, path, "entry id", push), true);
      return;
    case "location":
      checkLocation(field, value, push);
      return;
    case "component":
      checkComponent(field, value, push, mode);
      return;
  }
}

/**
 * A component value: an object of its fields' values (by nested key), or a list of them when
 * `multiple`. Each object is validated like a model's values, in the same mode, and its issues
 * carry full paths (`seo.title`, `sections[2].heading`).
 */
function checkComponent(field: FieldDefinition, value: unknown, push: Push, mode: ValidationMode): void {
  if (field.multiple === true && Array.isArray(value) && value.length > COMPONENT_MAX_ITEMS) {
    push(field.key, "too_many_items", `${field.label} takes at most ${COMPONENT_MAX_ITEMS} items.`);
    return;
  }
  checkOneOrMany(field, value, push, (item, path) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      push(path, "wrong_type", `${field.label} takes an object of its fields' values.`);
      return;
    }
    for (const issue of validateFieldValues(field.fields ?? [], item as Record<string, unknown>, mode)) {
      push(`${path}.${issue.path}`, issue.code as FieldIssueCode, issue.message);
    }
  }, false);
}

function checkString(field: FieldDefinition, value: unknown, push: Push): void {
  if (typeof value !== "string") {
    push(field.key, "wrong_type", `${field.label} must be a string.`);
    return;
  }
  const rules = field.validation ?? {};
  const length = characterCount(value);
  if (field.type === "slug" && !SLUG_PATTERN.test(value)) {
    push(field.key, "invalid_slug", `${field.label} may hold only lowercase letters, digits and single hyphens between them.`);
  }
  let lengthOk = true;
  if (rules.min_length !== undefined && length < rules.min_length) {
    push(field.key, "too_short", `${field.label} must hold at least ${rules.min_length} characters.`);
    lengthOk = false;
  }
  const maxLength = field.type === "slug" ? Math.min(SLUG_MAX_LENGTH, rules.max_length ?? SLUG_MAX_LENGTH) : rules.max_length;
  if (maxLength !== undefined && length > maxLength) {
    push(field.key, "too_long", `${field.label} must hold at most ${maxLength} characters.`);
    lengthOk = false;
  } else if (field.type === "rich_text" && utf8Length(value) > RICH_TEXT_MAX_BYTES) {
    push(field.key, "too_long", `${field.label} must hold at most ${RICH_TEXT_MAX_BYTES} bytes.`);
    lengthOk = false;
  }
  // A value already refused for its length is not matched too: the length rule bounds the work a
  // pattern can cost, and one refusal says enough.
  if (rules.pattern !== undefined && lengthOk) {
    // RE2 runs in time linear in the value; a pattern it cannot compile (kept from a model saved
    // before RE2 was used; an apply now refuses it) is not enforced rather than run by a backtracker.
    const pattern = fieldPattern(rules.pattern);
    if (pattern !== undefined && !pattern.test(value)) {
      push(field.key, "pattern_mismatch", `${field.label} does not have the expected form.`);
    }
  }
}

function checkNumberBounds(field: FieldDefinition, value: number, push: Push): void {
  const rules = field.validation ?? {};
  if (rules.min !== undefined && value < rules.min) {
    push(field.key, "below_min", `${field.label} must be at least ${rules.min}.`);
  }
  if (rules.max !== undefined && value > rules.max) {
    push(field.key, "above_max", `${field.label} must be at most ${rules.max}.`);
  }
  if (rules.step !== undefined && rules.step > 0 && !onStep(value, rules.step, rules.min ?? 0)) {
    push(field.key, "step_mismatch", `${field.label} must be ${rules.min ?? 0} plus a multiple of ${rules.step}.`);
  }
}

/** True when `value` is `base` plus a whole number of `step`s, allowing for floating-point error. */
function onStep(value: number, step: number, base: number): boolean {
  const steps = (value - base) / step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
}

function checkDate(field: FieldDefinition, value: unknown, push: Push): void {
  if (typeof value !== "string") {
    push(field.key, "wrong_type", `${field.label} must be a string.`);
    return;
  }
  // A day compares as its YYYY-MM-DD text; an instant as milliseconds since the epoch.
  const position = (text: string): string | number | undefined =>
    field.type === "date" ? (isCalendarDate(text) ? text : undefined) : dateTimeMillis(text);
  const at = position(value);
  if (at === undefined) {
    const form = field.type === "date" ? "a real date written YYYY-MM-DD" : "an ISO-8601 date-time with Z or an offset";
    push(field.key, "invalid_date", `${field.label} must be ${form}.`);
    return;
  }
  const rules = field.validation ?? {};
  const min = rules.min_date === undefined ? undefined : position(rules.min_date);
  const max = rules.max_date === undefined ? undefined : position(rules.max_date);
  if (min !== undefined && at < min) push(field.key, "below_min", `${field.label} must not be before ${rules.min_date}.`);
  if (max !== undefined && at > max) push(field.key, "above_max", `${field.label} must not be after ${rules.max_date}.`);
}

/**
 * A single value (checked with `checkItem` at the field's path) or, for a `multiple` field, an
 * array whose items are checked at `key[i]`, counted against min_items/max_items and, when
 * `unique`, refused when repeated.
 */
function checkOneOrMany(
  field: FieldDefinition,
  value: unknown,
  push: Push,
  checkItem: (item: unknown, path: string) => void,
  unique: boolean,
): void {
  if (field.multiple !== true) {
    if (Array.isArray(value)) push(field.key, "wrong_type", `${field.label} takes one value, not a list.`);
    else checkItem(value, field.key);
    return;
  }
  if (!Array.isArray(value)) {
    push(field.key, "wrong_type", `${field.label} takes a list of values.`);
    return;
  }
  const items: readonly unknown[] = value;
  const seen = new Set<unknown>();
  items.forEach((item, index) => {
    const path = `${field.key}[${index}]`;
    if (unique && typeof item === "string" && seen.has(item)) {
      push(path, "duplicate_item", `${field.label} lists "${item}" more than once.`);
    } else {
      checkItem(item, path);
    }
    seen.add(item);
  });
  const rules = field.validation ?? {};
  if (rules.min_items !== undefined && items.length < rules.min_items) {
    push(field.key, "too_few_items", `${field.label} needs at least ${rules.min_items} items.`);
  }
  if (rules.max_items !== undefined && items.length > rules.max_items) {
    push(field.key, "too_many_items", `${field.label} takes at most ${rules.max_items} items.`);
  }
}

function checkId(field: FieldDefinition, item: unknown, path: string, what: string, push: Push): void {
  if (typeof item !== "string") push(path, "wrong_type", `${field.label} takes ${what}s (strings).`);
  else if (item.length === 0) push(path, "too_short", `A ${what} in ${field.label} is empty.`);
  else if (item.length > ID_MAX_LENGTH) push(path, "too_long", `A ${what} holds at most ${ID_MAX_LENGTH} characters.`);
}

function checkLocation(field: FieldDefinition, value: unknown, push: Push): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    push(field.key, "wrong_type", `${field.label} must be an object { lat, lon }.`);
    return;
  }
  const record = value as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record)) {
    if (key !== "lat" && key !== "lon") push(`${field.key}.${key}`, "unknown_field", `${field.label} holds only lat and lon.`);
  }
  const coordinate = (part: "lat" | "lon", limit: number) => {
    const number = Object.hasOwn(record, part) ? record[part] : undefined;
    const path = `${field.key}.${part}`;
    if (typeof number !== "number" || !Number.isFinite(number)) push(path, "wrong_type", `${part} must be a number.`);
    else if (number < -limit || number > limit) push(path, "out_of_range", `${part} must be between -${limit} and ${limit}.`);
  };
  coordinate("lat", 90);
  coordinate("lon", 180);
}

/** Characters as people count them: Unicode code points, so an emoji is one, not two. */
function characterCount(text: string): number {
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
  for (const field of fields) {
    if (field.type !== "rich_text" || !Object.hasOwn(valuesByKey, field.key)) continue;
    const value = valuesByKey[field.key];
    if (typeof value === "string" && utf8Length(value) <= RICH_TEXT_MAX_BYTES) out[field.key] = canonicalRichText(value);
  }
  return out;
}

/**
 * Re-keys values from field key (API) to field id (storage), dropping keys not in `fields` and
 * missing (`undefined`) values. Meant for values `validateFieldValues` accepted: values are taken
 * as they are, not checked again.
 */
export function toStoredValues(
  fields: readonly FieldDefinition[],
  valuesByKey: Readonly<Record<string, unknown>>,
): Record<string, FieldValue> {
  return rekey(fields, valuesByKey, (field) => field.key, (field) => field.id);
}

/**
 * Re-keys stored values from field id to field key, dropping ids not in `fields` (values of
 * fields since removed from the model) and missing (`undefined`) values.
 */
export function toKeyedValues(
  fields: readonly FieldDefinition[],
  valuesById: Readonly<Record<string, unknown>>,
): Record<string, FieldValue> {
  const keyed = rekey(fields, valuesById, (field) => field.id, (field) => field.key);
  // Inside a component, values of nested fields since removed are dropped as top-level ones are.
  for (const field of fields) {
    if (field.type === "component" && Object.hasOwn(keyed, field.key)) keyed[field.key] = knownComponentValue(field, keyed[field.key]) as FieldValue;
  }
  return keyed;
}

function rekey(
  fields: readonly FieldDefinition[],
  values: Readonly<Record<string, unknown>>,
  from: (field: FieldDefinition) => string,
  to: (field: FieldDefinition) => string,
): Record<string, FieldValue> {
  const entries: [string, FieldValue][] = [];
  for (const field of fields) {
    const source = from(field);
    if (!Object.hasOwn(values, source)) continue;
    const value = values[source];
    // Trusted: validated before it was stored, or by validateFieldValues on the way in.
    if (value !== undefined) entries.push([to(field), value as FieldValue]);
  }
  // fromEntries defines own properties, so even a key such as "__proto__" stays plain data.
  return Object.fromEntries(entries);
}

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

/**
 * The field that gives an entry its label: the one marked `title: true`; else the first text
 * field keyed `title` or `name`; else the first text field; else none.
 */
export function titleField(fields: readonly FieldDefinition[]): FieldDefinition | undefined {
  return (
    fields.find((field) => field.title === true) ??
    fields.find((field) => field.type === "text" && (field.key === "title" || field.key === "name")) ??
    fields.find((field) => field.type === "text")
  );
}
