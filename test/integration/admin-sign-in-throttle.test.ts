import { afterEach, describe, expect, it, vi } from "vitest";
import { SIGN_IN_THROTTLE } from "../../shared/auth/sign-in-throttle";
import { ADMIN } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { workerFetch } from "../helpers/worker";

/**
 * POST /api/session throttling (docs/admin-api.md, "Sign-in throttling"): failures counted per
 * account and per client address (CF-Connecting-IP); past a threshold 429 rate_limited with
 * Retry-After, without spending PBKDF2; one throttled account never locks out another; a success
 * resets its account.
 */

type Answer = { status: number; code: string | undefined; retryAfter: string | null };

let addresses = 0;
/** A client address of its own for each test (203.0.113.0/24 is documentation space). */
const newAddress = () => `198.51.100.${(addresses++ % 250) + 1}`;

async function signInFrom(address: string | null, email: string, password: string): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (address !== null) headers["cf-connecting-ip"] = address;
  const res = await workerFetch(`${ADMIN}/api/session`, { method: "POST", headers, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code, retryAfter: res.headers.get("retry-after") };
}

async function account() {
  const s = await seedSite();
  return { email: `${s.site.slug}@example.test`, password: "correct horse" };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /api/session throttling", () => {
  it("answers 429 with Retry-After once an account reaches its failure threshold, even with the right password", async () => {
    const a = await account();
    const address = newAddress();
    for (let i = 0; i < SIGN_IN_THROTTLE.perAccount; i++) expect((await signInFrom(address, a.email, "wrong horse")).status).toBe(401);
    const throttled = await signInFrom(address, a.email, a.password);
    expect(throttled.status).toBe(429);
    expect(throttled.code).toBe("rate_limited");
    const seconds = Number(throttled.retryAfter);
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(SIGN_IN_THROTTLE.windowMs / 1000);
    // Another client address does not help: the account is throttled, whoever asks.
    expect((await signInFrom(newAddress(), a.email, a.password)).status).toBe(429);
    // Differently written, same account.
    expect((await signInFrom(newAddress(), `  ${a.email.toUpperCase()} `, a.password)).status).toBe(429);
  });

  it("spends no PBKDF2 on a throttled attempt", async () => {
    const a = await account();
    const address = newAddress();
    for (let i = 0; i < SIGN_IN_THROTTLE.perAccount; i++) await signInFrom(address, a.email, "wrong horse");
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    for (let i = 0; i < 5; i++) expect((await signInFrom(address, a.email, "wrong horse")).status).toBe(429);
    expect(derive).not.toHaveBeenCalled();
    // The spy does see the password work of an attempt that is not throttled.
    const b = await account();
    expect((await signInFrom(newAddress(), b.email, "wrong horse")).status).toBe(401);
    expect(derive).toHaveBeenCalled();
  });

  it("never lets one throttled account lock out another, even from the same address", async () => {
    const a = await account();
    const b = await account();
    const address = newAddress();
    // Far more attempts on the throttled account than the address allows: they are refused before counting there.
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress + 10; i++) await signInFrom(address, a.email, "wrong horse");
    expect((await signInFrom(address, a.email, a.password)).status).toBe(429);
    expect((await signInFrom(address, b.email, b.password)).status).toBe(200);
  });

  it("resets an account's count on success", async () => {
    const a = await account();
    const address = newAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < SIGN_IN_THROTTLE.perAccount - 1; i++) expect((await signInFrom(address, a.email, "wrong horse")).status).toBe(401);
      expect((await signInFrom(address, a.email, a.password)).status).toBe(200);
    }
  });

  it("throttles a client address that fails across many accounts, and only that address", async () => {
    const victim = await account();
    const address = newAddress();
    const run = `${Date.now().toString(36)}-${addresses}`;
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) expect((await signInFrom(address, `nobody-${run}-${i}@example.test`, "guess")).status).toBe(401);
    const throttled = await signInFrom(address, victim.email, victim.password);
    expect(throttled.status).toBe(429);
    expect(throttled.code).toBe("rate_limited");
    expect(Number(throttled.retryAfter)).toBeGreaterThan(0);
    // The refusal at the address did not count against the account: it signs in from elsewhere.
    expect((await signInFrom(newAddress(), victim.email, victim.password)).status).toBe(200);
  });

  it("counts IPv6 clients by their /64", async () => {
    const a = await account();
    const prefix = `2001:db8:${(addresses++).toString(16)}:1`;
    const run = `${Date.now().toString(36)}-${addresses}`;
    for (let i = 0; i < SIGN_IN_THROTTLE.perAddress; i++) await signInFrom(`${prefix}::${(i + 1).toString(16)}`, `nobody6-${run}-${i}@example.test`, "guess");
    expect((await signInFrom(`${prefix}::ffff`, a.email, a.password)).status).toBe(429);
    expect((await signInFrom(`2001:db8:${(addresses++).toString(16)}:2::1`, a.email, a.password)).status).toBe(200);
  });
});
