import type { Env } from "../../shared/env";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import { mediaRepository } from "../../shared/repositories/media-repository";
import type { UploadObjects } from "./upload-objects";

/**
 * The alarm's cleanup of uploads that stopped between the R2 put and settling (docs/media.md,
 * "Stopped uploads"): a streamed upload's multipart upload aborted, the object deleted unless a
 * committed row names it (a fault after the commit), then forgotten. A failed read or delete keeps
 * the note for the next alarm.
 */
export async function removeStoppedUploads(env: Env, uploads: UploadObjects, siteId: string): Promise<void> {
  const media = mediaRepository(createDb(await siteScopedDatabase(env, siteId)), siteScope(siteId));
  for (const { objectKey: key, uploadId } of uploads.due()) {
    try {
      // A streamed upload that stopped mid-way: its parts are no object yet, so abort the upload.
      // Aborting one that completed (or was aborted) fails; the key's check below still decides.
      if (uploadId !== null) await env.MEDIA.resumeMultipartUpload(key, uploadId).abort().catch(() => undefined);
      if (!(await media.objectKeyInUse(key))) await env.MEDIA.delete(key);
      uploads.settle(key);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "stopped upload cleanup failed; alarm will retry", error: String(error) }));
    }
  }
}
