/**
 * Relation field definitions (docs/content-rules-relations.md): the defaults a model write fills in
 * before its fields are parsed, and the rules a parsed definition list must follow. Pure: no I/O.
 */
import { AppError } from "../errors";
import { isToMany, relationKind, type FieldDefinition, type RelationKind } from "../../schema/model-definition";

/** A field as a model write names it, before parsing (id may be missing). */
type RawField = { type?: unknown; relation?: unknown; multiple?: unknown; hierarchy?: unknown; targets?: unknown; fields?: unknown };

/**
 * Fills what a relation field's kind implies: `multiple` from `relation` when left out, and the
 * model itself as the only target of a hierarchy field written without `targets` (a new model has
 * no id its author could name); inside components too.
 */
export function withRelationDefaults<T extends RawField>(fields: readonly T[], modelId: string): T[] {
  return fields.map((field) => {
    // A component's nested fields get the same defaults, so their refusals are the rule's own
    // (relation_type_not_authorable), not a shape error about an implied `multiple`.
    if (field.type === "component" && Array.isArray(field.fields)) {
      // Anything that is not an object is left for the schema to refuse.
      const nested = (field.fields as unknown[]).map((f) => (typeof f === "object" && f !== null && !Array.isArray(f) ? withRelationDefaults([f as RawField], modelId)[0] : f));
      return { ...field, fields: nested };
    }
    if (field.type !== "relation") return field;
    let next = field;
    if (typeof field.relation === "string" && field.multiple === undefined) {
      next = { ...next, multiple: isToMany(field.relation as RelationKind) };
    }
    if (field.hierarchy === true && field.targets === undefined) next = { ...next, targets: [modelId] };
    return next;
  });
}

export interface RelationDefinitionIssue {
  code: "relation_type_not_authorable" | "invalid_request";
  field: string;
  message: string;
}

export interface RelationDefinitionPlace {
  /** The fields are the nested fields of a component field. */
  inComponent?: boolean;
  /** The model the fields belong to (hierarchy targets); unknown for a model not created yet. */
  modelId?: string;
  /** Whether the model is translated (localized_membership needs it). */
  i18n?: boolean;
}

/**
 * Problems of relation fields in a definition list: a component cannot author one-to-many links or
 * per-language lists (both need an owner the component does not have); a hierarchy links the model
 * to itself only; per-language lists only on translated models, and never on a parent link.
 */
export function relationDefinitionIssues(fields: readonly FieldDefinition[], place: RelationDefinitionPlace = {}): RelationDefinitionIssue[] {
  const issues: RelationDefinitionIssue[] = [];
  for (const field of fields) {
    if (field.type !== "relation") continue;
    const kind = relationKind(field);
    if (place.inComponent && kind === "one_to_many") {
      issues.push({ code: "relation_type_not_authorable", field: field.key, message: `A component cannot hold a one_to_many relation ("${field.key}").` });
    }
    if (place.inComponent && field.localized_membership === true) {
      issues.push({ code: "relation_type_not_authorable", field: field.key, message: `A component cannot hold per-language lists (localized_membership on "${field.key}").` });
    }
    if (field.hierarchy === true) {
      if (place.inComponent) {
        issues.push({ code: "relation_type_not_authorable", field: field.key, message: `A component cannot hold a hierarchy (parent) link ("${field.key}").` });
      } else if (place.modelId !== undefined && (field.targets?.length !== 1 || field.targets[0] !== place.modelId)) {
        issues.push({ code: "invalid_request", field: field.key, message: `A hierarchy (parent) link targets its own model only ("${field.key}").` });
      }
      if (field.localized_membership === true) {
        issues.push({ code: "invalid_request", field: field.key, message: `A hierarchy (parent) link belongs to the item, not to a language ("${field.key}").` });
      }
    }
    if (!place.inComponent && field.localized_membership === true && place.i18n === false) {
      issues.push({ code: "invalid_request", field: field.key, message: `localized_membership needs a translated model (enableI18n) ("${field.key}").` });
    }
  }
  return issues;
}

/** Throws the first kind of problem relationDefinitionIssues finds, naming every field with it. */
export function requireRelationDefinitions(fields: readonly FieldDefinition[], place: RelationDefinitionPlace = {}): void {
  const issues = relationDefinitionIssues(fields, place);
  const first = issues[0];
  if (first === undefined) return;
  const same = issues.filter((issue) => issue.code === first.code);
  throw new AppError(first.code, first.message, { fields: same.map((issue) => issue.field), issues: same });
}
