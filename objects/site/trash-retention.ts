import { isoAt, type Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import type { Env } from "../../shared/env";
import { findSiteById } from "../../shared/repositories/site-repository";
import { findExpiredTrash, purgeExpiredTrash, RETENTION_ACTOR, trashWindowMs } from "../../shared/services/lifecycle/trash-retention";
import { LEASE_TTL_MS } from "./leases";
import type { WriteRunner } from "./write-runner";
import { NextLook } from "./next-look";

/** Where the object keeps when Trash next expires (ms; -1: Trash is empty; absent: unknown, look in D1). */
const NEXT_KEY = "trash_retention_next";
/** After Trash moves or the window changes, D1 is looked at this soon (one read, then the exact time is known). */
export const TRASH_LOOK_DELAY_MS = 60_000;
/** After a failed look, the next one. */
const RETRY_MS = 5 * 60_000;

/**
 * Trash retention (spec 3: "30 days after moving to Trash … gone"; docs/trash-retention.md): the
 * site object's alarm purges expired Trash in bounded batches through the write path (lease
 * guard, one batch per item with its audit row and event). Knows when to look next without
 * reading D1 on every alarm: the time the oldest remaining Trash expires, forgotten (so looked up
 * again) when something is moved to Trash or the window changes.
 */
export class TrashRetention {
  readonly #look: NextLook;

  constructor(
    storage: DurableObjectStorage,
    private readonly clock: Clock,
    private readonly env: Env,
    private readonly writes: WriteRunner,
  ) {
    this.#look = new NextLook(storage, clock, NEXT_KEY, TRASH_LOOK_DELAY_MS);
  }

  /** Something moved to Trash or the window changed: the next run looks in D1 again. */
  forget(): Promise<number> {
    return this.#look.forget();
  }

  /** When the alarm should next run for Trash (null: nothing waits). */
  nextDue(): Promise<number | null> {
    return this.#look.due();
  }

  /** Purges what expired (at most one batch) and returns when to run next. */
  async run(siteId: string): Promise<number | null> {
    const now = this.clock.now();
    const next = await this.nextDue();
    if (next === null || next > now) return next;
    // (A full batch leaves `now` as the next time: the alarm rings again a second later, its minimum.)
    try {
      const d1 = await siteScopedDatabase(this.env, siteId);
      const site = await findSiteById(createDb(d1), siteId);
      if (!site) return this.#look.remember(null);
      const found = await findExpiredTrash({ d1, site }, now);
      const trashedBefore = isoAt(now - trashWindowMs(site.settings));
      let held = false;
      for (const item of found.due) {
        const outcome = await this.writes.run({ siteId, actor: RETENTION_ACTOR, input: { instance_id: item.instance_id, trashed_before: trashedBefore } }, purgeExpiredTrash);
        // Someone holds an editing lease on the item (423): it goes once the lease ends.
        if (!outcome.ok && outcome.error.code !== "entry_not_in_trash") {
          held = true;
          console.error(JSON.stringify({ level: "info", site_id: siteId, message: "expired Trash not purged yet", instance_id: item.instance_id, code: outcome.error.code }));
        }
      }
      const candidates = [found.more ? now : null, held ? now + LEASE_TTL_MS : null, found.nextDueAt].filter((t): t is number => t !== null);
      return this.#look.remember(candidates.length > 0 ? Math.min(...candidates) : null);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "trash retention failed; alarm will retry", error: String(error) }));
      return this.#look.remember(now + RETRY_MS);
    }
  }

}
