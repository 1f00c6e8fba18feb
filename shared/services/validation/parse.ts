import * as v from "valibot";
import { AppError, type ErrorCode } from "../../errors";
import { notReservedFieldKey } from "../../../schema/field-types";

/** One problem with a request, by path. */
export interface Issue {
  path: string;
  message: string;
}

/** Flattens valibot issues to `{ path, message }` with dotted paths (`fields[2].key`). */
export function issuesOf(issues: readonly v.BaseIssue<unknown>[]): Issue[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).reduce<string>((acc, item) => {
      const key = item.key;
      if (typeof key === "number") return `${acc}[${key}]`;
      return acc === "" ? String(key) : `${acc}.${String(key)}`;
    }, ""),
    message: issue.message,
  }));
}

/**
 * Parses input against a schema, or throws `code` (default invalid_request) listing every issue.
 * valibot's object and record schemas accept arrays (an array is an object with no such keys), so a
 * JSON `[]` would pass for a closed body `{ expected_revision? }`; and they drop the keys `__proto__`,
 * `constructor` and `prototype` without a word. `shapeIssue` refuses both, at any depth.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown, code: ErrorCode = "invalid_request"): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) requireAllowedFieldKeys(result.issues);
  if (result.success) {
    const issue = shapeIssue(schema, input, "");
    if (issue === undefined) return result.output;
    throw new AppError(code, "The request is not valid.", { issues: [issue] });
  }
  throw new AppError(code, "The request is not valid.", { issues: issuesOf(result.issues) });
}

/**
 * A field key that is a reserved JavaScript name (schema/field-types.ts, `RESERVED_FIELD_KEYS`) is
 * its own refusal, whatever else the body holds: 422 invalid_field_key naming the keys and their
 * paths (a `__proto__` key also fails the key pattern; the reserved name is the clearer answer).
 */
function requireAllowedFieldKeys(issues: readonly v.BaseIssue<unknown>[]): void {
  const reserved = issues.filter((issue) => issue.type === "check" && (issue as { requirement?: unknown }).requirement === notReservedFieldKey);
  if (reserved.length === 0) return;
  // A model's field list parsed on its own (the services' ModelFields) has paths from its `fields`.
  const found = issuesOf(reserved).map((issue) => (issue.path.startsWith("[") ? { ...issue, path: `fields${issue.path}` } : issue));
  throw new AppError("invalid_field_key", `Field keys cannot be names JavaScript objects already use: ${[...new Set(reserved.map((i) => String(i.input)))].join(", ")}.`, {
    keys: [...new Set(reserved.map((issue) => String(issue.input)))],
    issues: found,
  });
}

/** The schema fields a wrapper schema (optional, nullable, …) keeps its inner schema in. */
interface SchemaShape {
  type: string;
  wrapped?: SchemaShape;
  entries?: Record<string, SchemaShape>;
  value?: SchemaShape;
  key?: SchemaShape;
  pipe?: { type: string; requirement?: unknown }[];
  item?: SchemaShape;
  options?: SchemaShape[];
  getter?: (input: unknown) => SchemaShape;
}

const OBJECT_TYPES = new Set(["object", "strict_object", "loose_object", "object_with_rest"]);
const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const join = (path: string, key: string | number) => (typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`);

/** Keys valibot's object and record schemas skip silently (prototype pollution guards). */
const SKIPPED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a record's key schema is a field key's: its pipe refuses reserved names (`notReservedFieldKey`). */
function holdsFieldKeys(key: SchemaShape | undefined): boolean {
  return (key?.pipe ?? []).some((action) => action.type === "check" && action.requirement === notReservedFieldKey);
}

/** The first issue valibot lets through: an array where an object or record is wanted, or a key it would drop. */
function shapeIssue(schema: v.GenericSchema, input: unknown, path: string): Issue | undefined {
  const found = arrayForObject(schema, input, path);
  if (found === undefined) return undefined;
  if (found.startsWith("fieldkey:")) {
    const path = found.slice("fieldkey:".length);
    const key = path.slice(path.lastIndexOf(".") + 1);
    throw new AppError("invalid_field_key", `Field keys cannot be names JavaScript objects already use: ${key}.`, { keys: [key], issues: [{ path, message: "This name cannot be a field key." }] });
  }
  return found.startsWith("key:")
    ? { path: found.slice(4), message: "This key is not allowed" }
    : { path: found, message: "Invalid type: Expected Object but received Array" };
}

/**
 * The path of the first array the input holds where the schema expects an object or a record, or
 * `key:<path>` of a key such a schema would drop, if any.
 */
function arrayForObject(schema: v.GenericSchema, input: unknown, path: string): string | undefined {
  const shape = schema as unknown as SchemaShape;
  if (shape.wrapped) return arrayForObject(shape.wrapped as unknown as v.GenericSchema, input, path);
  if (shape.type === "lazy" && shape.getter) return arrayForObject(shape.getter(input) as unknown as v.GenericSchema, input, path);
  if (OBJECT_TYPES.has(shape.type) || shape.type === "record") {
    if (Array.isArray(input)) return path === "" ? "(body)" : path;
    if (!isPlainObject(input)) return undefined;
    for (const key of Object.keys(input)) if (SKIPPED_KEYS.has(key)) return `${shape.type === "record" && holdsFieldKeys(shape.key) ? "fieldkey" : "key"}:${join(path, key)}`;
    for (const [key, value] of Object.entries(input)) {
      const inner = shape.type === "record" ? shape.value : shape.entries?.[key];
      const found = inner ? arrayForObject(inner as unknown as v.GenericSchema, value, join(path, key)) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (shape.type === "array" && shape.item && Array.isArray(input)) {
    for (const [index, value] of input.entries()) {
      const found = arrayForObject(shape.item as unknown as v.GenericSchema, value, join(path, index));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if ((shape.type === "union" || shape.type === "variant") && shape.options) {
    // The input passed: it is wrong only when every option it could have matched wants an object.
    const matching = shape.options.filter((o) => v.is(o as unknown as v.GenericSchema, input));
    const results = matching.map((o) => arrayForObject(o as unknown as v.GenericSchema, input, path));
    return results.length > 0 && results.every((r) => r !== undefined) ? results[0] : undefined;
  }
  return undefined;
}
