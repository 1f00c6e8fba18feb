import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { carriesToken, tokenModelIds } from "../../shared/public/site-tokens";
import { mediaDeliveryRepository } from "../../shared/repositories/media-delivery-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import {
  contentDisposition,
  DELIVERY_CSP,
  etagMatches,
  ifRangeAllows,
  IMMUTABLE_CACHE_CONTROL,
  parseRange,
} from "../../shared/services/media/delivery";
import { cacheMaxAge } from "./cache";
import { publicNotFound } from "./models";
import { siteScopedDatabase } from "../../shared/db/site-databases";

/** Paths public delivery answers; the router's generic cache lookup skips them (Range, conditionals). */
export const MEDIA_PATH_PREFIX = "/media/";

const MEDIA_ID = /^med_[A-Za-z0-9_-]{1,64}$/;
const OBJECT_ID = /^obj_[A-Za-z0-9_-]{1,64}$/;
const MAX_FILE_NAME = 1024;

/** Why an object may be served, and to whom. */
interface Access {
  /** Cache tags of the stored copy: the site, the media item, and every pinning item and its model. */
  tags: string[];
  /**
   * The name the object is delivered under (Content-Disposition): its stored name as the pin or the
   * item's row holds it — never taken from the path, which only has to match it.
   */
  fileName: string;
}

/**
 * Whether this site serves the object under this file name: pinned by a published item of a public
 * model, or the item's current file while the site's library is public, or pinned by an item of a
 * private model and the request carries a site token naming that model. Keys are built from the
 * Host's site id, never from the path alone.
 */
async function accessOf(env: Env, site: Site, request: Request, mediaId: string, objectId: string, fileName: string): Promise<Access | undefined> {
  const d1 = await siteScopedDatabase(env, site.id);
  const repo = mediaDeliveryRepository(d1, siteScope(site.id));
  const pins = await repo.pins(mediaId, objectId);
  const tags = [cacheTag.site(site.id), cacheTag.media(mediaId), ...new Set(pins.flatMap((p) => [cacheTag.item(p.translation_group_id), cacheTag.model(p.model_id)]))];
  const named = pins.filter((p) => p.file_name === fileName);
  const pinned = named[0]?.file_name;
  if (pinned !== undefined && named.some((p) => p.is_public === 1)) return { tags, fileName: pinned };
  if (site.settings.media.public_library) {
    const current = await repo.currentFile(mediaId, objectId);
    if (current && current.file_name === fileName) return { tags, fileName: current.file_name };
  }
  if (pinned !== undefined && carriesToken(request)) {
    const allowed = await tokenModelIds(d1, site.id, request);
    if (named.some((p) => allowed.includes(p.model_id))) return { tags, fileName: pinned };
  }
  return undefined;
}

/** The edge cache key of a delivery address: host and path; the query and every header are ignored. */
function deliveryCacheKey(request: Request, url: URL): Request {
  const host = (request.headers.get("host") ?? url.host).toLowerCase().replace(/:\d+$/, "");
  return new Request(`https://${host}${url.pathname}`, { method: "GET" });
}

/** Headers every delivered file carries (docs/media.md, "Public delivery"). */
function fileHeaders(object: R2Object, fileName: string, shared: boolean): Headers {
  const type = object.httpMetadata?.contentType ?? "application/octet-stream";
  return new Headers({
    "content-type": type,
    etag: object.httpEtag,
    "accept-ranges": "bytes",
    "cache-control": shared ? IMMUTABLE_CACHE_CONTROL : "private, no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": DELIVERY_CSP,
    "content-disposition": contentDisposition(type, fileName),
  });
}

/**
 * A linked external item (docs/media.md, "Linked items"): 302 to the file's address at the plugin,
 * the one judged by the outbound address policy at import and kept in the item's row (never taken
 * from the request). Cached like the public API's answers when the request may be shared.
 */
function linkedRedirect(address: string, maxAge: number): Response {
  return new Response(null, {
    status: 302,
    headers: { location: address, "cache-control": maxAge > 0 ? `public, max-age=${maxAge}` : "private, no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" },
  });
}

