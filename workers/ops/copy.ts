import type { Clock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { getOpsSite } from "../../shared/services/sites/ops-sites";
import { planCopy, type CopyInput } from "../../shared/services/site-copy/plan";
import { startCopy } from "../../shared/services/site-copy/start";
import { json } from "../http/respond";
import { expectValue, siteObject } from "../forward";
import { claimOps, completeOps, freeOps } from "./idempotency";

/** POST /api/ops/sites/{id}/copy with `dry_run: true`: what would be copied and what blocks it; reads only. */
export async function dryRunCopy(env: Env, templateRef: string, input: CopyInput): Promise<Response> {
  const plan = await planCopy(env, templateRef, input);
  return json({
    dry_run: true,
    template: { id: plan.template.id, slug: plan.template.slug },
    target: plan.target ? { id: plan.target.id, slug: plan.target.slug } : { id: null, slug: input.to?.slug ?? "" },
    would_copy: { rows: plan.rows, objects: plan.objects, bytes: plan.bytes },
    blocked_by: plan.blockers,
  });
}

/**
 * POST /api/ops/sites/{id}/copy (docs/site-copy.md). The key is claimed as for every operators'
 * write; the first call starts the copy (site + progress row), and every call runs one bounded
 * share in the target's object. Unfinished: 202 and the key is released, so the next call with it
 * goes on from the stored position. Finished: 201, stored as the key's answer (later calls replay it).
 */
export async function runCopy(env: Env, clock: Clock, key: string, fingerprint: string, templateRef: string, input: CopyInput): Promise<Response> {
  const claim = await claimOps(env.DB, clock, key, fingerprint);
  if (claim.kind === "replay") return json({ ...(JSON.parse(claim.body) as Record<string, unknown>), replayed: true }, claim.status);
  try {
    const row = await startCopy(env, clock, key, fingerprint, templateRef, input);
    const progress = await expectValue(siteObject(env, row.target_id).copySite(key));
    if (!progress) throw new Error("site copy row vanished");
    const template = await getOpsSite(env, progress.template_id);
    const answer = {
      dry_run: false,
      state: progress.state,
      template: { id: template.id, slug: template.slug },
      site: await getOpsSite(env, progress.site_id),
      copied: { rows: progress.rows, objects: progress.objects, bytes: progress.bytes },
    };
    if (progress.state === "done") {
      await completeOps(env.DB, clock, key, 201, answer);
      return json(answer, 201);
    }
    await freeOps(env.DB, key);
    return json(answer, 202);
  } catch (error) {
    await freeOps(env.DB, key).catch(() => undefined);
    throw error;
  }
}
