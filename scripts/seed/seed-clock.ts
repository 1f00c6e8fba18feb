/** The seed's hand-moved clock and the calendar the demo's history follows. */
import { isoAt, systemClock, type Clock } from "../../shared/clock";

/** A clock the seed moves by hand, so the demo's history spreads over months instead of one second. */
export class SeedClock implements Clock {
  private at: number | null = null;
  set(ms: number | null): void {
    this.at = ms;
  }
  now(): number {
    return this.at ?? systemClock.now();
  }
}

export const DAY = 86_400_000;
/** The first article's date; the others follow every four days. */
export const FIRST_ARTICLE_DAY = Date.UTC(2025, 8, 1);
/** Sites, people, models, authors and categories are dated two weeks before the first article. */
export const SETUP_AT = FIRST_ARTICLE_DAY - 14 * DAY;

export const dateOnly = (ms: number) => isoAt(ms).slice(0, 10);
export const hours = (n: number) => n * 3_600_000;
