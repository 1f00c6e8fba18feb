/**
 * A D1 handle that adds up D1's `meta.rows_read` of every statement run through it (prepare → bind
 * → first/all/run, and batch), by statement: what a step reads, independent of the machine's load
 * (docs/benchmarks.md, the 20,000-post import). The same pattern as scripts/bench/write-bench.ts.
 */
export interface RowsRead {
  total: number;
  /** D1 `batch` calls that write (each one round trip, committed atomically); batches of reads alone are not counted. */
  batches: number;
  /** Rows read by each statement's SQL (its first 160 characters). */
  bySql: Map<string, { calls: number; rows: number }>;
}

export function meteredD1(d1: D1Database): { d1: D1Database; read: RowsRead } {
  const read: RowsRead = { total: 0, batches: 0, bySql: new Map() };
  const note = (sql: string, meta: { rows_read?: number } | undefined) => {
    const rows = meta?.rows_read ?? 0;
    read.total += rows;
    const key = sql.replace(/\s+/g, " ").slice(0, 160);
    const line = read.bySql.get(key) ?? { calls: 0, rows: 0 };
    line.calls += 1;
    line.rows += rows;
    read.bySql.set(key, line);
  };
  const real = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      async first(column?: string) {
        // first() carries no meta: read through all(), which does.
        const r = await statement.all<Record<string, unknown>>();
        note(sql, r.meta);
        const row = r.results[0] ?? null;
        return column === undefined ? row : (row?.[column] ?? null);
      },
      async all() {
        const r = await statement.all();
        note(sql, r.meta);
        return r;
      },
      async run() {
        const r = await statement.run();
        note(sql, r.meta);
        return r;
      },
      raw: (options?: { columnNames?: boolean }) => statement.raw(options as { columnNames: true }),
    };
    real.set(wrapped, statement);
    sqlOf.set(wrapped, sql);
    return wrapped as unknown as D1PreparedStatement;
  };
  const handle = {
    prepare: (sql: string) => wrap(d1.prepare(sql), sql),
    async batch(statements: D1PreparedStatement[]) {
      if (statements.some((s) => /^\s*(insert|update|delete|replace)\b/i.test(sqlOf.get(s as object) ?? ""))) read.batches += 1;
      const results = await d1.batch(statements.map((s) => real.get(s) ?? s));
      results.forEach((r, i) => note(sqlOf.get(statements[i] as object) ?? "?", r.meta));
      return results;
    },
    exec: (sql: string) => d1.exec(sql),
    dump: () => (d1 as unknown as { dump(): Promise<ArrayBuffer> }).dump(),
    withSession: (...args: unknown[]) => (d1 as unknown as { withSession(...a: unknown[]): unknown }).withSession(...args),
  };
  return { d1: handle as unknown as D1Database, read };
}

/** The statements that read the most, for an assertion's message. */
export function heaviest(read: RowsRead, n = 5): string {
  return [...read.bySql.entries()]
    .sort((a, b) => b[1].rows - a[1].rows)
    .slice(0, n)
    .map(([sql, line]) => `${line.rows} rows in ${line.calls} calls: ${sql}`)
    .join("\n");
}
