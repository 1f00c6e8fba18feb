import { decide, readFieldLimit } from "../../auth/permissions";
import { AppError } from "../../errors";
import { isoAt } from "../../clock";
import { mintPreview, PREVIEW_MINUTES } from "../../public/preview";
import { entryRepository } from "../../repositories/entry-repository";
import { modelRepository } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";

/** The answer of a preview request. */
export interface PreviewLink {
  /** The capability, to pass as `?preview=`. */
  preview: string;
  expires_at: string;
  /** Path on the site's public host that serves the entry's current draft. */
  url: string;
}

/**
 * A preview capability for an entry's current draft, for any surface (admin session today, the
 * management API later). The actor needs `read` on the entry's model in the entry's language.
 * Unknown and trashed entries are 404 not_found; an entry without a slug has no public address
 * and is 422 invalid_slug. The capability carries the actor's read field limit on the model, so the
 * preview shows only the fields its minter may read.
 */
export async function createPreview(ctx: LifecycleContext, input: { instance_id: string; minutes?: number }): Promise<PreviewLink> {
  const minutes = input.minutes ?? PREVIEW_MINUTES.default;
  if (!Number.isInteger(minutes) || minutes < PREVIEW_MINUTES.min || minutes > PREVIEW_MINUTES.max) {
    throw new AppError("invalid_request", `minutes is a whole number from ${PREVIEW_MINUTES.min} to ${PREVIEW_MINUTES.max}.`);
  }
  const entry = await entryRepository(ctx.db, ctx.scope).find(input.instance_id);
  if (!entry || entry.trashed_at !== null) throw new AppError("not_found", "No such entry.");
  const model = await modelRepository(ctx.db, ctx.scope).findById(entry.model_id);
  if (!model) throw new AppError("not_found", "No such entry.");
  // An entry the actor may not read is "not found", as every read and write answers it.
  if (!decide(ctx.actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed) throw new AppError("not_found", "No such entry.");
  if (!entry.current_version_id) throw new AppError("not_found", "No such entry.");
  if (entry.slug === null) throw new AppError("invalid_slug", "The entry has no slug, so it has no public address to preview.");

  const limit = readFieldLimit(ctx.actor.permissions, model.id);
  const fields = limit === undefined ? "all" : model.fields.filter((f) => limit.includes(f.id)).map((f) => f.id);
  const minted = await mintPreview(ctx.d1, { siteId: ctx.site.id, instanceId: entry.instance_id, modelId: model.id, fields }, { nowMs: ctx.clock.now(), minutes });
  return {
    preview: minted.token,
    expires_at: isoAt(minted.expiresAtMs),
    url: `/v1/${model.slug}/${encodeURIComponent(entry.slug)}?preview=${encodeURIComponent(minted.token)}`,
  };
}
