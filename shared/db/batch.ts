import type { CompiledQuery } from "kysely";
import { AppError, type ErrorCode } from "../errors";
import type { Kysely } from "kysely";
import type { Database } from "./database";

/**
 * An optimistic check that travels inside a batch: when `condition` is false at commit time the
 * batch_guards trigger aborts the whole batch with "guard:<code>", so nothing is half-written.
 */
export function guard(db: Kysely<Database>, code: ErrorCode, conditionSql: string, parameters: readonly unknown[]): CompiledQuery {
  const compiled = db.insertInto("batch_guards").values({ reason: code }).compile();
  return {
    ...compiled,
    sql: `INSERT INTO batch_guards (reason) SELECT ? WHERE NOT (${conditionSql})`,
    parameters: [code, ...parameters],
  };
}

const GUARD_PATTERN = /guard:([a-z_]+)/;
const UNIQUE_PATTERN = /UNIQUE constraint failed: ([a-z_.,\s]+)/;

/** Maps a failed batch to the AppError it stands for; a real fault is returned as is. */
export function batchFailure(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const guardMatch = GUARD_PATTERN.exec(message);
  if (guardMatch?.[1]) {
    const code = guardMatch[1] as ErrorCode;
    if (code === "write_conflict") {
      // unique_values' trigger (docs/unique-fields.md): another item claimed a unique value first.
      return new AppError(code, "Another entry claimed one of these unique values while the request was handled; nothing was written.");
    }
    return new AppError(code, "The item changed while the request was handled; nothing was written.");
  }
  const unique = UNIQUE_PATTERN.exec(message);
  if (unique?.[1]?.includes("entries.slug") || unique?.[1]?.includes("published_items.slug")) {
    return new AppError("slug_taken", "Another entry of this model and language already uses this slug.");
  }
  // The folder name index is on an expression (COALESCE(parent_id, '')), so SQLite names the index.
  if (unique?.[1]?.includes("media_folders.") || message.includes("idx_media_folders_site_parent_name")) {
    return new AppError("media_folder_exists", "A folder with this name (in any case) already exists there.");
  }
  if (unique?.[1]?.includes("entries.translation_group_id")) {
    return new AppError("locale_exists", "The item already has this language.");
  }
  return error;
}

/** Commits compiled statements in one atomic D1 batch (D1 has no interactive transactions). */
export async function commit(d1: D1Database, statements: readonly CompiledQuery[]): Promise<void> {
  if (statements.length === 0) return;
  const prepared = statements.map((s) => d1.prepare(s.sql).bind(...(s.parameters as unknown[])));
  try {
    await d1.batch(prepared);
  } catch (error) {
    throw batchFailure(error);
  }
}
