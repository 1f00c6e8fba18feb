/**
 * The three primitive routes `npm run bench` measures beside the product, in the same workerd:
 * what the platform itself costs for the same bytes, without any of Driftwood's code.
 *
 *   GET /fixed  the sample item answer from memory
 *   GET /d1     the same bytes read from D1: one row by primary key
 *   GET /cache  the same bytes from a Cache API hit (caches.default.match of a key put by setup)
 *
 * `setupPrimitives` (POST /_bench/setup) picks the sample item and fills memory and the cache; it
 * runs again after every restart of the runtime (module memory does not survive one).
 */
export const PRIMITIVE_CACHE_KEY = "https://primitive.bench/cache";

interface PrimitiveState {
  siteId: string;
  instanceId: string;
  /** The exact bytes the product's item route answers for the sample item. */
  body: string;
}

let state: PrimitiveState | undefined;

const HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } as const;

function notReady(): Response {
  return new Response("primitives not set up: POST /_bench/setup first\n", { status: 503 });
}

/** Loads the sample item (by site host, model and slug) and puts the cache primitive's key. */
export async function setupPrimitives(d1: D1Database, host: string, model: string, slug: string): Promise<Response> {
  const row = await d1
    .prepare(
      "SELECT p.site_id, p.instance_id, p.body FROM published_items p JOIN site_hosts h ON h.site_id = p.site_id JOIN models m ON m.id = p.model_id AND m.site_id = p.site_id WHERE h.host = ? AND m.slug = ? AND p.slug = ? ORDER BY p.lang LIMIT 1",
    )
    .bind(host, model, slug)
    .first<{ site_id: string; instance_id: string; body: string }>();
  if (!row) return new Response(`no published ${model}/${slug} on ${host}\n`, { status: 404 });
  const body = `{"data":${row.body}}`;
  state = { siteId: row.site_id, instanceId: row.instance_id, body };
  await caches.default.put(
    PRIMITIVE_CACHE_KEY,
    new Response(body, { headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=3600" } }),
  );
  return Response.json({ site_id: row.site_id, instance_id: row.instance_id, bytes: new TextEncoder().encode(body).byteLength });
}

/** GET /fixed: bytes from memory. */
export function fixedBytes(): Response {
  if (!state) return notReady();
  return new Response(state.body, { headers: HEADERS });
}

/** GET /d1: one row by primary key, answered as the same bytes. */
export async function d1Read(d1: D1Database): Promise<Response> {
  if (!state) return notReady();
  const row = await d1
    .prepare("SELECT body FROM published_items WHERE site_id = ? AND instance_id = ?")
    .bind(state.siteId, state.instanceId)
    .first<{ body: string }>();
  if (!row) return new Response("sample row missing\n", { status: 500 });
  return new Response(`{"data":${row.body}}`, { headers: HEADERS });
}

/** GET /cache: a Cache API hit. A miss is a 503 so that a broken cache cannot pass for a fast one. */
export async function cacheHit(): Promise<Response> {
  const hit = await caches.default.match(PRIMITIVE_CACHE_KEY);
  return hit ?? new Response("cache primitive missed\n", { status: 503 });
}
