/**
 * The content model field definitions: valibot schemas are the source of truth, and every type
 * here is inferred from its schema under the same name (`FieldDefinition` is both).
 */
import * as v from "valibot";
import { dateTimeMillis, isCalendarDate } from "./dates";

// ---------------------------------------------------------------------------------------------
// Field types and groups.
// ---------------------------------------------------------------------------------------------

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

export const FieldKey = v.pipe(
  v.string("Field key must be a string."),
  v.regex(
    /^[a-z][a-zA-Z0-9_]{0,63}$/,
    "Field key must start with a lowercase letter and hold at most 64 letters, digits or underscores.",
  ),
  v.title("FieldKey"),
  v.description("The name a field's value has in the API, such as `title` or `heroImage`."),
);
export type FieldKey = v.InferOutput<typeof FieldKey>;

/** A term of a field's condition: `{ field, op, value? }` (shared/content/conditions.ts). */
export interface ConditionTerm {
  field: string;
  op: string;
  value?: string | number | boolean | string[];
}
interface ConditionGroup3 {
  all?: ConditionTerm[];
  any?: ConditionTerm[];
}
interface ConditionGroup2 {
  all?: (ConditionTerm | ConditionGroup3)[];
  any?: (ConditionTerm | ConditionGroup3)[];
}
interface ConditionGroup1 {
  all?: (ConditionTerm | ConditionGroup2)[];
  any?: (ConditionTerm | ConditionGroup2)[];
}
/**
 * When a field shows: one term, or a group of at most 4 terms or groups, nesting at most 3 levels.
 * The request schema takes any object here; a model apply checks it in full (422
 * invalid_field_condition) before it is stored, so a stored condition has this shape.
 */
export type FieldCondition = ConditionTerm | ConditionGroup1;
const isPlainObject = (input: unknown): boolean => typeof input === "object" && input !== null && !Array.isArray(input);

// ---------------------------------------------------------------------------------------------
// Field definition.
// ---------------------------------------------------------------------------------------------

