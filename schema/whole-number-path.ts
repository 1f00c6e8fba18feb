import * as v from "valibot";

/**
 * Path parameters that are whole numbers (an import upload's `part`). A path segment is text, so
 * the route parses the digits as a string and OpenAPI says so; the declaration is kept beside the
 * schema (not in it, so the generated contract is unchanged) and read by the MCP tools
 * (schema/mcp-tools.ts), which take a JSON number for such a parameter (`part: 1` for `"1"`) —
 * derived from the route table, so a new whole-number parameter needs no list of names. Ids are
 * declared as plain strings and stay strings: a number given for one is a wrong argument.
 */
const declared = new WeakSet<object>();

/** 1 to 10^digits − 1, written without leading zeros. */
export function WholeNumberPath(digits: number) {
  const schema = v.pipe(v.string(), v.regex(new RegExp(`^[1-9][0-9]{0,${digits - 1}}$`)));
  declared.add(schema);
  return schema;
}

/** Whether a path parameter's schema was declared by {@link WholeNumberPath}. */
export function isWholeNumberPath(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && declared.has(schema);
}
