/**
 * The checks of a model's `validation` settings that go beyond their shape: every pattern must
 * compile under RE2 (the engine values are tested with), and no minimum may exceed its maximum.
 * Spec 3 names both refusals `invalid_field_validation`; the request schemas check only the shape
 * (types, ranges, which settings fit which field type), so these run wherever a model's fields are
 * accepted: model create, definition replace, model proposals and their apply.
 */
import { dateTimeMillis, isCalendarDate } from "../../schema/dates";
import type { FieldDefinition } from "../../schema/model-definition";
import { AppError } from "../errors";
import type { Issue } from "../services/validation/parse";
import { patternProblem } from "./field-pattern";
import { forEachFieldScope } from "./components";
import { customValidationIssues, requireSupportedFields } from "./model-field-checks";

type Bounds = readonly [low: "min_length" | "min" | "min_items" | "min_date", high: "max_length" | "max" | "max_items" | "max_date"];
const PAIRS: readonly Bounds[] = [
  ["min_length", "max_length"],
  ["min", "max"],
  ["min_items", "max_items"],
  ["min_date", "max_date"],
];

/** A bound as a comparable position: numbers as they are, a day as its text, an instant in milliseconds. */
function position(field: Pick<FieldDefinition, "type">, value: number | string): number | string | undefined {
  if (typeof value === "number") return value;
  if (field.type === "date") return isCalendarDate(value) ? value : undefined;
  return dateTimeMillis(value);
}

/** True when `from` lies after `to` (both of one kind: numbers, or days as YYYY-MM-DD text). */
function isAfter(from: number | string, to: number | string): boolean {
  return typeof from === "number" && typeof to === "number" ? from > to : String(from) > String(to);
}

/** Every problem of the fields' validation settings, with paths `fields[i].validation.<setting>`. */
export function fieldValidationIssues(fields: readonly Pick<FieldDefinition, "type" | "validation">[]): Issue[] {
  const issues: Issue[] = [];
  fields.forEach((field, index) => {
    const rules = field.validation;
    if (rules === undefined) return;
    const at = (setting: string) => `fields[${index}].validation.${setting}`;
    if (rules.pattern !== undefined) {
      const problem = patternProblem(rules.pattern);
      if (problem !== undefined) issues.push({ path: at("pattern"), message: `pattern cannot be run in linear time (RE2 syntax): ${problem}` });
    }
    for (const [low, high] of PAIRS) {
      const min = rules[low];
      const max = rules[high];
      if (min === undefined || max === undefined) continue;
      const from = position(field, min);
      const to = position(field, max);
      // A malformed date bound is the schema's refusal (its format), not this one.
      if (from !== undefined && to !== undefined && isAfter(from, to)) issues.push({ path: at(high), message: `${high} must not be less than ${low}.` });
    }
  });
  return issues;
}

/**
 * Throws 422 `invalid_field_validation` listing every problem of the fields' validation settings
 * (fields inside components included), after the checks of model-field-checks.ts (custom
 * validation, components, conditions; each its own code).
 */
export function requireUsableFieldValidation(fields: readonly FieldDefinition[]): void {
  const custom = customValidationIssues(fields);
  if (custom.length > 0) throw new AppError("unsupported_text_validation", "Executable custom text validation is not supported.", { issues: custom });
  const issues = [...fieldValidationIssues(fields), ...nestedValidationIssues(fields)];
  if (issues.length > 0) throw new AppError("invalid_field_validation", "Some fields' validation settings cannot be used.", { issues });
  requireSupportedFields(fields);
}

/** The validation-bound problems of fields inside components, with paths `fields[i].fields[j].validation.<setting>`. */
function nestedValidationIssues(fields: readonly FieldDefinition[]): Issue[] {
  const issues: Issue[] = [];
  forEachFieldScope(fields, (scope, prefix, depth) => {
    if (depth === 0) return;
    for (const issue of fieldValidationIssues(scope)) issues.push({ path: `${prefix}${issue.path.slice("fields".length)}`, message: issue.message });
  });
  return issues;
}
