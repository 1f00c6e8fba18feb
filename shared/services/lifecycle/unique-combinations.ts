/**
 * Named unique combinations (spec 3, "Unique fields"; docs/content-rules-reverse-single-unique.md).
 * A combination claims, per entry language, one `unique_values` row: field id `cmb:<name>`, scope ''
 * (`model`) or the language (`language`), value the JSON array of its members' normalised values —
 * so the same pre-check, batch guards and trigger as single unique fields hold it. A member left
 * empty means the combination claims nothing.
 */
import { AppError } from "../../errors";
import { UNIQUE_TYPES, type FieldDefinition } from "../../../schema/model-definition";
import {
  UNIQUE_COMBINATION_MAX_FIELDS,
  UNIQUE_COMBINATION_MIN_FIELDS,
  UNIQUE_COMBINATIONS_MAX,
  type UniqueCombination,
} from "../../../schema/unique-combinations";

/** The claim id of a combination (field ids are `fld_…`, so they never collide). */
export const combinationId = (name: string) => `cmb:${name}`;

export interface CombinationProblem {
  /** Where, as in the request: `unique_combinations[1].fields[0]`. */
  path: string;
  name?: string;
  reason: "too_many" | "field_count" | "unknown_field" | "unsupported_type" | "duplicate_field" | "duplicate_name" | "duplicate_combination";
  message: string;
}

/**
 * Refuses combinations a model cannot hold (422 invalid_unique_combination, one problem per fault):
 * more than 8; fewer than 2 or more than 4 members; a member that is not a field key of the model, or
 * whose type cannot be unique; a member named twice; two combinations with one name or one member set.
 */
export function requireValidCombinations(combinations: readonly UniqueCombination[], fields: readonly FieldDefinition[]): void {
  const problems: CombinationProblem[] = [];
  if (combinations.length > UNIQUE_COMBINATIONS_MAX) {
    problems.push({ path: "unique_combinations", reason: "too_many", message: `A model has at most ${UNIQUE_COMBINATIONS_MAX} unique combinations (${combinations.length} given).` });
  }
  const names = new Set<string>();
  const sets = new Map<string, string>();
  combinations.forEach((c, i) => {
    const at = `unique_combinations[${i}]`;
    if (names.has(c.name)) problems.push({ path: `${at}.name`, name: c.name, reason: "duplicate_name", message: `Two combinations are named "${c.name}".` });
    names.add(c.name);
    if (c.fields.length < UNIQUE_COMBINATION_MIN_FIELDS || c.fields.length > UNIQUE_COMBINATION_MAX_FIELDS) {
      problems.push({ path: `${at}.fields`, name: c.name, reason: "field_count", message: `A combination has ${UNIQUE_COMBINATION_MIN_FIELDS} to ${UNIQUE_COMBINATION_MAX_FIELDS} fields (${c.fields.length} given).` });
    }
    const seen = new Set<string>();
    c.fields.forEach((key, j) => {
      const path = `${at}.fields[${j}]`;
      if (seen.has(key)) problems.push({ path, name: c.name, reason: "duplicate_field", message: `"${key}" is named twice.` });
      seen.add(key);
      const field = fields.find((f) => f.key === key);
      if (!field) problems.push({ path, name: c.name, reason: "unknown_field", message: `"${key}" is not a field of this model.` });
      else if (!UNIQUE_TYPES.includes(field.type)) {
        problems.push({ path, name: c.name, reason: "unsupported_type", message: `"${key}" is a ${field.type} field; only ${UNIQUE_TYPES.join(", ")} fields can be combined.` });
      }
    });
    const set = `${c.scope}:${[...seen].sort().join("\u0000")}`;
    const twin = sets.get(set);
    if (twin !== undefined) problems.push({ path: at, name: c.name, reason: "duplicate_combination", message: `"${c.name}" repeats combination "${twin}".` });
    else sets.set(set, c.name);
  });
  if (problems.length > 0) throw new AppError("invalid_unique_combination", "Some unique combinations are not valid; nothing was written.", { problems });
}

/** A combination with its members resolved to the model's fields. */
export interface ResolvedCombination {
  combination: UniqueCombination;
  members: FieldDefinition[];
}

/** The model's combinations with their member fields (a combination naming a missing field is skipped). */
export function resolvedCombinations(combinations: readonly UniqueCombination[], fields: readonly FieldDefinition[]): ResolvedCombination[] {
  return combinations.flatMap((combination) => {
    const members = combination.fields.map((key) => fields.find((f) => f.key === key));
    return members.every((m): m is FieldDefinition => m !== undefined) ? [{ combination, members }] : [];
  });
}

/** What a combination's claim compares: JSON of the members' normalised values, or null when one is empty. */
export function combinationValue(members: readonly FieldDefinition[], stored: Readonly<Record<string, unknown>>, normalise: (value: unknown) => string | null): string | null {
  const values: string[] = [];
  for (const member of members) {
    const value = normalise(stored[member.id]);
    if (value === null) return null;
    values.push(value);
  }
  return JSON.stringify(values);
}
