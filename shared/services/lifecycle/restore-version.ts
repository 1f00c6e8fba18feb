import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import { hasSystemPermission } from "../../auth/permissions";
import type { FieldValue } from "../../../schema/model-definition";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import { entryView, type EntryView } from "./entry-view";
import { loadEntry, requireNotTrashed } from "./load";
import { prepareFields } from "./prepare-fields";
import { newVersionStatements } from "./version-statements";
import { claimStatements, claimsOf, requireClaimsFree } from "./unique-values";

export interface RestoreVersionInput {
  instance_id: string;
  version_id: string;
  expected_version_id?: string;
}

/**
 * Makes an old version the draft again by saving a copy of it as a new version. The permissions
 * (restore and update on the entry, `content:restore`) are asked before the version is looked up
 * or compared; the field limits once the changed fields are known.
 */
export async function restoreVersion(ctx: LifecycleContext, input: RestoreVersionInput): Promise<WritePlan<EntryView>> {
  const { entry, model, version: current } = await loadEntry(ctx, input.instance_id);
  const asked = { modelId: model.id, lang: entry.lang, ownerId: entry.owner_id, access: "write" as const };
  authorize(ctx.actor, { operation: "restore", ...asked });
  authorize(ctx.actor, { operation: "update", ...asked });
  if (!hasSystemPermission(ctx.actor.permissions, "content:restore")) {
    throw new AppError("missing_permission", "Restoring a version needs content:restore.");
  }
  requireNotTrashed(entry);
  const old = await entryRepository(ctx.db, ctx.scope).findVersion(input.version_id);
  if (!old || old.instance_id !== entry.instance_id) throw new AppError("not_found", "No such version of this entry.");
  if (input.expected_version_id !== undefined && input.expected_version_id !== entry.current_version_id) {
    throw new AppError("version_conflict", "The entry was saved since you read it.", { current_version_id: entry.current_version_id });
  }
  const before = current ? (JSON.parse(current.fields) as Record<string, FieldValue>) : {};
  const after = JSON.parse(old.fields) as Record<string, FieldValue>;
  // Only fields whose value the restore changes count as written (field limits apply to them).
  const changed = model.fields.filter((f) => JSON.stringify(before[f.id] ?? null) !== JSON.stringify(after[f.id] ?? null));
  const input_ = Object.fromEntries(changed.map((f) => [f.key, after[f.id] ?? null]));
  const prepared = await prepareFields(ctx, model, before, input_, old.slug, { instance_id: entry.instance_id, group_id: entry.translation_group_id, lang: entry.lang });
  authorize(ctx.actor, { operation: "restore", ...asked, fieldIds: prepared.written });
  authorize(ctx.actor, { operation: "update", ...asked, fieldIds: prepared.written });

  const claims = claimsOf(model, entry.lang, prepared.stored);
  await requireClaimsFree(ctx, model, entry.translation_group_id, claims);

  const at = isoAt(ctx.clock.now());
  const next = await newVersionStatements(ctx, model, entry.instance_id, prepared, entry.slug, at, { restoredFrom: old.id });
  const updated = { ...entry, current_version_id: next.versionId, label: prepared.label ?? entry.label, updated_at: at };
  return {
    statements: [
      guard(ctx.db, "version_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND current_version_id IS ?)", [entry.instance_id, entry.current_version_id]),
      ...next.statements,
      ctx.db.updateTable("entries").set({ current_version_id: next.versionId, label: updated.label, updated_at: at }).where("site_id", "=", ctx.site.id).where("instance_id", "=", entry.instance_id).compile(),
      ...claimStatements(ctx, model, entry, claims),
    ],
    answer: entryView(updated, model, { fields: JSON.stringify(prepared.stored) }, ctx.actor),
    events: [{ name: "entry.version_restored", payload: { instance_id: entry.instance_id, model_id: model.id, lang: entry.lang, version_id: next.versionId, restored_from: old.id } }],
    purgeTags: [],
    audit: { action: "entry.restore_version", targetKind: "entry", targetId: entry.instance_id, details: { restored_from: old.id } },
  };
}
