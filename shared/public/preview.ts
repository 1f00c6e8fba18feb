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
