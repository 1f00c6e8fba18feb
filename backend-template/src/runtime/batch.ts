/**
 * Writes that must commit together (docs/generated-backend.md, "Relations"): the worker runs them as
 * one D1 `batch`, the local server as one SQLite transaction. A runtime without a runner cannot
 * write lists: 503 relation_writes_unavailable.
 */
import type { CompiledQuery } from "kysely";
import { HttpError } from "./errors.js";

/** Runs every statement or none; throws the database's error (its message names the constraint). */
export type BatchRunner = (statements: readonly CompiledQuery[]) => Promise<void>;

export function requireBatch(batch: BatchRunner | undefined): BatchRunner {
  if (batch === undefined) throw new HttpError(503, "relation_writes_unavailable", "This runtime has no batch runner: relation lists cannot be written atomically.");
  return batch;
}

/** A batch's failure as the API's refusal; `unseen` answers what pre-checks could not see. */
export function batchError(error: unknown, unseen: HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/relation_changed_concurrently/.test(message)) return new HttpError(409, "relation_changed_concurrently", "The list changed after it was read: nothing was written. Read it again and retry.");
  if (/relation_target_taken|UNIQUE constraint failed: (?:\w+\.lang, )?\w+\.target_id\b/.test(message)) return new HttpError(409, "relation_target_taken", "A target was linked to another owner first: nothing was written.");
  if (/relation_hierarchy_cycle/.test(message)) return new HttpError(422, "relation_hierarchy_cycle", "The parent link would make a loop.");
  if (/UNIQUE constraint failed|FOREIGN KEY constraint failed/.test(message)) return unseen;
  console.error(error);
  return new HttpError(500, "internal_error", "Something went wrong.");
}
