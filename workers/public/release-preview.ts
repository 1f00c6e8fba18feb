import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../shared/auth/permissions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { ReleasePreviewClaims } from "../../shared/public/preview";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { entryRepository } from "../../shared/repositories/entry-repository";
import type { Actor, LifecycleContext } from "../../shared/services/lifecycle/context";
import { releaseChanges } from "../../shared/services/releases/releases";
import { renderAfterRelease } from "../../shared/services/releases/preview";
import { publicNotFound } from "./models";
import { checkSelection, selectItem } from "./field-selection";
import type { PublicAnswer } from "./respond";

const PREVIEW_ACTOR: Actor = { kind: "system", id: "preview", permissions: { models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] } };

/**
 * GET /v1/{model}/{slug}?preview=<release preview> (docs/releases.md, "Preview"): the item served at
 * this address after the release — a draft the release publishes there, else the item published
 * there now unless the release withdraws or moves it — its links as the release leaves them. Only
 * models the minter could read, and their fields it could read. Every refusal is the public 404.
 */
export async function readReleasePreview(d1: D1Database, site: Site, model: Model, slug: string, claims: ReleasePreviewClaims, languages: readonly string[], selection?: readonly string[]): Promise<PublicAnswer> {
  if (selection) checkSelection(model, selection);
  const shown = claims.fields[model.id];
  if (claims.siteId !== site.id || shown === undefined) throw publicNotFound();
  const db = createDb(d1);
  const scope = siteScope(site.id);
  const release = await db.selectFrom("releases").selectAll().where("site_id", "=", site.id).where("id", "=", claims.releaseId).executeTakeFirst();
  if (!release || release.state === "published") throw publicNotFound();
  const entries = entryRepository(db, scope);
  const changes = releaseChanges(release).filter((c) => c.model_id === model.id);
  // The release's drafts at this address, then what is published here now.
  const candidates: string[] = [];
  for (const c of changes) if (c.action === "publish" && (await entries.findVersion(c.version_id))?.slug === slug) candidates.push(c.instance_id);
  const served = await db.selectFrom("published_items").select(["instance_id"]).where("site_id", "=", site.id).where("model_id", "=", model.id).where("slug", "=", slug).execute();
  const found = await entries.findMany([...candidates, ...served.map((s) => s.instance_id)]);
  const ctx: LifecycleContext = { db, d1, scope, site, actor: PREVIEW_ACTOR, clock: systemClock };
  for (const lang of languages) {
    for (const entry of found.filter((e) => e.lang === lang)) {
      const rendered = await renderAfterRelease(ctx, release, entry, model, shown === "all" ? undefined : new Set(shown));
      if (!rendered || rendered.item.slug !== slug) continue;
      const item = JSON.stringify(rendered.item);
      return { body: `{"data":${selection ? selectItem(item, new Set(selection)) : item}}`, tags: [], cacheable: false };
    }
  }
  throw publicNotFound();
}
