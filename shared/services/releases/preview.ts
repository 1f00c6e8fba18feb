import { decide, readFieldLimit } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import type { EntryRow, ReleaseRow } from "../../db/database";
import { mintReleasePreview, PREVIEW_MINUTES, type PreviewFields } from "../../public/preview";
import { entryRepository } from "../../repositories/entry-repository";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { pendingKey, type PendingTargets } from "../lifecycle/relation-targets";
import { groupFirstPublishedAt, renderSnapshot, type RenderedSnapshot } from "../lifecycle/snapshot";
import { buildRelease } from "./publish";
import { loadRelease, releaseChanges, type ReleaseChange, type ReleaseProblem } from "./releases";

/** The publications a release makes, as pending changes every rendering of its preview sees. */
export async function releasePending(ctx: Pick<LifecycleContext, "db" | "scope">, changes: readonly ReleaseChange[]): Promise<PendingTargets> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const pending: PendingTargets = new Map();
  for (const c of changes) {
    const version = c.action === "publish" ? await entries.findVersion(c.version_id) : undefined;
    pending.set(pendingKey(c.translation_group_id, c.lang), version ? { instance_id: c.instance_id, group_id: c.translation_group_id, model_id: c.model_id, lang: c.lang, slug: version.slug, label: version.label } : null);
  }
  return pending;
}

/**
 * One entry language as it will be served after the release: a change's pinned draft published,
 * or (outside the release) its published version, its links following the release. Undefined: not
 * served after it (withdrawn, moved away, or never published).
 */
export async function renderAfterRelease(
  ctx: LifecycleContext,
  release: Pick<ReleaseRow, "changes">,
  entry: EntryRow,
  model: Model,
  readableFieldIds: ReadonlySet<string> | undefined,
): Promise<RenderedSnapshot | undefined> {
  const changes = releaseChanges(release);
  const change = changes.find((c) => c.instance_id === entry.instance_id);
  if (change?.action === "unpublish") return undefined;
  const versionId = change ? change.version_id : entry.published_version_id;
  if (!versionId || entry.trashed_at !== null) return undefined;
  const version = await entryRepository(ctx.db, ctx.scope).findVersion(versionId);
  if (!version) return undefined;
  const publishedAt = change ? isoAt(ctx.clock.now()) : (entry.published_at ?? version.created_at);
  const firstPublishedAt = await groupFirstPublishedAt(ctx, entry.translation_group_id, publishedAt);
  return renderSnapshot(ctx, { ...entry, published_version_id: version.id, published_at: publishedAt }, version, model, {
    publishedAt,
    firstPublishedAt,
    pending: await releasePending(ctx, changes),
    ...(readableFieldIds ? { readableFieldIds } : {}),
  });
}

export interface ReleasePreview {
  release_id: string;
  /** Whether publishing now would succeed (every change builds). */
  valid: boolean;
  problems: ReleaseProblem[];
  /** Per change: where the item will be served and the item as served (null: withdrawn). */
  items: { index: number; instance_id: string; lang: string; action: ReleaseChange["action"]; model: string; url: string | null; item: unknown }[];
  /** The capability for `?preview=` on the site's public item route: any item as it will be after the release. */
  preview: string;
  expires_at: string;
}

/** The fields each readable model shows in the preview (a preview shows what its minter may read). */
function previewFields(ctx: LifecycleContext, models: readonly Model[]): Record<string, PreviewFields> {
  const fields: Record<string, PreviewFields> = {};
  for (const m of models) {
    if (!decide(ctx.actor.permissions, { operation: "read", modelId: m.id }).allowed) continue;
    const limit = readFieldLimit(ctx.actor.permissions, m.id);
    fields[m.id] = limit === undefined ? "all" : m.fields.filter((f) => limit.includes(f.id)).map((f) => f.id);
  }
  return fields;
}

/**
 * POST /releases/{id}/preview (docs/releases.md, "Preview"): what publishing would do now — every
 * problem, and each change's item as it will be served — with a preview capability; writes
 * nothing but the signing key on first use. Needs read on every change; the problems are the
 * caller's own (one who may not publish sees `missing_permission` per change).
 */
export async function previewRelease(ctx: LifecycleContext, input: { release_id: string; minutes?: number }): Promise<ReleasePreview> {
  const minutes = input.minutes ?? PREVIEW_MINUTES.default;
  const row = await loadRelease(ctx, input.release_id);
  const changes = releaseChanges(row);
  if (row.state === "published") throw new AppError("release_published", "This release was published; its items are served.", { published_at: row.published_at });
  const built = await buildRelease(ctx, changes);
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const fields = previewFields(ctx, models);
  const minted = await mintReleasePreview(ctx.d1, { siteId: ctx.site.id, releaseId: row.id, fields }, { nowMs: ctx.clock.now(), minutes });
  const entries = new Map((await entryRepository(ctx.db, ctx.scope).findMany(changes.map((c) => c.instance_id))).map((e) => [e.instance_id, e]));
  const items: ReleasePreview["items"] = [];
  for (const [index, c] of changes.entries()) {
    const entry = entries.get(c.instance_id);
    const model = models.find((m) => m.id === c.model_id);
    const shown = fields[c.model_id];
    const rendered = entry && model && c.action === "publish" ? await renderAfterRelease(ctx, row, entry, model, shown === undefined || shown === "all" ? undefined : new Set(shown)) : undefined;
    const slug = rendered?.item.slug ?? null;
    const url = model && slug ? `/v1/${model.slug}/${encodeURIComponent(slug)}?locale=${c.lang}&preview=${encodeURIComponent(minted.token)}` : null;
    items.push({ index, instance_id: c.instance_id, lang: c.lang, action: c.action, model: model?.slug ?? "", url, item: rendered?.item ?? null });
  }
  return { release_id: row.id, valid: built.problems.length === 0, problems: built.problems, items, preview: minted.token, expires_at: isoAt(minted.expiresAtMs) };
}
