/**
 * Component fields (type `component`): a group of nested field definitions, one object of values
 * (or, with `multiple: true`, a list of them). Nested values are stored and served by nested key.
 * What may nest and how deep is checked at model apply (`componentIssues`); the helpers below read
 * stored values for the management API (`knownComponentValue`) and the public API
 * (`publicComponentValue`: private nested fields dropped), and walk the nested relation, media and
 * rich-text values (`componentLeaves`, `mapComponentLeaves`) for the lifecycle's checks, links,
 * media usage and rendering, which treat them as their top-level forms. Pure: no I/O.
 * See docs/content-rules-fields.md.
 */
import type { FieldDefinition, FieldType } from "../../schema/model-definition";
import type { Issue } from "../services/validation/parse";

/** Components nest at most this deep: a component in a component in a component. */
export const COMPONENT_MAX_DEPTH = 3;
/** Items a repeatable component holds at most, whatever its max_items. */
export const COMPONENT_MAX_ITEMS = 100;
/** Field definitions a model holds at most, nested ones counted. */
export const MODEL_MAX_FIELD_DEFINITIONS = 500;

/**
 * Types a component may not hold, and why: a slug is the entry's address. (Relations, media and
 * rich text nest and work like their top-level forms; a relation kind that needs an owner the
 * component does not have is relation_type_not_authorable.)
 */
const REFUSED_INSIDE: Partial<Record<FieldType, string>> = {
  slug: "A slug is the entry's address: it cannot be inside a component.",
};

/** What a model apply refuses in its components: codes and their issues. */
export interface ComponentProblems {
  /** 422 relation_type_not_authorable: a one-to-many or localized-membership relation inside a component. */
  notAuthorable: Issue[];
  /** 422 invalid_field_config: everything else. */
  config: Issue[];
}

/** Calls `visit` for the model's fields and each component's fields, with the path prefix and depth (0 = the model). */
export function forEachFieldScope(
  fields: readonly FieldDefinition[],
  visit: (scope: readonly FieldDefinition[], prefix: string, depth: number) => void,
  prefix = "fields",
  depth = 0,
): void {
  visit(fields, prefix, depth);
  fields.forEach((field, index) => {
    if (field.type === "component" && field.fields !== undefined) forEachFieldScope(field.fields, visit, `${prefix}[${index}].fields`, depth + 1);
  });
}

