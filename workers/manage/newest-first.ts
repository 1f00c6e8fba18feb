import { sha256Hex } from "../../shared/crypto/digest";
import { AppError } from "../../shared/errors";
import { decodeCursor, encodeCursor } from "../../shared/public/cursor";
import { signingSecret } from "../../shared/public/signing-keys";

/**
 * Newest-first cursor pages of the management lists (entries, proposals): rows ordered by
 * `created_at` then id, both descending; the signed cursor names the first row of the next page
 * and the site and list (name and filters) it belongs to, so it continues only that list of that
 * site (a cursor of site A is refused by site B's list: 400 invalid_request).
 */
export interface NewestFirst {
  /** Where the page starts (`created_at`, id), or undefined for the first page. */
  from: { createdAt: string; id: string } | undefined;
  /** The cursor of the page that starts at `row`. */
  cursorAt(row: { created_at: string; id: string }): Promise<string>;
}

export async function newestFirst(d1: D1Database, siteId: string, list: readonly unknown[], cursor: string | undefined): Promise<NewestFirst> {
  const shape = (await sha256Hex(JSON.stringify([siteId, ...list]))).slice(0, 16);
  const secret = await signingSecret(d1, "cursor");
  let from: NewestFirst["from"];
  if (cursor) {
    const state = await decodeCursor(secret, cursor);
    if (!state || state.q !== shape) throw new AppError("invalid_request", "This cursor is not valid for this list.", { parameter: "cursor" });
    from = { createdAt: state.s, id: state.g };
  }
  return { from, cursorAt: (row) => encodeCursor(secret, { q: shape, s: row.created_at, g: row.id }) };
}
