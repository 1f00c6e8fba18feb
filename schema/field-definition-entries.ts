/** The entries of a field definition's object schema: every setting a field may carry, before cross-checks. */
import * as v from "valibot";
import type { FieldCondition } from "./field-condition";
import { boundedString, FieldOption, FieldValidation } from "./field-settings";
import { FieldKey, FieldType, RELATION_KINDS, UNIQUE_SCOPES } from "./field-types";
import { readableName } from "./text";

const isPlainObject = (input: unknown): boolean => typeof input === "object" && input !== null && !Array.isArray(input);

export const FieldDefinitionEntries = v.strictObject({
  id: v.pipe(
    boundedString("Field id", 1, 64),
    v.regex(/^[A-Za-z0-9_-]*$/, "Field id may hold only letters, digits, underscores and hyphens."),
  ),
  key: FieldKey,
  label: v.pipe(boundedString("Field label", 1, 120), readableName("Field label")),
  type: FieldType,
  required: v.optional(v.boolean("required must be true or false.")),
  private: v.optional(v.boolean("private must be true or false.")),
  title: v.optional(v.boolean("title must be true or false.")),
  help: v.optional(v.pipe(v.string("help must be a string."), v.maxLength(500, "help must hold at most 500 characters."))),
  multiple: v.optional(v.boolean("multiple must be true or false.")),
  options: v.optional(
    v.pipe(
      v.array(FieldOption, "options must be an array."),
      v.minLength(1, "options must hold at least one option."),
      v.maxLength(200, "options must hold at most 200 options."),
      v.check(
        (options) => new Set(options.map((option) => option.value)).size === options.length,
        "Option values must be unique.",
      ),
    ),
  ),
  targets: v.optional(
    v.pipe(
      v.array(boundedString("Target model id", 1, 64), "targets must be an array of model ids."),
      v.minLength(1, "targets must name at least one model."),
      v.maxLength(16, "targets must name at most 16 models."),
      v.check((targets) => new Set(targets).size === targets.length, "targets must not name a model twice."),
    ),
  ),
  /** Relation fields: how items link (RELATION_KINDS); without it see `relationKind`. */
  relation: v.optional(v.picklist(RELATION_KINDS, "relation must be one of: " + RELATION_KINDS.join(", ") + ".")),
  /** Relation fields: a parent link to the model's own items that never loops (to-one only). */
  hierarchy: v.optional(v.boolean("hierarchy must be true or false.")),
  /** Relation fields of translated models: each language keeps its own list (else the item's list is shared). */
  localized_membership: v.optional(v.boolean("localized_membership must be true or false.")),
  validation: v.optional(FieldValidation),
  /**
   * Values must be unique among the model's entries: `model` across every language (languages of
   * one item may share a value), `language` per language. Only text, slug, integer and decimal fields;
   * a model apply refuses it elsewhere with 422 unique_unsupported (docs/unique-fields.md).
   */
  unique: v.optional(v.picklist(UNIQUE_SCOPES, 'unique must be "model" or "language".')),
  /**
   * When the field shows: terms on other fields of the same model (or the same component), in
   * `all` / `any` groups. Its shape and meaning are checked at model apply (422
   * invalid_field_condition, shared/content/conditions.ts); see docs/content-rules-fields.md.
   */
  condition: v.optional(
    v.pipe(
      v.custom<FieldCondition>(isPlainObject, "condition must be an object."),
      v.title("FieldCondition"),
      v.description(
        'When the field shows: a term `{ field, op, value? }` or a group `{ all: [...] }` / `{ any: [...] }` of at most 4 terms or groups, groups nesting at most 3 levels.',
      ),
    ),
  ),
  /**
   * A component field's own fields: field definitions of the same shape (a nested `id` is
   * optional and defaults to the key; nested values are stored by key). Checked in full when the
   * model is applied (shared/content/components.ts).
   */
  fields: v.optional(
    v.pipe(
      v.array(v.record(v.string(), v.unknown()), "fields must be an array of field definitions."),
      v.minLength(1, "A component needs at least one field."),
      v.maxLength(50, "A component holds at most 50 fields."),
      v.description("A component's fields: field definitions of the same shape (nested `id` optional)."),
    ),
  ),
});
