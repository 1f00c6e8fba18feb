import type { Clock } from "../../shared/clock";

/**
 * When an alarm job of the site's object (Trash retention, schedules and releases) should next
 * look in D1, kept in the object's storage under the job's own key, so an alarm with nothing due
 * reads no D1. Stored: absent (unknown: look now), -1 (nothing waits) or the time to look.
 */
export class NextLook {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
    private readonly key: string,
    /** How soon to look after `forget`: a write that changed what waits may still be committing. */
    private readonly delayMs: number,
  ) {}

  /** Something the job waits for changed: the next run looks in D1 again, `delayMs` from now. */
  async forget(): Promise<number> {
    await this.storage.delete(this.key);
    return this.clock.now() + this.delayMs;
  }

  /** When the job should next run (null: nothing waits). */
  async due(): Promise<number | null> {
    const next = await this.storage.get<number>(this.key);
    if (next === undefined) return this.clock.now();
    return next < 0 ? null : next;
  }

  /** Notes what a run found (null: nothing waits) and answers it, for the alarm. */
  async remember(next: number | null): Promise<number | null> {
    await this.storage.put(this.key, next ?? -1);
    return next;
  }
}
