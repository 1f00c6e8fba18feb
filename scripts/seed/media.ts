import { isoAt } from "../../shared/clock";
import { sha256Hex } from "../../shared/crypto/digest";
import { commit } from "../../shared/db/batch";
import { newId } from "../../shared/ids";
import { mediaRepository } from "../../shared/repositories/media-repository";
import { newObjectKey } from "../../shared/services/media/object-keys";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import type { SeedEnv } from "./demo";

/** Two tiny valid PNGs (RGB, 8-bit). The media rows describe them truthfully. */
const IMAGES = [
  {
    file_name: "sea-at-dawn.png",
    width: 16,
    height: 9,
    alt: { en: "A pale sky over a dark blue sea", fr: "Un ciel pâle au-dessus d'une mer bleu sombre" },
    focal: { x: 0.5, y: 0.45 },
    base64:
      "iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAPUlEQVR42pXCIRXAMBBEwRWxEkNKQkoiYnFxcHBEnJczUQ1/3uirRrWrUZ1qVLcalUdQ+Qkqz6DyG1ReQX8AeephXhO3RQAAAABJRU5ErkJggg==",
  },
  {
    file_name: "driftwood-grain.png",
    width: 12,
    height: 12,
    alt: { en: "Close-up of weathered wood grain", fr: "Gros plan sur le grain d'un bois patiné" },
    focal: null,
    base64:
      "iVBORw0KGgoAAAANSUhEUgAAAAwAAAAMCAIAAADZF8uwAAAAK0lEQVR42mNYUBGwoCKgItS8ItQcF5uBoIoFFQEMBFVAFRG0kWHUTUS5CQBqna5hkfT51QAAAABJRU5ErkJggg==",
  },
] as const;

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Media rows written directly (the upload path runs in the router and the site's object, which the
 * seed does not start), with their ledger rows and, when the bucket is bound, their bytes.
 */
export async function demoMedia(env: SeedEnv, ctx: LifecycleContext): Promise<string[]> {
  const at = isoAt(ctx.clock.now());
  const ids: string[] = [];
  const statements = [];
  for (const image of IMAGES) {
    const id = newId("med");
    const bytes = decodeBase64(image.base64);
    const { objectKey } = newObjectKey(ctx.site.id, id);
    if (env.MEDIA) await env.MEDIA.put(objectKey, bytes, { httpMetadata: { contentType: "image/png" } });
    statements.push(
      ctx.db
        .insertInto("media")
        .values({
          id,
          site_id: ctx.site.id,
          object_key: objectKey,
          kind: "image",
          file_name: image.file_name,
          mime_type: "image/png",
          byte_length: bytes.byteLength,
          sha256: await sha256Hex(bytes),
          width: image.width,
          height: image.height,
          alt_texts: JSON.stringify(image.alt),
          default_focal: image.focal ? JSON.stringify(image.focal) : null,
          loading: "lazy",
          fetch_priority: "auto",
          folder_id: null,
          revision: 0,
          created_at: at,
          updated_at: at,
        })
        .compile(),
    );
    // The object ledger knows the file, as an upload's batch records it (docs/media.md, "Object ledger").
    statements.push(mediaRepository(ctx.db, ctx.scope).recordCurrentFile(id));
    ids.push(id);
  }
  await commit(env.DB, statements);
  return ids;
}
