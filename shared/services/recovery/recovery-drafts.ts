import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import type { RecoveryDraftRow } from "../../db/database";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { loadEntry } from "../lifecycle/load";

/** Spec 3: a lost lease keeps the unsaved text in a personal recovery draft; kept this long (docs/recovery-drafts.md). */
export const RECOVERY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RecoveryDraftView {
  instance_id: string;
  lang: string;
  values: Record<string, unknown>;
  slug: string | null;
  base_version_id: string | null;
  reason: RecoveryDraftRow["reason"];
  saved_at: string;
  expires_at: string;
}

export function recoveryView(row: RecoveryDraftRow): RecoveryDraftView {
  return { instance_id: row.instance_id, lang: row.lang, values: JSON.parse(row.field_values) as Record<string, unknown>, slug: row.slug, base_version_id: row.base_version_id, reason: row.reason, saved_at: row.saved_at, expires_at: row.expires_at };
}

export interface KeepRecoveryInput {
  instance_id: string;
  values: Readonly<Record<string, unknown>>;
  slug?: string | null;
  base_version_id?: string | null;
  reason: RecoveryDraftRow["reason"];
}

/**
 * Keeps (replaces) the caller's recovery draft of one entry language — its person's, whatever the
 * surface: a credential's or a plugin's actor is the person it acts for. Needs read on the entry
 * (the text is the person's own; no lease guards it: it changes no entry). Expired drafts of the
 * site go in the same batch.
 */
export async function keepRecoveryDraft(ctx: LifecycleContext, input: KeepRecoveryInput): Promise<WritePlan<RecoveryDraftView>> {
  const { entry } = await loadEntry(ctx, input.instance_id);
  const now = ctx.clock.now();
  const row: RecoveryDraftRow = {
    site_id: ctx.site.id,
    person_id: ctx.actor.id,
    instance_id: entry.instance_id,
    lang: entry.lang,
    field_values: JSON.stringify(input.values),
    slug: input.slug ?? null,
    base_version_id: input.base_version_id ?? null,
    reason: input.reason,
    saved_at: isoAt(now),
    expires_at: isoAt(now + RECOVERY_DAYS * DAY_MS),
  };
  const { site_id: _s, person_id: _p, instance_id: _i, ...set } = row;
  return {
    statements: [
      ctx.db.deleteFrom("recovery_drafts").where("site_id", "=", ctx.site.id).where("expires_at", "<=", isoAt(now)).compile(),
      ctx.db.insertInto("recovery_drafts").values(row).onConflict((oc) => oc.columns(["site_id", "person_id", "instance_id"]).doUpdateSet(set)).compile(),
    ],
    answer: recoveryView(row),
    events: [],
    purgeTags: [],
    locks: [],
    audit: { action: "recovery_draft.keep", targetKind: "entry", targetId: entry.instance_id, details: { reason: input.reason } },
  };
}

/** The caller's own live recovery draft of an entry language; none (or another person's only): `not_found`. */
export async function readRecoveryDraft(ctx: LifecycleContext, instanceId: string): Promise<RecoveryDraftView> {
  const { entry } = await loadEntry(ctx, instanceId);
  const row = await ctx.db
    .selectFrom("recovery_drafts")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where("person_id", "=", ctx.actor.id)
    .where("instance_id", "=", entry.instance_id)
    .where("expires_at", ">", isoAt(ctx.clock.now()))
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", "You have no recovery draft of this entry language.");
  return recoveryView(row);
}

/** Drops the caller's recovery draft of an entry language (restored and saved, or discarded). */
export async function dropRecoveryDraft(ctx: LifecycleContext, input: { instance_id: string }): Promise<WritePlan<{ instance_id: string; deleted: true }>> {
  await readRecoveryDraft(ctx, input.instance_id);
  return {
    statements: [ctx.db.deleteFrom("recovery_drafts").where("site_id", "=", ctx.site.id).where("person_id", "=", ctx.actor.id).where("instance_id", "=", input.instance_id).compile()],
    answer: { instance_id: input.instance_id, deleted: true },
    events: [],
    purgeTags: [],
    locks: [],
    audit: { action: "recovery_draft.drop", targetKind: "entry", targetId: input.instance_id },
  };
}
