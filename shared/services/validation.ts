import * as v from "valibot";
import { AppError, type ErrorCode } from "../errors";

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

/** Parses input against a schema, or throws `code` (default invalid_request) listing every issue. */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown, code: ErrorCode = "invalid_request"): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw new AppError(code, "The request is not valid.", { issues: issuesOf(result.issues) });
}
