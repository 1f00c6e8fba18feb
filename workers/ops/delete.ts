import type { Clock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { beginDeletion, readDeletion } from "../../shared/services/sites/site-delete";
import { cloudflarePurger, purgeAfterCommit } from "../../shared/public/cache-purge";
import { json } from "../http/respond";
import { expectValue, siteObject } from "../forward";
import { claimOps, completeOps, freeOps } from "./idempotency";

/**
 * POST /api/ops/sites/{id}/delete (docs/site-delete.md). Refusals, in order, nothing removed:
 * 404 (no such site, and no deletion of it under way), 422 `confirm_mismatch` (`confirm` is not the
 * site's slug), 409 `site_not_suspended`. Then one bounded share of the deletion runs in the site's
 * object: 202 while rows or objects remain (the key is released; call again with it), 200 with the
 * receipt when done (stored as the key's answer: the same key replays it).
 */
export async function runDelete(env: Env, clock: Clock, key: string, fingerprint: string, ref: string, confirm: string): Promise<Response> {
  const claim = await claimOps(env.DB, clock, key, fingerprint);
  if (claim.kind === "replay") return json({ ...(JSON.parse(claim.body) as Record<string, unknown>), replayed: true }, claim.status);
  try {
    const site = await env.DB.prepare(`SELECT id, slug, suspended_at FROM sites WHERE ${ref.startsWith("site_") ? "id" : "slug"} = ?`)
      .bind(ref)
      .first<{ id: string; slug: string; suspended_at: string | null }>();
    let target: { id: string; slug: string };
    if (site) {
      if (confirm !== site.slug) throw new AppError("confirm_mismatch", "To delete a site, send its slug as `confirm`.", { slug_expected: true });
      if (site.suspended_at === null) throw new AppError("site_not_suspended", "Only a suspended site can be deleted; suspend it first.");
      await beginDeletion(env.DB, clock, site);
      target = site;
    } else {
      const pending = await readDeletion(env.DB, ref);
      if (!pending || pending.state !== "running") throw new AppError("not_found", "No such site.");
      if (confirm !== pending.slug) throw new AppError("confirm_mismatch", "To delete a site, send its slug as `confirm`.", { slug_expected: true });
      target = { id: pending.site_id, slug: pending.slug };
    }
    const progress = await expectValue(siteObject(env, target.id).deleteSite(target.id));
    if (!progress) throw new AppError("not_found", "No such site.");
    if (progress.state === "done") {
      // Cached public answers of its hosts go too (they answer 404 from now on).
      await purgeAfterCommit(env, cloudflarePurger(env), [cacheTag.site(target.id)]);
      await completeOps(env.DB, clock, key, 200, progress);
      return json(progress, 200);
    }
    await freeOps(env.DB, key);
    return json(progress, 202);
  } catch (error) {
    await freeOps(env.DB, key).catch(() => undefined);
    throw error;
  }
}
