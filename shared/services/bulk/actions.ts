import { AppError } from "../../errors";
import type { EntryRow } from "../../db/database";
import { findMove } from "../../content/workflow";
import { entryRepository } from "../../repositories/entry-repository";
import { loadEntry, mayRead, requireNotTrashed } from "../lifecycle/load";
import { moveEntry, publishEntry, unpublishEntry } from "../lifecycle/transitions";
import { restoreEntry, trashEntry } from "../lifecycle/trash";
import { saveDraft } from "../lifecycle/save-draft";
import { assignEntry } from "../proposals/entry-proposals";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import type { PolicyResult } from "../plugins/policies";

/** Spec 3, Limits: "Bulk ids: 25". */
export const BULK_MAX_IDS = 25;
/** Spec 3, Bulk actions: "`relate` adds or removes at most 10 related entries". */
export const BULK_RELATE_MAX_TARGETS = 10;

/**
 * One write of a bulk action on one id: the ordinary single-entry builder with its input, so every
 * rule of the single route (authorisation, validation, workflow, unique claims, the lease guard)
 * holds for each id exactly as it would alone. `command` and `input` are that single route's
 * command (objects/site/command-registry.ts) and input: the content policies are asked about the
 * step exactly as they would be about the single write (docs/plugin-policies.md, "Bulk actions"),
 * and `build` writes the input they answered (a transform changes `fields`).
 */
export interface BulkStep {
  instance_id: string;
  lang: string;
  command: string;
  input: Record<string, unknown>;
  build: (ctx: LifecycleContext, input: Record<string, unknown>) => Promise<WritePlan<unknown>>;
}

/** What a bulk action asks, beside the ids (`to` for a move, assignees, the relation change). */
export interface BulkInput {
  ids: string[];
  to?: string;
  assignee_ids?: string[];
  field?: string;
  add?: string[];
  remove?: string[];
}

/** The steps one id expands to (every language for publish and unpublish), or a refusal thrown. */
export type BulkExpansion = (ctx: LifecycleContext, id: string, input: BulkInput) => Promise<BulkStep[]>;

/** The languages of the item `id` names, outside Trash; the named one refused first if it is in Trash. */
async function itemLanguages(ctx: LifecycleContext, id: string): Promise<EntryRow[]> {
  const { entry } = await loadEntry(ctx, id);
  requireNotTrashed(entry);
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(entry.translation_group_id);
  // The named language first: a refusal names it before the others.
  const languages = [entry, ...group.filter((e) => e.instance_id !== entry.instance_id && e.trashed_at === null)];
  // Spec 3, locale-level authorization: touching a language outside the role is refused whole.
  const hidden = languages.filter((e) => !mayRead(ctx, e.model_id, e.lang));
  if (hidden.length > 0) throw new AppError("locale_denied", "The item has languages your role may not touch; publish or unpublish the others one by one.");
  return languages;
}

const step = (e: { instance_id: string; lang: string }, command: string, input: Record<string, unknown>, build: BulkStep["build"]): BulkStep => ({
  instance_id: e.instance_id,
  lang: e.lang,
  command,
  input,
  build,
});

/**
 * Bulk publish: every language of the item whose draft the workflow offers to publish (spec 3,
 * "bulk publish or unpublish touches all languages"). A language already serving its draft is left
 * as it is; an item with nothing to publish is refused like the single route (`transition_unavailable`).
 */
const publish: BulkExpansion = async (ctx, id) => {
  const steps = (await itemLanguages(ctx, id))
    .filter((e) => findMove(e, "published")?.kind === "publish")
    .map((e) => step(e, "publish", { instance_id: e.instance_id }, (c) => publishEntry(c, { instance_id: e.instance_id })));
  if (steps.length === 0) await publishEntry(ctx, { instance_id: id }); // authorises first, then says why
  return steps;
};

/** Bulk unpublish: every published language of the item. */
const unpublish: BulkExpansion = async (ctx, id) => {
  const steps = (await itemLanguages(ctx, id))
    .filter((e) => e.published_version_id !== null)
    .map((e) => step(e, "unpublish", { instance_id: e.instance_id }, (c) => unpublishEntry(c, { instance_id: e.instance_id })));
  if (steps.length === 0) await unpublishEntry(ctx, { instance_id: id });
  return steps;
};

/** Bulk Trash and restore: the whole item, as the single routes do without `language_only`. */
const trash: BulkExpansion = async (ctx, id) => {
  const { entry } = await loadEntry(ctx, id);
  return [step(entry, "trash", { instance_id: id }, (c) => trashEntry(c, { instance_id: id }))];
};
const restore: BulkExpansion = async (ctx, id) => {
  const { entry } = await loadEntry(ctx, id);
  return [step(entry, "restore", { instance_id: id }, (c) => restoreEntry(c, { instance_id: id }))];
};

/** Bulk workflow move: the language each id names (each language has its own workflow step). */
const move: BulkExpansion = async (ctx, id, input) => {
  const { entry } = await loadEntry(ctx, id);
  const to = input.to ?? "";
  return [step(entry, "move", { instance_id: id, to }, (c) => moveEntry(c, { instance_id: id, to }))];
};

/** Bulk assignment: the language each id names gets the same assignees. */
const assign: BulkExpansion = async (ctx, id, input) => {
  const { entry } = await loadEntry(ctx, id);
  const assignees = input.assignee_ids ?? [];
  return [step(entry, "assignEntry", { instance_id: id, assignee_ids: assignees }, (c) => assignEntry(c, { instance_id: id, assignee_ids: assignees }))];
};

/**
 * Bulk relate: a new draft of the language each id names, connecting `add` and disconnecting
 * `remove` on one relation field (the save's `{ connect, disconnect }`, so every relation rule of
 * a save holds). The field must be a relation field of the entry's model.
 */
const relate: BulkExpansion = async (ctx, id, input) => {
  const { entry, model } = await loadEntry(ctx, id);
  const field = model.fields.find((f) => f.key === input.field);
  if (!field || field.type !== "relation") {
    throw new AppError("invalid_request", `The model "${model.slug}" has no relation field "${input.field ?? ""}".`, { field: input.field ?? null });
  }
  const change = { ...(input.add?.length ? { connect: input.add } : {}), ...(input.remove?.length ? { disconnect: input.remove } : {}) };
  // A single save of this draft would send these fields to the policies (and may get them transformed).
  const fields = { [field.key]: change };
  return [
    step(entry, "saveDraft", { instance_id: id, fields }, async (c, asked) => {
      // Read again at build time: an earlier step of the same request may have saved this entry.
      const { entry: now } = await loadEntry(c, id);
      return saveDraft(c, { instance_id: id, expected_version_id: now.current_version_id ?? "", fields: (asked.fields as Record<string, unknown> | undefined) ?? fields });
    }),
  ];
};

export const BULK_ACTIONS = { publish, unpublish, trash, restore, move, assign, relate } as const satisfies Record<string, BulkExpansion>;
export type BulkAction = keyof typeof BULK_ACTIONS;

/** One id's outcome, in input order: its own status, and the refusal's code when it was refused. */
export interface BulkResult {
  id: string;
  status: number;
  /** The entry languages this id changed (for publish and unpublish, possibly several). */
  changed: { instance_id: string; lang: string }[];
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
  /** The content policies' results for this id's writes (transformed, or advisory and unavailable), as a single write answers them. */
  policy_results?: PolicyResult[];
}

export interface BulkAnswer {
  action: BulkAction;
  results: BulkResult[];
}