/** 304: the client's copy is current. */
function notModified(headers: Headers): Response {
  const out = new Headers();
  for (const name of ["etag", "cache-control", "x-content-type-options", "content-security-policy"]) {
    const value = headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return new Response(null, { status: 304, headers: out });
}

/** A stored full copy answered to this request: conditional, HEAD, and the client's cache header. */
async function fromCache(request: Request, hit: Response): Promise<Response> {
  const headers = new Headers(hit.headers);
  headers.delete("cache-tag");
  headers.set("cache-control", IMMUTABLE_CACHE_CONTROL);
  const etag = headers.get("etag") ?? "";
  if (etagMatches(request.headers.get("if-none-match"), etag)) {
    await hit.body?.cancel();
    return notModified(headers);
  }
  if (request.method === "HEAD") {
    await hit.body?.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(hit.body, { status: 200, headers });
}

/**
 * GET/HEAD /media/{id}/{object id}/{file name} on the site's host: the object's bytes streamed from
 * R2 (never buffered), with `ETag`, `Range`, conditional requests and immutable caching; everything
 * refused is the one public 404.
 */
export async function serveMediaFile(request: Request, env: Env, ctx: ExecutionContext, site: Site, params: Record<string, string>): Promise<Response> {
  const mediaId = params.id ?? "";
  const objectId = params.object ?? "";
  const fileName = params.file ?? "";
  if (!MEDIA_ID.test(mediaId) || !OBJECT_ID.test(objectId) || fileName.length === 0 || fileName.length > MAX_FILE_NAME) throw publicNotFound();
  const url = new URL(request.url);
  const head = request.method === "HEAD";
  const rangeHeader = head ? null : request.headers.get("range");
  const maxAge = cacheMaxAge(env);
  // Token-carrying requests are never stored nor answered from the cache (as the public API).
  const shared = !carriesToken(request);
  const edge = maxAge > 0 && shared;
  const key = deliveryCacheKey(request, url);
  if (edge && rangeHeader === null) {
    const hit = await caches.default.match(key);
    if (hit) return fromCache(request, hit);
  }

  const access = await accessOf(env, site, request, mediaId, objectId, fileName);
  if (!access) throw publicNotFound();
  const delivery = mediaDeliveryRepository(await siteScopedDatabase(env, site.id), siteScope(site.id));
  const objectKey = delivery.keyOf(mediaId, objectId);
  // A linked external item has no stored object (one read, only when R2 has none): a redirect.
  const missing = async (): Promise<Response> => {
    const linked = await delivery.linkedAddress(mediaId, objectId);
    if (!linked) throw publicNotFound();
    return linkedRedirect(linked, shared ? maxAge : 0);
  };
  const conditional = request.headers.get("if-none-match");

  // HEAD, ranges and conditionals read the object's metadata first, so no body is opened to be dropped.
  if (head || rangeHeader !== null || conditional !== null) {
    const info = await env.MEDIA.head(objectKey);
    if (!info) return missing();
    const headers = fileHeaders(info, access.fileName, shared);
    if (etagMatches(conditional, info.httpEtag)) return notModified(headers);
    headers.set("content-length", String(info.size));
    if (head) return new Response(null, { status: 200, headers });
    const range = ifRangeAllows(request.headers.get("if-range"), info.httpEtag) ? parseRange(rangeHeader, info.size) : { kind: "whole" as const };
    if (range.kind === "unsatisfiable") {
      return new Response(null, { status: 416, headers: { "content-range": `bytes */${info.size}`, "x-content-type-options": "nosniff", "cache-control": "no-store" } });
    }
    if (range.kind === "part") {
      const length = range.end - range.start + 1;
      const part = await env.MEDIA.get(objectKey, { range: { offset: range.start, length } });
      if (!part) throw publicNotFound();
      headers.set("content-length", String(length));
      headers.set("content-range", `bytes ${range.start}-${range.end}/${info.size}`);
      return new Response(part.body, { status: 206, headers });
    }
    headers.delete("content-length");
  }

  const object = await env.MEDIA.get(objectKey);
  if (!object) return missing();
  const headers = fileHeaders(object, access.fileName, shared);
  if (etagMatches(conditional, object.httpEtag)) {
    await object.body.cancel();
    return notModified(headers);
  }
  headers.set("content-length", String(object.size));
  const response = new Response(object.body, { status: 200, headers });
  if (!edge) return response;
  // The stored copy lives no longer than the public API's answers and carries the tags a purge
  // names (unpublish, model change, closing the library); clients get the immutable header.
  const copy = response.clone();
  const stored = new Headers(headers);
  stored.set("cache-control", `public, max-age=${maxAge}`);
  stored.set("cache-tag", access.tags.join(","));
  ctx.waitUntil(caches.default.put(key, new Response(copy.body, { status: 200, headers: stored })));
  return response;
}
