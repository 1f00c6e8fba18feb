import { errors, jwtVerify, SignJWT } from "jose";

/**
 * Signed, self-contained capabilities (JWT, HS256). The only module that imports `jose`: callers
 * pass the secret (from `shared/public/signing-keys.ts`), an audience naming the purpose, and
 * times from their clock, so tests can mint tokens that are already expired.
 */

/** Claims a capability carries besides the registered ones (`aud`, `iat`, `exp`). */
export type CapabilityClaims = Record<string, string | number | string[]>;

export interface SignOptions {
  /** What the token is for (`aud`); a token of one purpose never verifies as another. */
  audience: string;
  /** Issue time, ms since the epoch. */
  issuedAtMs: number;
  /** Expiry, ms since the epoch. */
  expiresAtMs: number;
}

/** Signs claims as a compact JWT with HS256. */
export function signCapability(claims: CapabilityClaims, secret: Uint8Array, options: SignOptions): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setAudience(options.audience)
    .setIssuedAt(Math.floor(options.issuedAtMs / 1000))
    .setExpirationTime(Math.floor(options.expiresAtMs / 1000))
    .sign(secret);
}

/**
 * The claims of a token signed with `secret` for `audience` and not expired at `nowMs`, or
 * undefined. Every refusal (malformed, other algorithm, bad signature, other audience, expired,
 * no expiry) is the same undefined, so callers cannot answer them differently by mistake.
 */
export async function verifyCapability(
  token: string,
  secret: Uint8Array,
  options: { audience: string; nowMs: number },
): Promise<Record<string, unknown> | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      audience: options.audience,
      currentDate: new Date(options.nowMs),
      requiredClaims: ["exp"],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}
