/**
 * Conditional visibility (spec 3, "Conditional visibility"): a field may declare `condition`, typed
 * terms on OTHER fields of the same scope (the model's top-level fields, or the fields of the same
 * component), in `all` / `any` groups of at most 4 items nesting at most 3 levels. A hidden field's
 * value stays stored and served; `required` holds only while the condition shows the field. The
 * other rules of a value (length, pattern, bounds) apply to any value given, shown or not.
 *
 * Checked at model apply (`conditionIssues`, 422 invalid_field_condition) and evaluated when values
 * are validated (`isShown`). Pure: no I/O. See docs/content-rules-fields.md.
 */
import { dateTimeMillis, isCalendarDate } from "../../schema/dates";
import type { FieldDefinition, FieldType } from "../../schema/model-definition";
import type { Issue } from "../services/validation/parse";

/** Items (terms or groups) a group holds at most. */
export const CONDITION_MAX_TERMS = 4;
/** Levels groups nest at most (a condition's outer group is level 1). */
export const CONDITION_MAX_LEVELS = 3;
/** Options an `in` / `not_in` term lists at most. */
const MAX_LISTED = 200;
/** Characters a text term's value holds at most. */
const MAX_TEXT = 500;

/** Operators that test whether the referenced value is empty: every type but component. */
const EMPTINESS_OPS = ["empty", "not_empty"] as const;

/** The typed operators each referable field type takes (besides `empty` / `not_empty`). */
const TYPED_OPS: Partial<Record<FieldType, readonly string[]>> = {
  boolean: ["equals"],
  select: ["in", "not_in"],
  text: ["equals", "not_equals"],
  long_text: ["equals", "not_equals"],
  slug: ["equals", "not_equals"],
  integer: ["eq", "ne", "lt", "lte", "gt", "gte"],
  decimal: ["eq", "ne", "lt", "lte", "gt", "gte"],
  date: ["before", "after"],
  datetime: ["before", "after"],
};

/** Every operator a term may name, for messages. */
const ALL_OPS = [...new Set([...EMPTINESS_OPS, ...Object.values(TYPED_OPS).flat()])];

type Scope = ReadonlyMap<string, FieldDefinition>;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** The operators a field of `type` may be tested with. */
export function operatorsFor(type: FieldType): readonly string[] {
  return type === "component" ? [] : [...(TYPED_OPS[type] ?? []), ...EMPTINESS_OPS];
}

// ---------------------------------------------------------------------------------------------
// Model apply: the checks.
// ---------------------------------------------------------------------------------------------

/**
 * Every problem of the conditions of one scope's fields (a model's top-level fields, or one
 * component's fields), with paths `<prefix>[i].condition…`: malformed terms or groups, too many
 * items or levels, an unknown or self-referenced field, an operator the referenced type does not
 * take, a value of the wrong type or an unknown option, and cycles between conditional fields.
 */
export function conditionIssues(fields: readonly FieldDefinition[], prefix = "fields"): Issue[] {
  const issues: Issue[] = [];
  const scope: Scope = new Map(fields.map((f) => [f.key, f]));
  const edges = new Map<string, string[]>();
  fields.forEach((field, index) => {
    if (field.condition === undefined) return;
    const refs: string[] = [];
    checkNode(field, field.condition, `${prefix}[${index}].condition`, 0, scope, refs, issues);
    edges.set(field.key, [...new Set(refs)]);
  });
  for (const cycle of cycles(edges)) {
    const index = fields.findIndex((f) => f.key === cycle[0]);
    issues.push({ path: `${prefix}[${index}].condition`, message: `Conditions form a cycle: ${[...cycle, cycle[0]].join(" → ")}.` });
  }
  return issues;
}