const nonNegativeInteger = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number.`),
    v.integer(`${name} must be a whole number.`),
    v.minValue(0, `${name} must not be negative.`),
  );

const finiteNumber = (name: string) => v.pipe(v.number(`${name} must be a number.`), v.finite(`${name} must be finite.`));

const boundedString = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(`${name} must be a string.`),
    v.minLength(min, `${name} must hold at least ${min} character${min === 1 ? "" : "s"}.`),
    v.maxLength(max, `${name} must hold at most ${max} characters.`),
  );

export const FieldOption = v.pipe(
  v.strictObject({
    value: boundedString("Option value", 1, 120),
    label: boundedString("Option label", 1, 120),
  }),
  v.title("FieldOption"),
  v.description("One choice of a select field: the stored value and the label editors see."),
);
export type FieldOption = v.InferOutput<typeof FieldOption>;

export const FieldValidation = v.pipe(
  v.strictObject({
    min_length: v.optional(nonNegativeInteger("min_length")),
    max_length: v.optional(nonNegativeInteger("max_length")),
    pattern: v.optional(
      v.pipe(
        v.string("pattern must be a string."),
        v.maxLength(500, "pattern must hold at most 500 characters."),
      ),
    ),
    min: v.optional(finiteNumber("min")),
    max: v.optional(finiteNumber("max")),
    step: v.optional(v.pipe(finiteNumber("step"), v.gtValue(0, "step must be greater than 0."))),
    min_items: v.optional(nonNegativeInteger("min_items")),
    max_items: v.optional(nonNegativeInteger("max_items")),
    min_date: v.optional(v.pipe(v.string("min_date must be a string."), v.maxLength(64, "min_date is too long."))),
    max_date: v.optional(v.pipe(v.string("max_date must be a string."), v.maxLength(64, "max_date is too long."))),
    /**
     * Executable custom text validation. Named so that a model asking for it gets spec 3's answer:
     * a model apply refuses it with 422 unsupported_text_validation (docs/content-rules-fields.md).
     */
    custom: v.optional(v.custom<string | number | boolean | object>((input) => input !== null && input !== undefined, "custom must not be null.")),
  }),
  // Whether a pattern compiles (under RE2) and whether each minimum stays below its maximum are
  // checked where a model is applied (shared/content/field-validation-rules.ts): spec 3 answers
  // them with 422 invalid_field_validation, not with the request's shape error.
  v.title("FieldValidation"),
  v.description("Bounds a field's value must respect; each setting applies to some field types only."),
);
export type FieldValidation = v.InferOutput<typeof FieldValidation>;

const VALIDATION_LENGTH_KEYS = ["min_length", "max_length", "pattern"] as const;
const VALIDATION_NUMBER_KEYS = ["min", "max", "step"] as const;
const VALIDATION_DATE_KEYS = ["min_date", "max_date"] as const;
const VALIDATION_ITEM_KEYS = ["min_items", "max_items"] as const;

/** True when none of `keys` is set in `validation`. */
function noneSet(validation: FieldValidation | undefined, keys: readonly (keyof FieldValidation)[]): boolean {
  return validation === undefined || keys.every((key) => validation[key] === undefined);
}

/** The instant or day a date bound names for a field of `type`, or undefined when malformed. */
function dateBound(type: FieldType, value: string): number | string | undefined {
  if (type === "date") return isCalendarDate(value) ? value : undefined;
  return dateTimeMillis(value);
}

export const FieldDefinitionEntries = v.strictObject({
  id: v.pipe(
    boundedString("Field id", 1, 64),
    v.regex(/^[A-Za-z0-9_-]*$/, "Field id may hold only letters, digits, underscores and hyphens."),
  ),
  key: FieldKey,
  label: boundedString("Field label", 1, 120),
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

type FieldDefinitionCore = v.InferOutput<typeof FieldDefinitionEntries>;

/**
 * A field definition as stored: a component's `fields` are field definitions too (nested ids
 * default to their keys). Written out to the depth components may nest (3 levels), not as a
 * recursive type: the Durable Object RPC types cannot map a recursive one.
 */
export interface FieldDefinition extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField1[];
}
interface NestedField1 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField2[];
}
interface NestedField2 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField3[];
}
interface NestedField3 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: Omit<FieldDefinitionCore, "fields">[];
}

/** A component's fields, parsed with the field schema itself (recursion through v.lazy). */
const NestedFields: v.GenericSchema<unknown, FieldDefinition[]> = v.lazy(() =>
  v.pipe(
    v.array(FieldDefinition, "fields must be an array of field definitions."),
    v.minLength(1, "A component needs at least one field."),
    v.maxLength(50, "A component holds at most 50 fields."),
  ),
);

// Two pipes, one inside the other: valibot types a pipe of at most 19 items, and a field's checks are more.
const FieldDefinitionShape = v.pipe(
  v.strictObject({ ...FieldDefinitionEntries.entries, id: v.optional(FieldDefinitionEntries.entries.id), fields: v.optional(NestedFields) }),
  // fields: only and always for component.
  v.forward(
    v.partialCheck(
      [["type"], ["fields"]],
      (input) => input.type === "component" || input.fields === undefined,
      "fields are only allowed on component fields.",
    ),
    ["fields"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["fields"]],
      (input) => input.type !== "component" || input.fields !== undefined,
      "A component field needs fields.",
    ),
    ["fields"],
  ),
  // options: only and always for select.
  v.forward(
    v.partialCheck(
      [["type"], ["options"]],
      (input) => input.type === "select" || input.options === undefined,
      "options are only allowed on select fields.",
    ),
    ["options"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["options"]],
      (input) => input.type !== "select" || input.options !== undefined,
      "A select field needs options.",
    ),
    ["options"],
  ),
  // targets: only and always for relation.
  v.forward(
    v.partialCheck(
      [["type"], ["targets"]],
      (input) => input.type === "relation" || input.targets === undefined,
      "targets are only allowed on relation fields.",
    ),
    ["targets"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["targets"]],
      (input) => input.type !== "relation" || input.targets !== undefined,
      "A relation field needs targets: the models it may point to.",
    ),
    ["targets"],
  ),
  // relation kind, hierarchy and localized_membership: only for relation fields, and consistent.
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["hierarchy"], ["localized_membership"]],
      (input) => input.type === "relation" || (input.relation === undefined && input.hierarchy === undefined && input.localized_membership === undefined),
      "relation, hierarchy and localized_membership are only allowed on relation fields.",
    ),
    ["relation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["multiple"]],
      (input) => input.type !== "relation" || input.relation === undefined || isToMany(input.relation) === (input.multiple === true),
      "one_to_many and many_to_many relations hold lists (multiple: true); one_to_one and many_to_one hold one item.",
    ),
    ["multiple"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["multiple"], ["hierarchy"]],
      (input) => input.hierarchy !== true || !isToMany(relationKind(input)),
      "A hierarchy (parent) link is to-one: many_to_one or one_to_one.",
    ),
    ["hierarchy"],
  ),
);

export const FieldDefinition: v.GenericSchema<unknown, FieldDefinition> = v.pipe(
  FieldDefinitionShape,
  // multiple: only for select, media and relation.
  v.forward(
    v.partialCheck(
      [["type"], ["multiple"]],
      (input) => input.multiple !== true || MULTIPLE_TYPES.includes(input.type),
      "multiple is only allowed on select, media, relation and component fields.",
    ),
    ["multiple"],
  ),
  // title: the entry's label comes from a text field.
  v.forward(
    v.partialCheck(
      [["type"], ["title"]],
      (input) => input.title !== true || input.type === "text",
      "Only a text field can be the title.",
    ),
    ["title"],
  ),
  // validation settings per type.
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => LENGTH_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_LENGTH_KEYS),
      "min_length, max_length and pattern only apply to text, long_text, rich_text and slug fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => NUMBER_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_NUMBER_KEYS),
      "min, max and step only apply to integer and decimal fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => DATE_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_DATE_KEYS),
      "min_date and max_date only apply to date and datetime fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["multiple"], ["validation"]],
      (input) => input.multiple === true || noneSet(input.validation, VALIDATION_ITEM_KEYS),
      "min_items and max_items only apply to fields with multiple: true.",
    ),
    ["validation"],
  ),
  // date bounds: in the type's own format, and in order.
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => {
        const bound = input.validation?.min_date;
        return bound === undefined || !DATE_TYPES.includes(input.type) || dateBound(input.type, bound) !== undefined;
      },
      (issue) =>
        `min_date must be ${issue.input.type === "date" ? "a YYYY-MM-DD date" : "an ISO-8601 date-time with Z or an offset"}.`,
    ),
    ["validation", "min_date"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => {
        const bound = input.validation?.max_date;
        return bound === undefined || !DATE_TYPES.includes(input.type) || dateBound(input.type, bound) !== undefined;
      },
      (issue) =>
        `max_date must be ${issue.input.type === "date" ? "a YYYY-MM-DD date" : "an ISO-8601 date-time with Z or an offset"}.`,
    ),
    ["validation", "max_date"],
  ),
  // A nested field may leave its id out (values inside a component are stored by key); the
  // services give every top-level field an id before parsing.
  v.transform((field) => ({ ...field, id: field.id ?? field.key })),
  v.title("FieldDefinition"),
  v.description("One field of a content model."),
);

// ---------------------------------------------------------------------------------------------
// A model's fields.
// ---------------------------------------------------------------------------------------------

/** Indexes of items whose `pick` value was already seen earlier in `items`. */
function repeats<T>(items: readonly T[], pick: (item: T) => unknown): number[] {
  const seen = new Set<unknown>();
  const found: number[] = [];
  items.forEach((item, index) => {
    const value = pick(item);
    if (seen.has(value)) found.push(index);
    seen.add(value);
  });
  return found;
}

export const ModelFields = v.pipe(
  v.array(FieldDefinition, "fields must be an array of field definitions."),
  v.maxLength(200, "A model holds at most 200 fields."),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const fields = dataset.value;
    const at = (index: number, key: "key" | "id" | "title"): [v.IssuePathItem, ...v.IssuePathItem[]] => {
      const field = fields[index];
      const item: v.IssuePathItem = { type: "array", origin: "value", input: fields, key: index, value: field };
      return field === undefined
        ? [item]
        : [item, { type: "object", origin: "value", input: field as unknown as Record<string, unknown>, key, value: field[key] }];
    };
    for (const index of repeats(fields, (field) => field.key)) {
      addIssue({ message: `Field key "${fields[index]?.key}" is used by more than one field.`, path: at(index, "key") });
    }
    for (const index of repeats(fields, (field) => field.id)) {
      addIssue({ message: `Field id "${fields[index]?.id}" is used by more than one field.`, path: at(index, "id") });
    }
    const titles = fields.flatMap((field, index) => (field.title === true ? [index] : []));
    for (const index of titles.slice(1)) {
      addIssue({ message: "Only one field can be the title.", path: at(index, "title") });
    }
  }),
  v.title("ModelFields"),
  v.description("The fields of a content model, in display order; keys and ids are unique."),
);
export type ModelFields = v.InferOutput<typeof ModelFields>;

/** A field's value as stored and served: what a valid value of any field type looks like. */
export type FieldValue = string | number | boolean | null | string[] | { lat: number; lon: number } | ComponentValue | ComponentValue[];
/** A component's value: its fields' values by nested key. */
export interface ComponentValue {
  [key: string]: FieldValue;
}
