import { signCapability, verifyCapability } from "../../auth/tokens";
import { newId } from "../../ids";
import { signingSecret } from "../../public/signing-keys";

/**
 * Spam resistance of public comments (docs/comments.md, "Spam resistance"): a proof-of-work
 * challenge. The site host hands out a signed challenge (site, a fresh id, the difficulty, 15
 * minutes); the reader's browser finds a `nonce` such that SHA-256(`<challenge>:<nonce>`) starts
 * with `bits` zero bits and posts both. Each challenge serves one comment (its id is unique among
 * the site's comments), so a bulk poster pays the work per comment; the rate limit per client
 * address bounds what even a patient one can post.
 */

export const CHALLENGE_AUDIENCE = "driftwood:comment-challenge";
export const CHALLENGE_MINUTES = 15;

export interface Challenge {
  challenge: string;
  difficulty: number;
  expires_at: string;
}

export async function mintChallenge(d1: D1Database, siteId: string, difficulty: number, nowMs: number): Promise<Challenge> {
  const expiresAtMs = Math.floor((nowMs + CHALLENGE_MINUTES * 60_000) / 1000) * 1000;
  const challenge = await signCapability({ site: siteId, jti: newId("cmt"), bits: difficulty }, await signingSecret(d1, "comments"), { audience: CHALLENGE_AUDIENCE, issuedAtMs: nowMs, expiresAtMs });
  return { challenge, difficulty, expires_at: new Date(expiresAtMs).toISOString() };
}

/**
 * The challenge's id when the challenge was signed here for this site, is not expired, and the
 * nonce solves it; else undefined (one answer for every failure).
 */
export async function solvedChallenge(d1: D1Database, siteId: string, challenge: string, nonce: string, nowMs: number): Promise<string | undefined> {
  const claims = await verifyCapability(challenge, await signingSecret(d1, "comments"), { audience: CHALLENGE_AUDIENCE, nowMs });
  if (!claims || claims.site !== siteId || typeof claims.jti !== "string" || typeof claims.bits !== "number") return undefined;
  return (await leadingZeroBits(`${challenge}:${nonce}`)) >= claims.bits ? claims.jti : undefined;
}

/** How many zero bits SHA-256 of the text starts with. */
export async function leadingZeroBits(text: string): Promise<number> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    bits += Math.clz32(byte) - 24;
    break;
  }
  return bits;
}

/** Finds a nonce for a challenge (tests, the CLI, scripts; a browser does the same with SubtleCrypto). */
export async function solveChallenge(challenge: string, difficulty: number): Promise<string> {
  for (let n = 0; ; n++) if ((await leadingZeroBits(`${challenge}:${n}`)) >= difficulty) return String(n);
}
