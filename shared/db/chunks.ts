/** D1 binds at most 100 parameters per statement: multi-row inserts and IN lists are split by this. */
export const D1_MAX_PARAMETERS = 100;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows per multi-row INSERT for a table of `columns` columns. */
export function rowsPerInsert(columns: number): number {
  return Math.max(1, Math.floor(D1_MAX_PARAMETERS / columns));
}
