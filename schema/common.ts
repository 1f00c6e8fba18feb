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

/**
 * An email address as invitations take it (docs/people.md): a dot-atom local part of letters,
 * digits, `_`, `+` and `-` (as valibot's check), `@`, and a DNS host name — labels of letters,
 * digits and inner hyphens (so punycode `xn--…` domains of internationalised names), a top-level
 * label of letters or punycode. Probe finding (session 17): valibot's own check refused two hyphens
 * in a row, so no address on an internationalised domain could be invited.
 */
// Letter cases spelled out (no `i` flag), so the OpenAPI pattern it becomes means the same.
const EMAIL_ADDRESS = /^[\w+-]+(?:\.[\w+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59})$/;
export const emailAddress = () => v.regex(EMAIL_ADDRESS, "Not an email address (name@host, the host as DNS writes it: punycode for an internationalised name).");
