import { AppError, type Outcome } from "../shared/errors";
import type { Env } from "../shared/env";
import type { DeferredRate, RateSpend } from "../objects/site/commands";

/** The site's Durable Object, addressed by site id (so `ctx.id.name` is the site id). */
export function siteObject(env: Env, siteId: string) {
  return env.SITE.getByName(siteId);
}

/**
 * Restores the Outcome type of an RPC answer. Workers' RPC types drop union branches whose fields
 * they cannot prove serialisable (`details: Record<string, unknown>`), although the value arrives intact.
 */
export async function settle<T>(call: Promise<{ ok: true; value: T } | { ok: false }>): Promise<Outcome<T>> {
  return (await call) as Outcome<T>;
}

/** The answer of an RPC write, or its refusal thrown as an AppError. */
export async function expectValue<T>(call: Promise<{ ok: true; value: T } | { ok: false }>): Promise<T> {
  const outcome = await settle(call);
  if (outcome.ok) return outcome.value;
  throw AppError.fromFailure(outcome.error);
}

/**
 * The part of a command request that spends the caller's rate window, when the router left it
 * unspent for the command (one site-object call instead of two); marks it spent, so only the
 * first command of a call carries it.
 */
export function rateForCommand(rate: DeferredRate | undefined): { rate?: RateSpend } {
  if (!rate || rate.spent) return {};
  rate.spent = true;
  return { rate: { bucket: rate.bucket, limit: rate.limit, windowMs: rate.windowMs, message: rate.message } };
}
