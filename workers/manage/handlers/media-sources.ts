import type * as v from "valibot";
import type { ImportMediaSourceItemBody, MediaSourceItemsQuery } from "../../../schema/manage-media-sources";
import { sha256Hex } from "../../../shared/crypto/digest";
import { AppError } from "../../../shared/errors";
import { newId } from "../../../shared/ids";
import { inspectMedia } from "../../../shared/services/media/inspect";
import { newObjectKey } from "../../../shared/services/media/object-keys";
import { assertMayUpload } from "../../../shared/services/media/upload";
import { cleanFileName, uploadCommandInput } from "../../../shared/services/media/upload-fields";
import { fetchSourceFile, fetchSourceHead, linkableAddress } from "../../../shared/services/plugins/media-source-file";
import { findMediaSource, listMediaSources as sourcesOf, listSourceItems, resolveSourceItem, type ResolvedItem } from "../../../shared/services/plugins/media-sources";
import { json } from "../../http/respond";
import { runCommand } from "../respond";
import type { ManageCall } from "../context";
import { storeThenCommand } from "./media";

/** Media sources of plugins (docs/media.md, "Media sources"; spec 2). */

/** GET /media/sources. */
export async function listMediaSources(call: ManageCall): Promise<Response> {
  return json({ data: await sourcesOf(call.ctx) });
}

/** GET /media/sources/{installationId}/{sourceId}/items?q=&cursor=: one page asked of the plugin. */
export async function listMediaSourceItems(call: ManageCall): Promise<Response> {
  const found = await findMediaSource(call.ctx, call.params.installationId ?? "", call.params.sourceId ?? "");
  const q = call.query as v.InferOutput<typeof MediaSourceItemsQuery>;
  return json(await listSourceItems(call.env, found, { q: q.q ?? null, cursor: q.cursor ?? null }, Date.now()));
}

/**
 * POST /media/sources/{installationId}/{sourceId}/import `{ item_id, mode }`. Reference: below. Copy: the plugin
 * names the item's file, whose bytes are fetched (outbound address policy, 32 MiB, 30 s), judged by
 * the upload's own checks and stored through the upload's store-then-command path — one batch
 * with its answer (spec 2 idempotency rule 3). A file the site already holds is reused (200).
 */
export async function importMediaSourceItem(call: ManageCall): Promise<Response> {
  // Authorise before asking the plugin or storing anything; the object asks again inside the write.
  assertMayUpload(call.ctx);
  const body = call.body as v.InferOutput<typeof ImportMediaSourceItemBody>;
  const found = await findMediaSource(call.ctx, call.params.installationId ?? "", call.params.sourceId ?? "");
  if (!found.source.modes.includes(body.mode)) {
    throw new AppError("invalid_request", `This media source offers ${found.source.modes.join(" and ")} only.`, { field: "mode", modes: found.source.modes });
  }
  const resolved = await resolveSourceItem(call.env, found, body.item_id, body.mode, Date.now());
  const imported_from = { installation_id: found.row.id, source_id: found.source.source_id, item_id: resolved.item.id };
  if (body.mode === "reference") return importByReference(call, resolved, imported_from);
  const file = await fetchSourceFile(call.env, resolved.url);
  const claims = { fileName: cleanFileName(resolved.item.file_name), declaredType: file.contentType };
  const inspected = await inspectMedia(file.bytes, claims, call.site.settings.media.allowed);
  const sha256 = await sha256Hex(file.bytes);
  const mediaId = newId("med");
  const stored = newObjectKey(call.site.id, mediaId);
  const input = uploadCommandInput({ mediaId, objectKey: stored.objectKey }, { byteLength: file.bytes.byteLength, sha256 }, inspected, { claims, on_duplicate: "use_existing" });
  return storeThenCommand(call, { ...stored, bytes: file.bytes, sha256, mimeType: inspected.mimeType }, "uploadMedia", {
    ...input,
    credit: resolved.item.attribution,
    imported_from,
  });
}

/**
 * Mode `reference` (spec 2 rule 6; docs/media.md, "Media sources", "Linked items"): a linked
 * external item. The address is judged by the outbound address policy, its first 64 KiB by the
 * upload's own checks (type, executable, markup, allowed formats, image dimensions); no byte is
 * stored. The item's `sha256` is the digest of its address, so importing the same file again reuses
 * the linked item (200 `reused`) and never matches stored bytes. One batch with its answer (rule 3).
 */
async function importByReference(call: ManageCall, resolved: ResolvedItem, imported_from: { installation_id: string; source_id: string; item_id: string }): Promise<Response> {
  const head = await fetchSourceHead(call.env, resolved.url);
  const address = linkableAddress(call.env, resolved.url);
  const claims = { fileName: cleanFileName(resolved.item.file_name), declaredType: head.contentType };
  const inspected = await inspectMedia(head.bytes, claims, call.site.settings.media.allowed);
  const sha256 = await sha256Hex(new TextEncoder().encode(address));
  const mediaId = newId("med");
  const stored = newObjectKey(call.site.id, mediaId);
  const input = uploadCommandInput({ mediaId, objectKey: stored.objectKey }, { byteLength: head.total ?? resolved.item.size, sha256 }, inspected, { claims, on_duplicate: "use_existing" });
  return runCommand(call, "uploadMedia", { ...input, credit: resolved.item.attribution, imported_from, external_url: address });
}
