import type { CompiledQuery, Kysely } from "kysely";
import type { Database } from "./database";

/**
 * Fixed-shape queries compiled once per isolate and bound per call (docs/write-fairness.md, "CPU
 * per write"). Building and compiling a Kysely query (immutable builder nodes, then a visit of the
 * tree) was 4–5 % of the worker's CPU on a create's credential read and first reads, which send the
 * same SQL on every request; only their parameters change.
 *
 * `build` gets a placeholder for each named parameter and answers the queries, compiled. Every
 * parameter of the compiled queries is a placeholder (rebound per call) or a constant of the shape
 * (a `limit`, a state), kept as compiled. A placeholder the queries do not carry is an error when
 * they are first compiled, so a parameter cannot be dropped silently.
 */
export function compiledOnce<N extends string, const Q extends readonly CompiledQuery<unknown>[]>(
  names: readonly N[],
  build: (db: Kysely<Database>, param: (name: N) => string) => Q,
): (db: Kysely<Database>, values: Readonly<Record<N, unknown>>) => Q {
  let templates: readonly Template<N>[] | undefined;
  return (db, values) => {
    templates ??= compileTemplates(db, names, build);
    return templates.map((t) => ({ ...t.compiled, parameters: t.slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value)) })) as unknown as Q;
  };
}

type Slot<N> = { name: N } | { value: unknown };

interface Template<N> {
  compiled: CompiledQuery<unknown>;
  slots: Slot<N>[];
}

/** A placeholder no caller's value can equal: a NUL byte never reaches a key or an id. */
const MARK = "\u0000compiled-once:";

function compileTemplates<N extends string>(
  db: Kysely<Database>,
  names: readonly N[],
  build: (db: Kysely<Database>, param: (name: N) => string) => readonly CompiledQuery<unknown>[],
): Template<N>[] {
  const byMark = new Map<string, N>(names.map((name) => [`${MARK}${name}`, name]));
  const seen = new Set<N>();
  const templates = build(db, (name) => `${MARK}${name}`).map((compiled) => ({
    compiled,
    slots: compiled.parameters.map((value): Slot<N> => {
      const name = typeof value === "string" ? byMark.get(value) : undefined;
      if (name !== undefined) {
        seen.add(name);
        return { name };
      }
      if (typeof value === "string" && value.startsWith(MARK)) throw new Error(`compiledOnce: ${value.slice(MARK.length)} is not a declared parameter`);
      return { value };
    }),
  }));
  const missing = names.filter((name) => !seen.has(name));
  if (missing.length > 0) throw new Error(`compiledOnce: the queries carry no ${missing.join(", ")}`);
  return templates;
}
