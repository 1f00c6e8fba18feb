/** Collects the failure lines of one suite's output (scripts/lib/failure-summary.mjs). */
export class FailureCollector {
  add(line: string): void;
  lines(): string[];
  flaky(): string[];
  tail(): string[];
}
/** The lines `npm test` prints at its end for the suites that failed (at most `limit`). */
export function failureSummary(suites: { label: string; code: number; failures?: string[]; tail?: string[] }[], limit?: number): string[];
/** The lines naming files that passed only on their second run, alone (printed even when all passed). */
export function flakySummary(suites: { flaky?: string[] }[]): string[];