/** Every problem of the model's components, with paths `fields[i].fields[j].<setting>`. */
export function componentIssues(fields: readonly FieldDefinition[]): ComponentProblems {
  const problems: ComponentProblems = { notAuthorable: [], config: [] };
  let count = 0;
  forEachFieldScope(fields, (scope, prefix, depth) => {
    count += scope.length;
    if (depth === 0) return;
    const seen = new Set<string>();
    scope.forEach((field, index) => {
      const at = (setting: string) => `${prefix}[${index}].${setting}`;
      if (seen.has(field.key)) problems.config.push({ path: at("key"), message: `Field key "${field.key}" is used by more than one field of this component.` });
      seen.add(field.key);
      // H1's relation kinds: checked on the property so the refusal holds once they land.
      const relation = field as { relation?: unknown; localized_membership?: unknown; localizedMembership?: unknown };
      if (field.type === "relation" && relation.relation === "one_to_many") {
        problems.notAuthorable.push({ path: at("relation"), message: "A component cannot hold a one-to-many relation." });
      } else if (field.type === "relation" && (relation.localized_membership !== undefined || relation.localizedMembership !== undefined)) {
        problems.notAuthorable.push({ path: at("localized_membership"), message: "Language-specific relation membership cannot be inside a component." });
      } else if (field.type === "relation" && field.hierarchy === true) {
        problems.notAuthorable.push({ path: at("hierarchy"), message: "A hierarchy (parent) link belongs to the item: it cannot be inside a component." });
      } else if (REFUSED_INSIDE[field.type] !== undefined) {
        problems.config.push({ path: at("type"), message: REFUSED_INSIDE[field.type] ?? "" });
      }
      if (field.type === "component" && depth >= COMPONENT_MAX_DEPTH) {
        problems.config.push({ path: at("type"), message: `Components nest at most ${COMPONENT_MAX_DEPTH} levels.` });
      }
      if (field.unique !== undefined) problems.config.push({ path: at("unique"), message: "A field inside a component cannot be unique." });
      if (field.title === true) problems.config.push({ path: at("title"), message: "A field inside a component cannot be the entry's title." });
    });
  });
  if (count > MODEL_MAX_FIELD_DEFINITIONS) {
    problems.config.push({ path: "fields", message: `A model holds at most ${MODEL_MAX_FIELD_DEFINITIONS} field definitions, nested ones counted (this one: ${count}).` });
  }
  return problems;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * A stored component value with only the keys its fields define (values of nested fields since
 * removed or renamed are dropped, as a removed top-level field's are), private fields left out when
 * `publicOnly`. A value of another shape is answered as it is (it was validated when stored).
 */
function pickComponentValue(field: FieldDefinition, value: unknown, publicOnly: boolean): unknown {
  const nested = field.fields ?? [];
  const pick = (item: unknown): unknown => {
    if (!isObject(item)) return item;
    const entries: [string, unknown][] = [];
    for (const inner of nested) {
      if (publicOnly && inner.private === true) continue;
      if (!Object.hasOwn(item, inner.key)) continue;
      const v = item[inner.key];
      entries.push([inner.key, inner.type === "component" ? pickComponentValue(inner, v, publicOnly) : v]);
    }
    // fromEntries defines own properties, so even a key such as "__proto__" stays plain data.
    return Object.fromEntries(entries);
  };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

/** A component value as the management API reads it: known nested keys only. */
export function knownComponentValue(field: FieldDefinition, value: unknown): unknown {
  return pickComponentValue(field, value, false);
}

/** A component value as the public API serves it: known, non-private nested keys only. */
export function publicComponentValue(field: FieldDefinition, value: unknown): unknown {
  return pickComponentValue(field, value, true);
}

/** Every field definition of a model, nested ones included (depth first, in field order). */
export function allFieldDefinitions(fields: readonly FieldDefinition[]): FieldDefinition[] {
  const all: FieldDefinition[] = [];
  forEachFieldScope(fields, (scope) => all.push(...scope));
  return all;
}

/** Nested types whose values the lifecycle treats like their top-level forms. */
const LEAF_TYPES: ReadonlySet<FieldType> = new Set(["relation", "media", "rich_text"]);

/** A relation, media or rich-text value inside a component value. */
export interface ComponentLeaf {
  /** The nested field's definition. */
  field: FieldDefinition;
  /** Its full path in the API's values: `seo.author`, `faq[1].image`, `sections[0].cta.link`. */
  path: string;
  /**
   * The id its relation links are stored under (`relation_links.field_id`): the top-level
   * component field's id, then the nested keys (`fld_x.cta.link`). Positions run over every item of
   * a repeatable component, in value order (`componentLeaves`).
   */
  linkId: string;
  value: unknown;
}

/**
 * A component value with each relation, media and rich-text value inside it (at any depth) replaced
 * by what `visit` returns for it; keys `visit` is not called for (other types, unknown keys) stay as
 * they are, and so does a value of another shape. Visits in value order: items, then fields in the
 * component's field order — the order link positions follow.
 */
export function mapComponentLeaves(field: FieldDefinition, value: unknown, path: string, linkId: string, visit: (leaf: ComponentLeaf) => unknown): unknown {
  const nested = field.fields ?? [];
  const mapItem = (item: unknown, at: string): unknown => {
    if (!isObject(item)) return item;
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(item));
    for (const inner of nested) {
      if (!Object.hasOwn(item, inner.key)) continue;
      const v = item[inner.key];
      const innerPath = `${at}.${inner.key}`;
      const innerLink = `${linkId}.${inner.key}`;
      if (inner.type === "component") out[inner.key] = mapComponentLeaves(inner, v, innerPath, innerLink, visit);
      else if (LEAF_TYPES.has(inner.type)) out[inner.key] = visit({ field: inner, path: innerPath, linkId: innerLink, value: v });
    }
    return out;
  };
  return Array.isArray(value) ? value.map((item, index) => mapItem(item, `${path}[${index}]`)) : mapItem(value, path);
}

/**
 * The relation, media and rich-text values inside the component values of `values` (by field id
 * when `by` is "id", else by key), in value order. Only top-level component fields are walked.
 */
export function componentLeaves(fields: readonly FieldDefinition[], values: Readonly<Record<string, unknown>>, by: "id" | "key"): (ComponentLeaf & { component: FieldDefinition })[] {
  const leaves: (ComponentLeaf & { component: FieldDefinition })[] = [];
  for (const field of fields) {
    const source = by === "id" ? field.id : field.key;
    if (field.type !== "component" || !Object.hasOwn(values, source)) continue;
    mapComponentLeaves(field, values[source], field.key, field.id, (leaf) => {
      leaves.push({ ...leaf, component: field });
      return leaf.value;
    });
  }
  return leaves;
}

/**
 * The nested field definitions of a top-level component field, each with its link id
 * (`ComponentLeaf.linkId`) and its key path without item indexes (`faq.link`).
 */
export function nestedDefinitions(component: FieldDefinition): { field: FieldDefinition; linkId: string; keyPath: string }[] {
  const found: { field: FieldDefinition; linkId: string; keyPath: string }[] = [];
  const walk = (fields: readonly FieldDefinition[], linkId: string, keyPath: string) => {
    for (const inner of fields) {
      found.push({ field: inner, linkId: `${linkId}.${inner.key}`, keyPath: `${keyPath}.${inner.key}` });
      if (inner.type === "component") walk(inner.fields ?? [], `${linkId}.${inner.key}`, `${keyPath}.${inner.key}`);
    }
  };
  if (component.type === "component") walk(component.fields ?? [], component.id, component.key);
  return found;
}
