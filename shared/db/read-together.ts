import type { CompiledQuery } from "kysely";

type RowsOf<Q> = Q extends CompiledQuery<infer R> ? R[] : never;

/** The rows of each query of `Q`, in order. */
export type RowsTogether<Q extends readonly CompiledQuery<unknown>[]> = { -readonly [K in keyof Q]: RowsOf<Q[K]> };

/**
 * Runs independent reads in one D1 batch: one round trip instead of one per query, and every
 * query sees the same snapshot (a batch runs as one transaction). For reads whose keys can be
 * written as subqueries of each other (the credential → its site → its creator's role), so a
 * request pays one call where it paid three.
 *
 * With `extra` (a query asked only sometimes, such as whether the site declares a content policy),
 * it runs last in the same batch and its rows come apart from the others' — `{ rows, extra }`,
 * `extra` undefined when no query was given — so the caller needs no cast to split them.
 */
export async function readTogether<const Q extends readonly CompiledQuery<unknown>[]>(d1: D1Database, queries: Q): Promise<RowsTogether<Q>>;
export async function readTogether<const Q extends readonly CompiledQuery<unknown>[], E>(
  d1: D1Database,
  queries: Q,
  extra: CompiledQuery<E> | undefined,
): Promise<{ rows: RowsTogether<Q>; extra: E[] | undefined }>;
export async function readTogether(
  d1: D1Database,
  queries: readonly CompiledQuery<unknown>[],
  ...extra: [CompiledQuery<unknown> | undefined] | []
): Promise<unknown[][] | { rows: unknown[][]; extra: unknown[] | undefined }> {
  const asked = extra[0];
  const all = asked ? [...queries, asked] : queries;
  const results = (await d1.batch(all.map((q) => d1.prepare(q.sql).bind(...(q.parameters as unknown[]))))).map((r) => r.results);
  if (extra.length === 0) return results;
  return asked ? { rows: results.slice(0, -1), extra: results[results.length - 1] } : { rows: results, extra: undefined };
}
