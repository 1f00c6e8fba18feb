import { openValue, signValue } from "../../public/cursor";

/**
 * What a sync cursor remembers (docs/sync.md). Opaque to clients, signed (HMAC-SHA256, key
 * purpose `sync`), bound to the site, its database and the reader's permissions.
 */
export interface SyncCursor {
  v: 1;
  /** Site id: a cursor of another site is refused (400). */
  s: string;
  /** The site's database binding: after a site move the log restarts, so the cursor resets. */
  d: string;
  /** Digest of the private models the reader's token names ("" anonymous): another reader resets. */
  p: string;
  /** When the position was last known complete (ms): older than the retention window resets. */
  t: number;
  /** Phase: `e` snapshot of entries, `m` snapshot of media, `c` changes. */
  ph: "e" | "m" | "c";
  /** The log position: snapshot phases start changes after it; `c` continues after it. */
  h: number;
  /** Snapshot phases: the last key served (instance id or media id). */
  a?: string;
}

export function encodeSyncCursor(secret: Uint8Array, cursor: SyncCursor): Promise<string> {
  return signValue(secret, cursor);
}

/** The cursor this service made, or undefined for anything forged, altered, malformed or of another version. */
export async function decodeSyncCursor(secret: Uint8Array, text: string): Promise<SyncCursor | undefined> {
  const value = await openValue(secret, text);
  if (value === null || typeof value !== "object") return undefined;
  const c = value as Partial<SyncCursor>;
  if (c.v !== 1 || typeof c.s !== "string" || typeof c.d !== "string" || typeof c.p !== "string") return undefined;
  if (typeof c.t !== "number" || !Number.isSafeInteger(c.t) || typeof c.h !== "number" || !Number.isSafeInteger(c.h) || c.h < 0) return undefined;
  if (c.ph !== "e" && c.ph !== "m" && c.ph !== "c") return undefined;
  if (c.a !== undefined && typeof c.a !== "string") return undefined;
  return c as SyncCursor;
}
