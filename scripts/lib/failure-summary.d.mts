/** Collects the failure lines of one suite's output (scripts/lib/failure-summary.mjs). */
export class FailureCollector {
  add(line: string): void;
  lines(): string[];
}
/** The lines `npm test` prints at its end for the suites that failed (at most `limit`). */
export function failureSummary(suites: { label: string; code: number; failures?: string[] }[], limit?: number): string[];