/** Checks one term or group at `path`; `level` counts the groups around it. */
function checkNode(owner: FieldDefinition, node: unknown, path: string, level: number, scope: Scope, refs: string[], issues: Issue[]): void {
  if (!isObject(node)) {
    issues.push({ path, message: "A condition is a term { field, op, value } or a group { all: [...] } / { any: [...] }." });
    return;
  }
  const keys = Object.keys(node);
  if (keys.includes("all") || keys.includes("any")) {
    if (keys.length !== 1) {
      issues.push({ path, message: 'A group holds exactly one key: "all" or "any".' });
      return;
    }
    const kind = keys[0] as "all" | "any";
    const items = node[kind];
    const at = `${path}.${kind}`;
    if (level + 1 > CONDITION_MAX_LEVELS) {
      issues.push({ path: at, message: `Condition groups nest at most ${CONDITION_MAX_LEVELS} levels.` });
      return;
    }
    if (!Array.isArray(items) || items.length === 0) {
      issues.push({ path: at, message: "A group lists at least one term or group." });
      return;
    }
    if (items.length > CONDITION_MAX_TERMS) {
      issues.push({ path: at, message: `A group holds at most ${CONDITION_MAX_TERMS} terms or groups.` });
      return;
    }
    items.forEach((item: unknown, i) => checkNode(owner, item, `${at}[${i}]`, level + 1, scope, refs, issues));
    return;
  }
  checkTerm(owner, node, path, scope, refs, issues);
}

function checkTerm(owner: FieldDefinition, term: Record<string, unknown>, path: string, scope: Scope, refs: string[], issues: Issue[]): void {
  const extra = Object.keys(term).filter((k) => k !== "field" && k !== "op" && k !== "value");
  if (extra.length > 0) {
    issues.push({ path: `${path}.${extra[0]}`, message: "A term holds only field, op and value." });
    return;
  }
  const key = term.field;
  if (typeof key !== "string") {
    issues.push({ path: `${path}.field`, message: "A term names a field by its key." });
    return;
  }
  if (key === owner.key) {
    issues.push({ path: `${path}.field`, message: `A field's condition cannot test the field itself ("${key}").` });
    return;
  }
  const target = scope.get(key);
  if (target === undefined) {
    issues.push({ path: `${path}.field`, message: `No field "${key}" here: a condition names a field of the same model (or of the same component).` });
    return;
  }
  refs.push(key);
  const op = term.op;
  const allowed = operatorsFor(target.type);
  if (typeof op !== "string" || !ALL_OPS.includes(op)) {
    issues.push({ path: `${path}.op`, message: `op must be one of: ${ALL_OPS.join(", ")}.` });
    return;
  }
  if (!allowed.includes(op)) {
    const takes = allowed.length === 0 ? "no operator (it cannot be tested)" : allowed.join(", ");
    issues.push({ path: `${path}.op`, message: `"${op}" does not apply to "${key}", a ${target.type} field; it takes ${takes}.` });
    return;
  }
  const problem = valueProblem(target, op, term.value, Object.hasOwn(term, "value"));
  if (problem !== undefined) issues.push({ path: `${path}.value`, message: problem });
}

/** Why `value` does not fit `op` on `target`, or undefined when it does. */
function valueProblem(target: FieldDefinition, op: string, value: unknown, given: boolean): string | undefined {
  if (op === "empty" || op === "not_empty") return given ? `"${op}" takes no value.` : undefined;
  if (!given) return `"${op}" needs a value.`;
  switch (target.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "value must be true or false.";
    case "select": {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LISTED) return `value must list 1 to ${MAX_LISTED} option values.`;
      const options = new Set((target.options ?? []).map((o) => o.value));
      const unknown = (value as unknown[]).filter((item) => typeof item !== "string" || !options.has(item));
      return unknown.length === 0 ? undefined : `Not options of "${target.key}": ${unknown.map((u) => JSON.stringify(u)).join(", ")}.`;
    }
    case "text":
    case "long_text":
    case "slug":
      return typeof value === "string" && value.length <= MAX_TEXT ? undefined : `value must be a string of at most ${MAX_TEXT} characters.`;
    case "integer":
    case "decimal":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "value must be a finite number.";
    case "date":
      return typeof value === "string" && isCalendarDate(value) ? undefined : "value must be a YYYY-MM-DD date.";
    case "datetime":
      return typeof value === "string" && dateTimeMillis(value) !== undefined ? undefined : "value must be an ISO-8601 date-time with Z or an offset.";
    default:
      return `"${op}" does not apply to a ${target.type} field.`;
  }
}

