import { UploadMediaFields } from "../../schema/manage-media";
import { RETENTION_DEFAULT_MS } from "../../objects/site/idempotency";
import { newId } from "../../shared/ids";
import { inspectMedia } from "../../shared/services/media/inspect";
import { newObjectKey } from "../../shared/services/media/object-keys";
import { streamedLimit } from "../../shared/services/media/streamed-limit";
import { assertMayUpload } from "../../shared/services/media/upload";
import { uploadCommandInput, uploadOptions } from "../../shared/services/media/upload-fields";
import { parse } from "../../shared/services/validation/parse";
import type { Env } from "../../shared/env";
import { siteObject } from "../forward";
import { payloadTooLarge } from "../http/json-body";
import { json } from "../http/respond";
import { StreamedBody } from "../http/streamed-body";
import { storeWithThenCommand } from "../manage/handlers/media";
import { idempotencyKey, requestFingerprint } from "../manage/idempotency-key";
import type { CommandCall } from "../manage/respond";
import { queryObject } from "../manage/router";
import type { SiteCall } from "./auth";

/** The streamed upload's limit in bytes; a declared value that is not valid is logged and ignored. */
function maxBytes(env: Env, siteId: string): number {
  const limit = streamedLimit(env);
  if (limit.ignored !== undefined) {
    console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "MEDIA_REQUEST_BODY_LIMIT_BYTES is not a whole number of bytes from 1 to 5000000000; using the default", value: limit.ignored }));
  }
  return limit.maxBytes;
}

/**
 * POST /api/media/uploads (docs/media.md, "Admin streamed upload"): the raw file as the body, the
 * upload's fields as query parameters. Everything is asked before a byte is stored — session, CSRF
 * and membership (router), `media:upload`, Idempotency-Key, the fields, a Content-Length over the
 * limit — then the first part is read and checked like a whole upload (inspect.ts), and only then
 * is the body streamed into an R2 multipart upload (page tags still searched, size still counted,
 * SHA-256 computed as it passes). The write is the management upload's own: command `uploadMedia`
 * through `storeWithThenCommand` (note, store, command, keep or delete).
 */
export async function streamMediaUpload(call: SiteCall): Promise<Response> {
  const { ctx, env, request } = call;
  const site = ctx.site;
  assertMayUpload(ctx);
  const key = idempotencyKey(request);
  const url = new URL(request.url);
  const query = queryObject(url);
  const fields = parse(UploadMediaFields, query);
  const declaredType = request.headers.get("content-type") ?? "";
  const options = uploadOptions(fields, { name: "", type: declaredType }, site.languages);
  const max = maxBytes(env, site.id);
  const declaredLength = request.headers.get("content-length");
  if (declaredLength !== null && Number(declaredLength) > max) throw payloadTooLarge(max);

  const body = new StreamedBody(request.body, max);
  let inspected;
  try {
    inspected = await inspectMedia(await body.head(), options.claims, site.settings.media.allowed);
  } catch (refusal) {
    body.release();
    throw refusal;
  }

  const mediaId = newId("med");
  const target = newObjectKey(site.id, mediaId);
  const commandCall: CommandCall = { env, request, site, actor: ctx.actor, ctx, idempotency: undefined };
  return storeWithThenCommand(commandCall, target, "uploadMedia", async () => {
    const stored = await body.storeTo(env.MEDIA, target.objectKey, inspected.mimeType, (uploadId) => siteObject(env, site.id).noteMultipartUpload(target.objectKey, uploadId));
    // The same request for a key: the same fields, declared type and bytes (as the management upload's fingerprint).
    const fingerprint = await requestFingerprint(request.method, url.pathname, { fields: query, file: { type: declaredType, sha256: stored.sha256 } });
    return {
      input: uploadCommandInput({ mediaId, objectKey: target.objectKey }, stored, inspected, options),
      // Keys belong to the signed-in person, as a management key belongs to its credential.
      idempotency: { scope: call.session.person.id, key, fingerprint, retentionMs: RETENTION_DEFAULT_MS },
    };
  });
}

/** GET /api/media/limits: what an admin client needs before choosing how to upload. */
export async function mediaLimits(call: SiteCall): Promise<Response> {
  return json({ limits: { streamed_max_bytes: maxBytes(call.env, call.ctx.site.id) } });
}
