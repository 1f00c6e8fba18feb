import type { Clock } from "../../shared/clock";

/** A clock that moves only when a test says so, making expiry and windows deterministic. */
export class FakeClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  set(ms: number): void {
    this.#now = ms;
  }
}
