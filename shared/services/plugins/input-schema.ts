/**
 * An operation's `input` checked against the manifest's `input_schema` before the plugin is called
 * (spec 2: 400 `input_invalid` with `issues`). The schema is a JSON Schema subset
 * (docs/plugin-operations.md, "Input"): `type` (object, string, integer, number, boolean, array,
 * null), `properties`, `required`, `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `minLength`, `maxLength` (code points), `items`, `minItems`, `maxItems`.
 * Other keywords (`description`, `title`, `default`, …) are ignored. Objects are closed: a key
 * the schema does not name is an issue ("unknown key"), whatever `additionalProperties` says,
 * because spec 2 refuses "plugin operation input with unknown key".
 */

export interface InputIssue {
  /** Dotted path of the value (`""` for the whole input, `tags.2` for an array item). */
  path: string;
  code: "unknown_key" | "required" | "invalid_type" | "not_allowed" | "too_small" | "too_big";
  message: string;
}

type Schema = Record<string, unknown>;

/** Issues beyond this many are not reported (a hostile input cannot make the answer huge). */
const MAX_ISSUES = 50;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: string, value: unknown): boolean {
  const actual = typeOf(value);
  if (expected === "number") return actual === "number" || actual === "integer";
  return expected === actual;
}

function num(schema: Schema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function join(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function check(schema: Schema, value: unknown, path: string, issues: InputIssue[]): void {
  if (issues.length >= MAX_ISSUES) return;
  const types = Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === "string") : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length > 0 && !types.some((t) => typeMatches(t, value))) {
    issues.push({ path, code: "invalid_type", message: `Expected ${types.join(" or ")}, got ${typeOf(value)}.` });
    return;
  }
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    issues.push({ path, code: "not_allowed", message: `Expected ${JSON.stringify(schema.const)}.` });
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    issues.push({ path, code: "not_allowed", message: `Expected one of ${schema.enum.map((x) => JSON.stringify(x)).join(", ")}.` });
  }
  if (typeof value === "number") {
    const min = num(schema, "minimum");
    const max = num(schema, "maximum");
    const xmin = num(schema, "exclusiveMinimum");
    const xmax = num(schema, "exclusiveMaximum");
    if (min !== undefined && value < min) issues.push({ path, code: "too_small", message: `Must be at least ${min}.` });
    if (xmin !== undefined && value <= xmin) issues.push({ path, code: "too_small", message: `Must be more than ${xmin}.` });
    if (max !== undefined && value > max) issues.push({ path, code: "too_big", message: `Must be at most ${max}.` });
    if (xmax !== undefined && value >= xmax) issues.push({ path, code: "too_big", message: `Must be less than ${xmax}.` });
  }
  if (typeof value === "string") {
    const length = [...value].length;
    const min = num(schema, "minLength");
    const max = num(schema, "maxLength");
    if (min !== undefined && length < min) issues.push({ path, code: "too_small", message: `Must be at least ${min} characters.` });
    if (max !== undefined && length > max) issues.push({ path, code: "too_big", message: `Must be at most ${max} characters.` });
  }
  if (Array.isArray(value)) {
    const min = num(schema, "minItems");
    const max = num(schema, "maxItems");
    if (min !== undefined && value.length < min) issues.push({ path, code: "too_small", message: `Must hold at least ${min} items.` });
    if (max !== undefined && value.length > max) issues.push({ path, code: "too_big", message: `Must hold at most ${max} items.` });
    if (isObject(schema.items)) value.forEach((item, i) => check(schema.items as Schema, item, join(path, i), issues));
  }
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : [];
    for (const key of required) if (!Object.hasOwn(value, key)) issues.push({ path: join(path, key), code: "required", message: "Required." });
    for (const [key, item] of Object.entries(value)) {
      const inner = properties[key];
      if (!Object.hasOwn(properties, key) || !isObject(inner)) issues.push({ path: join(path, key), code: "unknown_key", message: "Unknown key." });
      else check(inner, item, join(path, key), issues);
    }
  }
}

/** Issues of `input` against `schema` (empty: valid). */
export function inputIssues(schema: Schema, input: unknown): InputIssue[] {
  const issues: InputIssue[] = [];
  check(schema, input, "", issues);
  return issues.slice(0, MAX_ISSUES);
}

/**
 * How an operation takes input, for its list entry (`input`): `none` when the schema names no
 * property, `required` when it requires one, else `optional`.
 */
export function inputMode(schema: Schema): "none" | "optional" | "required" {
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (properties.length === 0) return "none";
  return Array.isArray(schema.required) && schema.required.length > 0 ? "required" : "optional";
}
