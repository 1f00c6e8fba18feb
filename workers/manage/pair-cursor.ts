import { AppError } from "../../shared/errors";

/**
 * The unsigned cursor of the keyset lists ordered by one column then id (releases by
 * `created_at`, schedules by `at`): the page's first row as `[value, id]` in base64 JSON. It
 * reveals nothing a reader of the list cannot see, so it is not signed; anything else is refused.
 */
export const encodePairCursor = (value: string, id: string): string => btoa(JSON.stringify([value, id])).replaceAll("=", "");

export function decodePairCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(atob(cursor));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((x) => typeof x === "string")) return parsed as [string, string];
  } catch {
    // falls through to the refusal
  }
  throw new AppError("invalid_request", "The cursor is not one this list gave.");
}
