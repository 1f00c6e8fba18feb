/** Time source. Tests replace it to make leases, limits and expiry deterministic. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO-8601 text of a clock reading, as stored in D1. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