/** Each cycle among conditional fields once (as the keys along it, from its first field in order). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (key: string): void => {
    state.set(key, "open");
    stack.push(key);
    for (const next of edges.get(key) ?? []) {
      const s = state.get(next);
      if (s === "open") found.push(stack.slice(stack.indexOf(next)));
      else if (s === undefined && edges.has(next)) visit(next);
    }
    stack.pop();
    state.set(key, "done");
  };
  for (const key of edges.keys()) if (!state.has(key)) visit(key);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Values: evaluation.
// ---------------------------------------------------------------------------------------------

/** True when a value counts as empty: missing, null, "", [] or {}. */
function emptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/**
 * Whether `field` shows given the values of its scope (by key): true without a condition. A stored
 * condition was checked at apply; anything it cannot read (a field since removed, a value of another
 * type) makes its term false rather than failing the save.
 */
export function isShown(field: FieldDefinition, fields: readonly FieldDefinition[], values: Readonly<Record<string, unknown>>): boolean {
  if (field.condition === undefined) return true;
  const scope: Scope = new Map(fields.map((f) => [f.key, f]));
  return holds(field.condition, scope, values, 0);
}

function holds(node: unknown, scope: Scope, values: Readonly<Record<string, unknown>>, level: number): boolean {
  if (!isObject(node) || level > CONDITION_MAX_LEVELS) return false;
  if (Array.isArray(node.all)) return node.all.every((item: unknown) => holds(item, scope, values, level + 1));
  if (Array.isArray(node.any)) return node.any.some((item: unknown) => holds(item, scope, values, level + 1));
  const target = typeof node.field === "string" ? scope.get(node.field) : undefined;
  if (target === undefined || typeof node.op !== "string") return false;
  const value = Object.hasOwn(values, target.key) ? values[target.key] : undefined;
  return termHolds(target, node.op, node.value, value);
}

/**
 * One term against the referenced value. An empty value satisfies `empty`, and the negative
 * operators `not_equals`, `not_in` and `ne`; no other.
 */
function termHolds(target: FieldDefinition, op: string, expected: unknown, value: unknown): boolean {
  const empty = emptyValue(value);
  switch (op) {
    case "empty":
      return empty;
    case "not_empty":
      return !empty;
    case "equals":
      return !empty && value === expected;
    case "not_equals":
      return empty || value !== expected;
    case "in":
    case "not_in": {
      const listed = new Set(Array.isArray(expected) ? expected : []);
      const chosen = (Array.isArray(value) ? value : [value]).filter((item) => typeof item === "string");
      const hit = !empty && chosen.some((item) => listed.has(item));
      return op === "in" ? hit : !hit;
    }
    case "eq":
    case "ne":
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      if (empty || typeof value !== "number" || typeof expected !== "number") return op === "ne";
      return op === "eq" ? value === expected : op === "ne" ? value !== expected : op === "lt" ? value < expected : op === "lte" ? value <= expected : op === "gt" ? value > expected : value >= expected;
    }
    case "before":
    case "after": {
      if (empty || typeof value !== "string" || typeof expected !== "string") return false;
      const at = target.type === "date" ? (isCalendarDate(value) ? value : undefined) : dateTimeMillis(value);
      const bound = target.type === "date" ? (isCalendarDate(expected) ? expected : undefined) : dateTimeMillis(expected);
      if (at === undefined || bound === undefined) return false;
      return op === "before" ? at < bound : at > bound;
    }
    default:
      return false;
  }
}
