/**
 * The write-phase tracer of the write figures (BENCH_WRITE_PHASES=1; docs/write-fairness.md,
 * "Finding the tail"). The bench worker wraps each request in the worker, each command in the site
 * object and each alarm in a traced run; the product notes phases through
 * shared/observability/write-phases.ts, which reads the current run from an `AsyncLocalStorage`
 * (declared in node-async-hooks.d.ts). The counting bindings of write-bench.ts note their D1, object
 * and queue calls into the same run. Off, nothing is traced.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { notePhase, tracePhasesFrom, type PhaseTrace } from "../../shared/observability/write-phases";

/** Which side a traced run or a counted call belongs to: the worker or the site object. */
export type Side = "worker" | "object";

let tracing = false;

/** Whether phases are noted (the counting bindings note their calls' phases only then). */
export function isTracing(): boolean {
  return tracing;
}

/** One traced run: the worker's handling of a request, the object's of a command, or an alarm. */
interface PhaseRun {
  side: Side | "alarm";
  marks: [string, number][];
}
/** Traced runs by Idempotency-Key (a resend carries the same key: several per key). */
let traced = new Map<string, PhaseRun[]>();
/** The site objects' alarm runs, with what they did: work beside the writes. */
let alarms: PhaseRun[] = [];
const TRACED_AT_MOST = 200_000;

const phaseContext = new AsyncLocalStorage<PhaseTrace>();
const tracePhases = <T>(run: PhaseTrace, work: () => T): T => phaseContext.run(run, work);

/** Switched on by the bench worker when BENCH_WRITE_PHASES is set; off, nothing is traced. */
export function startTracing(): void {
  if (tracing) return;
  tracing = true;
  tracePhasesFrom(() => phaseContext.getStore());
}

/** A D1 statement's phase label: its first words (SQL text only, never a bound value). */
export function phaseLabel(sql: string | undefined): string {
  return (sql ?? "?").replace(/\s+/g, " ").slice(0, 48);
}

/**
 * Runs a write with its phases noted (worker side: `key` is the request's Idempotency-Key; object
 * side: the command's). The key is the operation's name in the bench's report; no header, token or
 * body is kept.
 */
export function traceWrite<T>(side: Side, key: string | null | undefined, work: () => Promise<T>): Promise<T> {
  if (!tracing || !key || traced.size >= TRACED_AT_MOST) return work();
  const run: PhaseRun = { side, marks: [[`${side} arrival`, Date.now()]] };
  const runs = traced.get(key) ?? [];
  runs.push(run);
  traced.set(key, runs);
  return tracePhases(run, () => work().finally(() => notePhase(`${side} done`)));
}

/** Runs a site object's alarm with what it does noted (kept beside the writes' traces). */
export function traceAlarm(work: () => Promise<void>): Promise<void> {
  if (!tracing || alarms.length >= TRACED_AT_MOST) return work();
  const run: PhaseRun = { side: "alarm", marks: [["alarm start", Date.now()]] };
  alarms.push(run);
  return tracePhases(run, () => work().finally(() => notePhase("alarm done")));
}

/** The longest stretches in which no traced run (of any write, or an alarm) noted anything: the runtime did none of this work then. */
interface Silence {
  ms: number;
  at: number;
  before: string;
  after: string;
}

/** The traced runs of these keys, every alarm run since the last reset, and the longest silences over all runs. */
export function readPhases(keys: readonly string[]): { traces: Record<string, PhaseRun[]>; alarms: PhaseRun[]; silences: Silence[] } {
  const all: [string, number][] = [];
  for (const runs of traced.values()) for (const run of runs) all.push(...run.marks);
  for (const run of alarms) all.push(...run.marks);
  all.sort((a, b) => a[1] - b[1]);
  const silences: Silence[] = [];
  for (let i = 1; i < all.length; i++) {
    const [before, from] = all[i - 1] as [string, number];
    const [after, to] = all[i] as [string, number];
    if (to - from >= 500) silences.push({ ms: to - from, at: from, before, after });
  }
  silences.sort((a, b) => b.ms - a.ms);
  return { traces: Object.fromEntries(keys.map((k) => [k, traced.get(k) ?? []])), alarms, silences: silences.slice(0, 10) };
}

export function resetPhases(): void {
  traced = new Map();
  alarms = [];
}
