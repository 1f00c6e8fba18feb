import type { Clock } from "../../shared/clock";

/** How long an upload may take between storing its object and settling it before the alarm cleans up. */
export const UPLOAD_GRACE_MS = 15 * 60 * 1000;

/** A noted upload past its grace period. */
export interface StoppedUpload {
  objectKey: string;
  /** The R2 multipart upload of a streamed upload, when it got that far. */
  uploadId: string | null;
}

/**
 * R2 objects of uploads in flight, in the Durable Object's SQLite storage (`upload_objects`):
 * spec 2 idempotency rule 3, "a file stored by a stopped upload is removed". The worker notes a key
 * before its R2 put and settles it after keeping or deleting the object; a note older than
 * {@link UPLOAD_GRACE_MS} is a stopped upload, for the alarm to clean (docs/media.md).
 */
export class UploadObjects {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  /** Notes a key about to be stored; returns when it becomes due for cleanup. */
  note(objectKey: string): number {
    const now = this.clock.now();
    this.storage.sql.exec("INSERT INTO upload_objects (object_key, noted_at) VALUES (?, ?) ON CONFLICT (object_key) DO NOTHING", objectKey, now);
    return now + UPLOAD_GRACE_MS;
  }

  /**
   * Records the R2 multipart upload a streamed upload opened for a noted key (before its first
   * part), so the alarm can abort it if the request stops.
   */
  noteMultipart(objectKey: string, uploadId: string): void {
    this.storage.sql.exec("UPDATE upload_objects SET upload_id = ? WHERE object_key = ?", uploadId, objectKey);
  }

  /** Forgets a key whose object the worker kept or deleted. */
  settle(objectKey: string): void {
    this.storage.sql.exec("DELETE FROM upload_objects WHERE object_key = ?", objectKey);
  }

  /**
   * Stopped uploads (noted longer ago than the grace period), oldest first: the key, and the
   * multipart upload a streamed upload opened for it (null for a whole-file put).
   */
  due(limit = 100): StoppedUpload[] {
    return this.storage.sql
      .exec<{ object_key: string; upload_id: string | null }>("SELECT object_key, upload_id FROM upload_objects WHERE noted_at <= ? ORDER BY noted_at LIMIT ?", this.clock.now() - UPLOAD_GRACE_MS, limit)
      .toArray()
      .map((r) => ({ objectKey: r.object_key, uploadId: r.upload_id }));
  }

  /** When the oldest note becomes due, or null when none is kept. */
  nextDue(): number | null {
    const row = this.storage.sql.exec<{ at: number | null }>("SELECT min(noted_at) AS at FROM upload_objects").toArray()[0];
    return row?.at === null || row?.at === undefined ? null : row.at + UPLOAD_GRACE_MS;
  }
}
