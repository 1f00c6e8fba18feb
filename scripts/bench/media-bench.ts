/**
 * Media figures of `npm run bench` (issue #10): what an upload through the management API and a
 * public media delivery cost, each beside the R2 (or cache) primitive for the same bytes.
 *
 *   POST /_bench/media/credential  a management credential (content and media scopes) for the
 *                                  bench person, minted by the real credential service
 *   PUT  /r2put                    primitive: the request body buffered and put to R2 under a new key
 *   POST /_bench/media/gallery     a `gallery` model with a media field and one published entry
 *                                  naming the given media id; answers the entry's public item
 *   GET  /r2get?key=               primitive: the object streamed from R2, no lookup
 *   GET  /cache_media              primitive: the same bytes from a Cache API hit (put by /_bench/media/gallery
 *                                  and again by POST /_bench/media/prime after a restart)
 */
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById } from "../../shared/repositories/site-repository";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { commitPlan, createEntry, publishEntry, type LifecycleContext } from "../../shared/services/lifecycle";
import { createModel } from "../../shared/services/models/create-model";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import type { Env } from "../../shared/env";

export const MEDIA_CACHE_KEY = "https://primitive.bench/cache_media";

async function personContext(env: Env, siteId: string, personId: string): Promise<LifecycleContext> {
  const db = createDb(env.DB);
  const site = await findSiteById(db, siteId);
  if (!site) throw new Error("bench site missing");
  const admin = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!admin) throw new Error("no seeded admin role");
  return { db, d1: env.DB, scope: siteScope(site.id), site, actor: { kind: "person", id: personId, permissions: structuredClone(admin.permissions) }, clock: systemClock };
}

/** A management credential acting as the bench person (an admin of the bench site). */
export async function benchCredential(env: Env, siteId: string, personId: string): Promise<string> {
  const ctx = await personContext(env, siteId, personId);
  const created = await createManagementCredential(ctx, { name: "Bench: media", scopes: ["content:read", "content:write", "lifecycle:publish", "media:write"] });
  return created.token;
}

/** PUT /r2put: what storing the bytes costs with nothing else (read the body whole, as the upload does, then put). */
export async function r2Put(env: Env, request: Request): Promise<Response> {
  const bytes = await request.arrayBuffer();
  const key = `bench-primitive/${crypto.randomUUID()}`;
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: "image/png" } });
  return Response.json({ key, bytes: bytes.byteLength });
}

/** GET /r2get?key=: the object streamed from R2 with its type and length, no lookup of any kind. */
export async function r2Get(env: Env, url: URL): Promise<Response> {
  const key = url.searchParams.get("key") ?? "";
  const object = await env.MEDIA.get(key);
  if (!object) return new Response("no such object\n", { status: 404 });
  return new Response(object.body, { headers: { "content-type": object.httpMetadata?.contentType ?? "application/octet-stream", "content-length": String(object.size) } });
}

/** GET /cache_media: a Cache API hit for the delivered file's bytes; a miss is a 503. */
export async function cacheMedia(): Promise<Response> {
  return (await caches.default.match(MEDIA_CACHE_KEY)) ?? new Response("media cache primitive missed\n", { status: 503 });
}

/**
 * A `gallery` model with one media field and a published entry naming `media_id`; the media row's
 * R2 key and the cache primitive's copy of its bytes are set up for the delivery primitives.
 */
export async function benchGallery(env: Env, siteId: string, personId: string, mediaId: string): Promise<{ instance_id: string; object_key: string }> {
  const ctx = await personContext(env, siteId, personId);
  const model = (await commitPlan(ctx, await createModel(ctx, { slug: "gallery", name: "Gallery", fields: [
    { key: "title", label: "Title", type: "text", required: true, title: true },
    { key: "photo", label: "Photo", type: "media" },
  ] }))).answer;
  const entry = (await commitPlan(ctx, await createEntry(ctx, { model_id: model.id, slug: "bench-photo", fields: { title: "Bench photo", photo: mediaId } }))).answer;
  await commitPlan(ctx, await publishEntry(ctx, { instance_id: entry.instance_id }));
  const row = await ctx.db.selectFrom("media").select(["object_key", "mime_type"]).where("site_id", "=", siteId).where("id", "=", mediaId).executeTakeFirstOrThrow();
  await primeMediaCache(env, row.object_key);
  return { instance_id: entry.instance_id, object_key: row.object_key };
}

/** POST /_bench/media/prime: puts the object's bytes under the cache primitive's key (again after a restart). */
export async function primeMediaCache(env: Env, objectKey: string): Promise<{ bytes: number }> {
  const object = await env.MEDIA.get(objectKey);
  if (!object) throw new Error("the uploaded object is not in R2");
  const type = object.httpMetadata?.contentType ?? "application/octet-stream";
  await caches.default.put(MEDIA_CACHE_KEY, new Response(object.body, { headers: { "content-type": type, "content-length": String(object.size), "cache-control": "public, max-age=3600" } }));
  return { bytes: object.size };
}
