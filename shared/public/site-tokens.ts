import { sha256Hex } from "../crypto/digest";

const BEARER = /^Bearer\s+(dw_site_[A-Za-z0-9_-]{43})$/;

/** Whether the request carries any Authorization header (such answers are never cached). */
export function carriesToken(request: Request): boolean {
  return request.headers.has("authorization");
}

/**
 * The model ids a site API token in the request may read, or an empty list. A missing, malformed,
 * unknown, revoked or foreign token all give the same empty answer: callers cannot tell them apart.
 */
export async function tokenModelIds(d1: D1Database, siteId: string, request: Request): Promise<string[]> {
  const match = BEARER.exec(request.headers.get("authorization") ?? "");
  if (!match?.[1]) return [];
  const row = await d1
    .prepare("SELECT model_ids FROM site_api_tokens WHERE digest = ? AND site_id = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(match[1]), siteId)
    .first<{ model_ids: string }>();
  return row ? (JSON.parse(row.model_ids) as string[]) : [];
}
