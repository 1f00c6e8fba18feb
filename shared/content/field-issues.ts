/** The vocabulary of field validation: modes, issue codes and the shape of one issue. */

/**
 * How strictly required fields are enforced. `draft`: required fields may be missing or empty (a
 * draft may be incomplete), but every value given must still be well-formed and within bounds.
 * `publish` and `strict` (a site that validates every save as if publishing): required fields must
 * hold a non-empty value too.
 */
export type ValidationMode = "draft" | "publish" | "strict";

/** Every code a FieldIssue can carry. */
export type FieldIssueCode =
  | "unknown_field"
  | "required"
  | "wrong_type"
  | "too_short"
  | "too_long"
  | "pattern_mismatch"
  | "below_min"
  | "above_max"
  | "step_mismatch"
  | "not_an_option"
  | "too_few_items"
  | "too_many_items"
  | "duplicate_item"
  | "invalid_date"
  | "invalid_slug"
  | "out_of_range";

/**
 * One problem with one value. `path` is the field key, followed by `[i]` for an item of a
 * multi-value field or `.lat` / `.lon` for a part of a location (`categories[2]`, `location.lat`),
 * and inside a component by `.` and the nested path (`seo.title`, `faq[1].question`).
 * `code` is stable and meant for programs; `message` is for people.
 */
export interface FieldIssue {
  path: string;
  code: string;
  message: string;
}

/** Records one issue at a path. */
export type Push = (path: string, code: FieldIssueCode, message: string) => void;
