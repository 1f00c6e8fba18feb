import { AppError, type Outcome } from "../shared/errors";
import type { Env } from "../shared/env";

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
