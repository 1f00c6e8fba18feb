/** The checks of one non-empty value by field type: strings, numbers, dates, lists, ids and locations. */
import { dateTimeMillis, isCalendarDate } from "../../schema/dates";
import type { FieldDefinition } from "../../schema/model-definition";
import { fieldPattern } from "./field-pattern";
import type { Push } from "./field-issues";
import { characterCount, ID_MAX_LENGTH, RICH_TEXT_MAX_BYTES, SLUG_MAX_LENGTH, SLUG_PATTERN, utf8Length } from "./value-limits";

/** A text, long_text, rich_text or slug value: type, slug form, length bounds, then pattern. */
export function checkString(field: FieldDefinition, value: unknown, push: Push): void {
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

/** An integer or decimal value against min, max and step. */
export function checkNumberBounds(field: FieldDefinition, value: number, push: Push): void {
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

/** A date or datetime value: its form, then min_date and max_date. */
export function checkDate(field: FieldDefinition, value: unknown, push: Push): void {
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
export function checkOneOrMany(
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

/** One media or entry id: a non-empty string of at most ID_MAX_LENGTH characters. */
export function checkId(field: FieldDefinition, item: unknown, path: string, what: string, push: Push): void {
  if (typeof item !== "string") push(path, "wrong_type", `${field.label} takes ${what}s (strings).`);
  else if (item.length === 0) push(path, "too_short", `A ${what} in ${field.label} is empty.`);
  else if (item.length > ID_MAX_LENGTH) push(path, "too_long", `A ${what} holds at most ${ID_MAX_LENGTH} characters.`);
}

/** A location value: an object of lat (±90) and lon (±180) and nothing else. */
export function checkLocation(field: FieldDefinition, value: unknown, push: Push): void {
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

