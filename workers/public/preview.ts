import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../shared/auth/permissions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { verifyPreview, verifyReleasePreview } from "../../shared/public/preview";
import { readReleasePreview } from "./release-preview";
import { entryRepository } from "../../shared/repositories/entry-repository";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import type { Actor, LifecycleContext } from "../../shared/services/lifecycle/context";
import { groupFirstPublishedAt, renderSnapshot } from "../../shared/services/lifecycle/snapshot";
import { publicNotFound } from "./models";
import { checkSelection, selectItem } from "./field-selection";
import type { PublicAnswer } from "./respond";

/** Renders on behalf of no one: the preview is read-only and never commits anything. */
const PREVIEW_ACTOR: Actor = {
  kind: "system",
  id: "preview",
  permissions: { models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] },
};

/**
 * GET /v1/{model}/{slug}?preview=…: the current draft of the one entry the capability names.
 * The model was already admitted by `readableModel` (a private model still needs a site token).
 * Served only when the capability verifies (signature, expiry), names the Host's site and the
 * path's model, the entry is not in Trash, and the path slug is the draft's slug or the slug
 * the entry is published under. Every refusal is the public 404. Never cacheable. It shows only the
 * fields the capability's minter could read when minting it.
 */
export async function readPreview(d1: D1Database, site: Site, model: Model, slug: string, token: string, nowMs: number, selection?: readonly string[], languages: readonly string[] = [site.default_lang]): Promise<PublicAnswer> {
  if (selection) checkSelection(model, selection);
  const claims = await verifyPreview(d1, token, nowMs);
  if (!claims) {
    // A release's preview: any item as it will be after the release (docs/releases.md, "Preview").
    const release = await verifyReleasePreview(d1, token, nowMs);
    if (release) return readReleasePreview(d1, site, model, slug, release, languages, selection);
  }
  if (!claims || claims.siteId !== site.id || claims.modelId !== model.id) throw publicNotFound();
  const db = createDb(d1);
  const scope = siteScope(site.id);
  const entries = entryRepository(db, scope);
  const entry = await entries.find(claims.instanceId);
  if (!entry || entry.trashed_at !== null || entry.model_id !== model.id || !entry.current_version_id) throw publicNotFound();
  const version = await entries.findVersion(entry.current_version_id);
  if (!version) throw publicNotFound();
  if (slug !== version.slug) {
    const published = await db
      .selectFrom("published_items")
      .select("slug")
      .where("site_id", "=", site.id)
      .where("instance_id", "=", entry.instance_id)
      .executeTakeFirst();
    if (published?.slug !== slug) throw publicNotFound();
  }
  const ctx: LifecycleContext = { db, d1, scope, site, actor: PREVIEW_ACTOR, clock: systemClock };
  // A draft has no publication time: it shows when its version was written, unless it is the published one.
  const publishedAt = version.id === entry.published_version_id && entry.published_at ? entry.published_at : version.created_at;
  const firstPublishedAt = await groupFirstPublishedAt(ctx, entry.translation_group_id, publishedAt);
  const rendered = await renderSnapshot(ctx, entry, version, model, {
    publishedAt,
    firstPublishedAt,
    ...(claims.fields === "all" ? {} : { readableFieldIds: new Set(claims.fields) }),
  });
  const item = JSON.stringify(rendered.item);
  return { body: `{"data":${selection ? selectItem(item, new Set(selection)) : item}}`, tags: [], cacheable: false };
}
