import type { Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { mediaRepository } from "../../shared/repositories/media-repository";

/** How long after a failed delete the alarm tries again. */
export const MEDIA_CLEANUP_RETRY_MS = 60 * 1000;

/** What a removal's object deletes came to: all done, or some left for the alarm. */
export type StorageCleanup = "complete" | "pending";

/**
 * R2 objects of removed media items still to delete, in the Durable Object's SQLite storage
 * (`media_cleanup`; docs/media.md, "Remove"). A removal notes its item's keys before its batch, and
 * deletes them after the commit; what fails stays noted and the alarm retries it until done. Runs
 * inside the site's write queue (the write path and the alarm both), so a note is never judged
 * while its removal's batch is in flight.
 */
export class MediaCleanup {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
    private readonly env: Env,
  ) {}

  /** Notes the keys a removal is about to orphan, and makes sure the alarm will look at them. */
  async note(mediaId: string, objectKeys: readonly string[]): Promise<void> {
    const now = this.clock.now();
    for (const key of objectKeys) {
      this.storage.sql.exec("INSERT INTO media_cleanup (object_key, media_id, noted_at) VALUES (?, ?, ?) ON CONFLICT (object_key) DO NOTHING", key, mediaId, now);
    }
    await this.#armAlarm();
  }

  /**
   * Deletes the noted objects (of one item, or every one), forgetting each deleted. A key the object
   * ledger still names (its removal did not commit) or that a published item pins is forgotten
   * without deleting it. Any failure keeps its note for the alarm: the answer is then `pending`.
   */
  async run(siteId: string, mediaId?: string): Promise<StorageCleanup> {
    const rows = (
      mediaId === undefined
        ? this.storage.sql.exec<{ object_key: string }>("SELECT object_key FROM media_cleanup ORDER BY noted_at LIMIT 100")
        : this.storage.sql.exec<{ object_key: string }>("SELECT object_key FROM media_cleanup WHERE media_id = ?", mediaId)
    ).toArray();
    const db = createDb(await siteScopedDatabase(this.env, siteId));
    const media = mediaRepository(db, siteScope(siteId));
    for (const { object_key: key } of rows) {
      try {
        const kept = (await media.objectKeyInUse(key)) || (await media.objectKeyPinned(key));
        if (!kept) await this.env.MEDIA.delete(key);
        this.storage.sql.exec("DELETE FROM media_cleanup WHERE object_key = ?", key);
      } catch (error) {
        this.storage.sql.exec("UPDATE media_cleanup SET attempts = attempts + 1 WHERE object_key = ?", key);
        console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "media object delete failed; the alarm will retry", object_key: key, error: String(error) }));
      }
    }
    const left = mediaId === undefined ? this.#count() : this.#count(mediaId);
    if (left > 0) await this.#armAlarm();
    return left === 0 ? "complete" : "pending";
  }

  /** Whether objects of this removed item are still to delete. */
  state(mediaId: string): StorageCleanup {
    return this.#count(mediaId) === 0 ? "complete" : "pending";
  }

  /** When the alarm should next look (a retry interval from now), or null when nothing is noted. */
  nextDue(): number | null {
    return this.#count() === 0 ? null : this.clock.now() + MEDIA_CLEANUP_RETRY_MS;
  }

  #count(mediaId?: string): number {
    const row =
      mediaId === undefined
        ? this.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM media_cleanup").toArray()[0]
        : this.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM media_cleanup WHERE media_id = ?", mediaId).toArray()[0];
    return row?.n ?? 0;
  }

  async #armAlarm(): Promise<void> {
    const due = this.clock.now() + MEDIA_CLEANUP_RETRY_MS;
    const current = await this.storage.getAlarm();
    if (current === null || current > due) await this.storage.setAlarm(due);
  }
}
