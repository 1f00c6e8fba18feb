/**
 * Validation of a version's field values against a model's field definitions, and the small
 * conversions between values addressed by field key (the API) and by field id (storage).
 * Everything here is pure: no I/O, no clock, no randomness.
 *
 * This file holds the walk over a model's fields (validateFieldValues) and re-exports the rest
 * from sibling files of one purpose each: field-issues.ts, value-limits.ts, value-checks.ts,
 * canonical-values.ts, stored-values.ts, value-references.ts and title-field.ts.
 */
import { COMPONENT_MAX_ITEMS } from "./components";
import { isShown } from "./conditions";
import type { FieldDefinition } from "../../schema/model-definition";
import type { FieldIssue, FieldIssueCode, Push, ValidationMode } from "./field-issues";
import { checkDate, checkId, checkLocation, checkNumberBounds, checkOneOrMany, checkString } from "./value-checks";

export type { FieldIssue, FieldIssueCode, ValidationMode } from "./field-issues";
export { RICH_TEXT_MAX_BYTES, SLUG_MAX_LENGTH, SLUG_PATTERN, utf8Length } from "./value-limits";
export { canonicalFieldValues } from "./canonical-values";
export { toKeyedValues, toStoredValues } from "./stored-values";
export { mediaIds, relationTargets } from "./value-references";
export { titleField } from "./title-field";

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
