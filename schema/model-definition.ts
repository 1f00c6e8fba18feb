/**
 * The content model field definitions: valibot schemas are the source of truth, and every type
 * here is inferred from its schema under the same name (`FieldDefinition` is both).
 *
 * This file is the entry point; the definitions live in sibling files of one purpose each:
 * field-types.ts (types, groups, relation kinds, keys), field-condition.ts (show conditions),
 * field-settings.ts (options and validation bounds), field-definition-entries.ts (a field's
 * settings), field-definition.ts (the field schema and its cross-checks), model-fields.ts (a
 * model's field list) and field-value.ts (stored values).
 */
export {
  DATE_TYPES,
  FIELD_TYPES,
  FieldKey,
  FieldType,
  isToMany,
  LENGTH_TYPES,
  MULTIPLE_TYPES,
  NUMBER_TYPES,
  RELATION_KINDS,
  relationKind,
  UNIQUE_SCOPES,
  UNIQUE_TYPES,
  type RelationKind,
} from "./field-types";
export type { ConditionTerm, FieldCondition } from "./field-condition";
export { FieldOption, FieldValidation } from "./field-settings";
export { FieldDefinitionEntries } from "./field-definition-entries";
export { FieldDefinition } from "./field-definition";
export { ModelFields } from "./model-fields";
export type { ComponentValue, FieldValue } from "./field-value";
