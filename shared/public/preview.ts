import { PREVIEW_MINUTES } from "../../schema/admin-bodies";
import { signCapability, verifyCapability } from "../auth/tokens";
import { signingSecret } from "./signing-keys";

/** The audience of preview capabilities; tokens signed for another purpose never verify here. */
export const PREVIEW_AUDIENCE = "driftwood:preview";

/** Lifetime of a preview capability, in minutes (declared with the admin body that sets it). */
export { PREVIEW_MINUTES };

/**
 * The fields a preview shows: `"all"` when its minter's reads of the model are not limited by field,
 * else the ids of the fields the minter may read (a preview shows what its minter may read, no more).
 */
export type PreviewFields = "all" | readonly string[];

/** What a verified preview capability names: one instance of one model of one site. */
export interface PreviewClaims {
  siteId: string;
  instanceId: string;
  modelId: string;
  fields: PreviewFields;
  /** ms since the epoch. */
  expiresAtMs: number;
}

/**
 * Signs a preview capability (HS256, the `preview` signing key). It names the site, the entry's
 * instance and its model, and expires `minutes` after `nowMs`. Not a credential of anyone: it
 * lets the public item route serve that one entry's current draft, nothing else.
 */
export async function mintPreview(
  d1: D1Database,
  target: { siteId: string; instanceId: string; modelId: string; fields: PreviewFields },
  lifetime: { nowMs: number; minutes: number },
): Promise<{ token: string; expiresAtMs: number }> {
  // JWT times are whole seconds; the answer states the expiry the token really carries.
  const expiresAtMs = Math.floor((lifetime.nowMs + lifetime.minutes * 60_000) / 1000) * 1000;
  const secret = await signingSecret(d1, "preview");
  const token = await signCapability(
    { site: target.siteId, sub: target.instanceId, mdl: target.modelId, fld: target.fields === "all" ? "*" : [...target.fields] },
    secret,
    { audience: PREVIEW_AUDIENCE, issuedAtMs: lifetime.nowMs, expiresAtMs },
  );
  return { token, expiresAtMs };
}

/** The claims of a valid, unexpired preview capability, or undefined for anything else. */
export async function verifyPreview(d1: D1Database, token: string, nowMs: number): Promise<PreviewClaims | undefined> {
  const payload = await verifyCapability(token, await signingSecret(d1, "preview"), { audience: PREVIEW_AUDIENCE, nowMs });
  if (!payload) return undefined;
  const { site, sub, mdl, fld, exp } = payload;
  if (typeof site !== "string" || typeof sub !== "string" || typeof mdl !== "string" || typeof exp !== "number") return undefined;
  // A capability without its field set (or with a malformed one) shows nothing rather than everything.
  const fields = fieldsClaim(fld);
  if (!fields) return undefined;
  return { siteId: site, instanceId: sub, modelId: mdl, fields, expiresAtMs: exp * 1000 };
}

function fieldsClaim(value: unknown): PreviewFields | undefined {
  if (value === "*") return "all";
  if (Array.isArray(value) && value.every((id): id is string => typeof id === "string")) return value;
  return undefined;
}

/** The audience of release previews (docs/releases.md, "Preview"): never verifies as an entry preview. */
export const RELEASE_PREVIEW_AUDIENCE = "driftwood:release-preview";

/** What a verified release preview names: one release of one site, and per model the fields shown. */
export interface ReleasePreviewClaims {
  siteId: string;
  releaseId: string;
  /** Per readable model id of the minter: the fields it shows (a model absent: none of its items). */
  fields: Record<string, PreviewFields>;
  expiresAtMs: number;
}

/**
 * Signs a release preview: the public item route serves, for it, every item as it will be after
 * the release (the release's drafts published, its withdrawals gone, links following both).
 */
export async function mintReleasePreview(
  d1: D1Database,
  target: { siteId: string; releaseId: string; fields: Record<string, PreviewFields> },
  lifetime: { nowMs: number; minutes: number },
): Promise<{ token: string; expiresAtMs: number }> {
  const expiresAtMs = Math.floor((lifetime.nowMs + lifetime.minutes * 60_000) / 1000) * 1000;
  const secret = await signingSecret(d1, "preview");
  const fld = Object.fromEntries(Object.entries(target.fields).map(([model, f]) => [model, f === "all" ? "*" : [...f]]));
  // Claims are flat values: the per-model field sets travel as one JSON string.
  const token = await signCapability({ site: target.siteId, sub: target.releaseId, fld: JSON.stringify(fld) }, secret, { audience: RELEASE_PREVIEW_AUDIENCE, issuedAtMs: lifetime.nowMs, expiresAtMs });
  return { token, expiresAtMs };
}

export async function verifyReleasePreview(d1: D1Database, token: string, nowMs: number): Promise<ReleasePreviewClaims | undefined> {
  const payload = await verifyCapability(token, await signingSecret(d1, "preview"), { audience: RELEASE_PREVIEW_AUDIENCE, nowMs });
  if (!payload) return undefined;
  const { site, sub, fld, exp } = payload;
  if (typeof site !== "string" || typeof sub !== "string" || typeof exp !== "number" || typeof fld !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fld);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const fields: Record<string, PreviewFields> = {};
  for (const [model, value] of Object.entries(parsed as Record<string, unknown>)) {
    const f = fieldsClaim(value);
    if (f) fields[model] = f;
  }
  return { siteId: site, releaseId: sub, fields, expiresAtMs: exp * 1000 };
}
