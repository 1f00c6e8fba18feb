import { isoAt } from "../../clock";
import type { EntryRow } from "../../db/database";
import { newId } from "../../ids";
import type { Model } from "../../repositories/model-repository";
import { entryRepository } from "../../repositories/entry-repository";
import type { LifecycleContext } from "./context";
import { entryView, withWarnings, type EntryView } from "./entry-view";
import type { PreparedFields } from "./prepare-fields";
import { newVersionStatements } from "./version-statements";

/**
 * Statements for a new language instance with its first draft version, owned by the actor:
 * a new item (its own translation group) or a new language of an existing one.
 */
export async function newInstance(
  ctx: LifecycleContext,
  model: Model,
  place: { lang: string; slug: string | null; group?: { primary_instance_id: string; translation_group_id: string } },
  prepared: PreparedFields,
): Promise<{ row: EntryRow; answer: EntryView; statements: Awaited<ReturnType<typeof newVersionStatements>>["statements"] }> {
  const at = isoAt(ctx.clock.now());
  const instanceId = newId("ent");
  const version = await newVersionStatements(ctx, model, instanceId, prepared, place.slug, at, { freshInstance: true });
  const row: EntryRow = {
    instance_id: instanceId,
    site_id: ctx.site.id,
    model_id: model.id,
    primary_instance_id: place.group?.primary_instance_id ?? instanceId,
    translation_group_id: place.group?.translation_group_id ?? newId("grp"),
    lang: place.lang,
    slug: place.slug,
    label: prepared.label,
    current_version_id: version.versionId,
    published_version_id: null,
    published_at: null,
    first_published_at: null,
    workflow_state: "draft",
    workflow_revision: 0,
    owner_id: ctx.actor.id,
    assignee_ids: "[]",
    trashed_at: null,
    created_at: at,
    updated_at: at,
  };
  const { site_id: _site, ...insertable } = row;
  return {
    row,
    answer: withWarnings(entryView(row, model, { fields: JSON.stringify(prepared.stored) }, ctx.actor), prepared.warnings),
    statements: [entryRepository(ctx.db, ctx.scope).insert(insertable), ...version.statements],
  };
}
