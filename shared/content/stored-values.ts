/** Conversions between values addressed by field key (the API) and by field id (storage). */
import type { FieldDefinition, FieldValue } from "../../schema/model-definition";
import { knownComponentValue } from "./components";

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
