import { statementSide, type TableSide } from "./tables";

/**
 * One D1 handle over a site whose content lives outside the control database: each statement runs
 * on the database that holds the tables it names (shared/db/tables.ts), so services keep a single
 * `db`/`d1` and read a role (control) and an entry (site) without knowing where each lives.
 *
 * `batch` keeps a write atomic wherever it can:
 * - every statement on one side → one batch there (the usual case: a content write with its records);
 * - a directory change (writes only control tables) → its records (audit, outbox, idempotency
 *   answer) go with it into the control database's batch, so the change and its record commit together;
 * - guards on directory tables beside a content write (a plugin transition's checks) → a control
 *   batch of those guards first (it writes nothing; a false condition aborts it with `guard:<code>`),
 *   then the content batch;
 * - guards on content tables beside a directory change → the same, the other way round;
 * - writes on both sides (a model removal also takes the model out of plugin grants) → the site
 *   part first, then the control part: not one transaction; docs/scale.md lists this case.
 */
export class RoutedD1 {
  constructor(
    readonly control: D1Database,
    readonly site: D1Database,
  ) {}

  prepare(sql: string): D1PreparedStatement {
    return new RoutedStatement(this, sql, []) as unknown as D1PreparedStatement;
  }

  /** The database a statement run on its own goes to: records and neutral statements go to the site's. */
  target(side: TableSide): D1Database {
    return side === "control" ? this.control : this.site;
  }

  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const routed = statements.map((s) => {
      if (!(s instanceof RoutedStatement)) throw new Error("RoutedD1.batch takes only statements it prepared");
      return s;
    });
    const sides = routed.map((s) => statementSide(s.sql));
    const writes = (side: TableSide) => routed.some((s, i) => sides[i] === side && !isGuard(s.sql));
    const writesControl = writes("control");
    const writesSite = writes("site");
    const recordsTo: "control" | "site" = writesControl && !writesSite ? "control" : "site";
    const where = sides.map((side) => (side === "control" ? "control" : side === "site" ? "site" : recordsTo));
    const results = new Array<D1Result<T>>(routed.length);
    // A part that only checks (guards, no writes) runs first, so a false condition stops the write
    // before the other database commits anything.
    // Writes on both sides: the site part (with the records and its optimistic guards, the usual
    // reason a batch is refused) first, so a refusal leaves the directory untouched.
    const order = writesControl && !writesSite ? (["site", "control"] as const) : writesSite && !writesControl ? (["control", "site"] as const) : (["site", "control"] as const);
    for (const part of order) {
      const indexes = where.flatMap((w, i) => (w === part ? [i] : []));
      if (indexes.length === 0) continue;
      const db = part === "control" ? this.control : this.site;
      const answers = await db.batch<T>(indexes.map((i) => routed[i]!.on(db)));
      indexes.forEach((index, k) => {
        results[index] = answers[k]!;
      });
    }
    return results;
  }

  exec(): Promise<D1ExecResult> {
    throw new Error("RoutedD1.exec is not supported: name the database (controlDatabase / siteDatabase)");
  }

  dump(): Promise<ArrayBuffer> {
    throw new Error("RoutedD1.dump is not supported");
  }

  withSession(): never {
    throw new Error("RoutedD1.withSession is not supported");
  }
}

const GUARD = /^\s*insert\s+into\s+"?batch_guards"?/i;

function isGuard(sql: string): boolean {
  return GUARD.test(sql);
}

class RoutedStatement {
  constructor(
    readonly owner: RoutedD1,
    readonly sql: string,
    readonly values: readonly unknown[],
  ) {}

  bind(...values: unknown[]): RoutedStatement {
    return new RoutedStatement(this.owner, this.sql, values);
  }

  /** The same statement prepared on one database. */
  on(db: D1Database): D1PreparedStatement {
    const prepared = db.prepare(this.sql);
    return this.values.length > 0 ? prepared.bind(...this.values) : prepared;
  }

  #here(): D1PreparedStatement {
    return this.on(this.owner.target(statementSide(this.sql)));
  }

  first<T>(column?: string): Promise<T | null> {
    return column === undefined ? this.#here().first<T>() : this.#here().first<T>(column);
  }

  run<T>(): Promise<D1Result<T>> {
    return this.#here().run<T>();
  }

  all<T>(): Promise<D1Result<T>> {
    return this.#here().all<T>();
  }

  raw<T>(options?: { columnNames?: boolean }): Promise<unknown> {
    return options?.columnNames ? this.#here().raw<T>({ columnNames: true }) : this.#here().raw<T>();
  }
}
