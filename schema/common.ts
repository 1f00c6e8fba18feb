import * as v from "valibot";

/** A JSON value of any shape (field values, details). */
export const JsonValue = v.pipe(v.unknown(), v.title("JsonValue"));

/** The error envelope of the public and management surfaces. */
export const ErrorBody = v.pipe(
  v.object({
    error: v.looseObject({
      code: v.string(),
      message: v.string(),
      request_id: v.optional(v.string()),
    }),
  }),
  v.title("ErrorBody"),
  v.description("Every refusal: a stable code, a message for people (not stable), optional details."),
);

/** A cursor page. */
export const Page = v.pipe(
  v.strictObject({ limit: v.number(), has_more: v.boolean(), next_cursor: v.nullable(v.string()) }),
  v.title("Page"),
);
