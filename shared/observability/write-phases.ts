/**
 * Timestamps of a write's phases, for the write bench only (docs/write-fairness.md, "Finding the
 * tail"): where a slow write spent its time. Nothing is recorded unless a source of the current
 * trace is set — only the bench worker sets one, and only with BENCH_WRITE_PHASES set
 * (scripts/bench/write-tracer.ts) — so in the product {@link notePhase} is one null check. A trace
 * holds phase names and times, never a header, a token or a body.
 */
export interface PhaseTrace {
  /** `[phase, epoch ms]` in the order they happened. */
  marks: [string, number][];
}

let currentTrace: (() => PhaseTrace | undefined) | null = null;

/** Sets where {@link notePhase} finds the running write's trace (the bench: its async context); null stops noting. */
export function tracePhasesFrom(source: (() => PhaseTrace | undefined) | null): void {
  currentTrace = source;
}

/** Notes that the traced write reached `phase` now; nothing when no trace runs. */
export function notePhase(phase: string): void {
  if (currentTrace) currentTrace()?.marks.push([phase, Date.now()]);
}
