import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import type { FieldValue } from "../../../schema/model-definition";
import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import { entryView, withWarnings, type EntryView } from "./entry-view";
import { loadEntry, requireNotTrashed } from "./load";
import { prepareFields, writtenFieldIds } from "./prepare-fields";
import { requireFreeSlug, requireValidSlug } from "./slugs";
import { newVersionStatements } from "./version-statements";
import { claimStatements, claimsOf, requireClaimsFree } from "./unique-values";

export interface SaveDraftInput {
  instance_id: string;
  /** The version the caller edited; a save over a newer version is refused. */
  expected_version_id: string;
  /** Values by field key; keys not given keep their current value, null clears. */
  fields: Readonly<Record<string, unknown>>;
  slug?: string;
}

/**
 * Saves a new draft version. Refused with version_conflict when the draft moved on — only after
 * the update permission (owner, language, fields written) is granted: authorise first, then reveal.
 */
export async function saveDraft(ctx: LifecycleContext, input: SaveDraftInput): Promise<WritePlan<EntryView>> {
  const { entry, model, version } = await loadEntry(ctx, input.instance_id);
  authorize(ctx.actor, {
    operation: "update",
    modelId: model.id,
    lang: entry.lang,
    ownerId: entry.owner_id,
    fieldIds: writtenFieldIds(model, input.fields),
    access: "write",
  });
  requireNotTrashed(entry);
  if (entry.current_version_id !== input.expected_version_id) {
    throw new AppError("version_conflict", "The entry was saved since the version you edited.", {
      current_version_id: entry.current_version_id,
    });
  }
  const base = version ? (JSON.parse(version.fields) as Record<string, FieldValue>) : {};
  const slug = input.slug === undefined ? entry.slug : requireValidSlug(input.slug);
  const prepared = await prepareFields(ctx, model, base, input.fields, slug, { instance_id: entry.instance_id, group_id: entry.translation_group_id, lang: entry.lang });
  if (slug !== entry.slug) await requireFreeSlug(ctx, model.id, entry.lang, slug, entry.instance_id);
  const claims = claimsOf(model, entry.lang, prepared.stored);
  await requireClaimsFree(ctx, model, entry.translation_group_id, claims);

  const at = isoAt(ctx.clock.now());
  const next = await newVersionStatements(ctx, model, entry.instance_id, prepared, slug, at);
  const updated = { ...entry, current_version_id: next.versionId, slug, label: prepared.label, updated_at: at };
  return {
    statements: [
      // The FIFO write queue already serialises saves; the guard keeps the batch honest on its own.
      guard(ctx.db, "version_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND current_version_id IS ?)", [
        entry.instance_id,
        input.expected_version_id,
      ]),
      ...next.statements,
      ctx.db
        .updateTable("entries")
        .set({ current_version_id: next.versionId, slug, label: prepared.label, updated_at: at })
        .where("site_id", "=", ctx.site.id)
        .where("instance_id", "=", entry.instance_id)
        .compile(),
      ...claimStatements(ctx, model, entry, claims),
    ],
    answer: withWarnings(entryView(updated, model, { fields: JSON.stringify(prepared.stored) }, ctx.actor), prepared.warnings),
    events: [{ name: "entry.draft_saved", payload: { instance_id: entry.instance_id, model_id: model.id, lang: entry.lang, version_id: next.versionId } }],
    purgeTags: [],
    audit: { action: "entry.save", targetKind: "entry", targetId: entry.instance_id, details: { fields: prepared.stored, slug } },
  };
}
