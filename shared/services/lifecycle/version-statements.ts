import type { CompiledQuery } from "kysely";
import { mediaReferences } from "../../content/media-references";
import { chunk, rowsPerInsert } from "../../db/chunks";
import { newId } from "../../ids";
import { entryRepository } from "../../repositories/entry-repository";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import type { PreparedFields } from "./prepare-fields";
import { relationHeadStatements } from "../relations/relation-heads";

/**
 * Statements writing one new immutable version, its ordered relation links and its media usage rows
 * (media field values and rich-text images; docs/media.md, "Usage"), all in the write's batch.
 * `freshInstance`: the instance is created by this write (its id new), so it has no head links yet.
 */
export async function newVersionStatements(
  ctx: LifecycleContext,
  model: Model,
  instanceId: string,
  prepared: PreparedFields,
  slug: string | null,
  at: string,
  options: { restoredFrom?: string; freshInstance?: boolean } = {},
): Promise<{ versionId: string; statements: CompiledQuery[] }> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const versionId = newId("ver");
  // The relation rules' rewrites of other items and guards go first: a guard then sees every
  // other item as committed, and never this version's own links.
  const statements: CompiledQuery[] = [
    ...prepared.relationStatements,
    entries.insertVersion({
      id: versionId,
      instance_id: instanceId,
      slug,
      label: prepared.label,
      fields: JSON.stringify(prepared.stored),
      model_revision: model.revision,
      created_by: ctx.actor.id,
      // "Updated by" names the door as well as the person (docs/admin-ui-lists.md).
      created_via: ctx.writtenVia ?? ctx.actor.credentialId ?? ctx.actor.installationId ?? null,
      restored_from: options.restoredFrom ?? null,
      created_at: at,
    }),
  ];
  const rows = prepared.links.map((link) => ({ site_id: ctx.site.id, version_id: versionId, source_instance_id: instanceId, ...link }));
  for (const part of chunk(rows, rowsPerInsert(7))) {
    statements.push(ctx.db.insertInto("relation_links").values(part).compile());
  }
  statements.push(...relationHeadStatements(ctx, instanceId, prepared.links, options.freshInstance));
  const uses = mediaReferences(model.fields, prepared.stored).map((ref) => ({ site_id: ctx.site.id, version_id: versionId, instance_id: instanceId, ...ref }));
  for (const part of chunk(uses, rowsPerInsert(6))) {
    statements.push(ctx.db.insertInto("media_usage").values(part).compile());
  }
  return { versionId, statements };
}
