import { base64url, base64urlDecode } from "../crypto/digest";
import { newId } from "../ids";

export type KeyPurpose = "cursor" | "preview" | "sync" | "comments";

const cache = new Map<KeyPurpose, Promise<Uint8Array>>();

/**
 * The signing secret for a purpose: read from D1, made on first use. Kept per isolate, so the hot
 * path pays for it once. INSERT OR IGNORE + re-read makes two isolates racing agree on one key.
 */
export function signingSecret(d1: D1Database, purpose: KeyPurpose): Promise<Uint8Array> {
  let pending = cache.get(purpose);
  if (!pending) {
    pending = loadOrCreate(d1, purpose);
    pending.catch(() => cache.delete(purpose));
    cache.set(purpose, pending);
  }
  return pending;
}

async function loadOrCreate(d1: D1Database, purpose: KeyPurpose): Promise<Uint8Array> {
  const read = () =>
    d1.prepare("SELECT secret FROM signing_keys WHERE purpose = ? ORDER BY created_at, id LIMIT 1").bind(purpose).first<{ secret: string }>();
  const existing = await read();
  if (existing) return base64urlDecode(existing.secret);
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  await d1
    .prepare("INSERT INTO signing_keys (id, purpose, secret, created_at) SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE purpose = ?)")
    .bind(newId("key"), purpose, base64url(bytes), new Date().toISOString(), purpose)
    .run();
  const row = await read();
  if (!row) throw new Error("signing key could not be stored");
  return base64urlDecode(row.secret);
}
