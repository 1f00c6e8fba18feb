import { codePointLength } from "../../content/plain-text";
import * as v from "valibot";
import type { Caller } from "../../auth/caller";
import { decide, LANGUAGE_ACTION_FOR_OPERATION, readableFieldIds } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { canonicalFieldValues, toKeyedValues } from "../../content/validate-fields";
import { guard } from "../../db/batch";
import type { EntryProposalsTable, EntryRow } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { PermissionSet } from "../../../schema/permissions";
import { entryRepository } from "../../repositories/entry-repository";
import type { Model } from "../../repositories/model-repository";
import { authorize } from "../lifecycle/authorize";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import type { EntryView } from "../lifecycle/entry-view";
import { loadEntry, requireNotTrashed } from "../lifecycle/load";
import { saveDraft } from "../lifecycle/save-draft";

/** Limits of an entry field proposal (spec: Limits, Entry proposal). */
export const PROPOSAL_LIMITS = { fields: 50, valueBytes: 64 * 1024, noteChars: 2000 } as const;

export type ProposalState = "open" | "applied" | "rejected";

/**
 * Who a proposal comes from: `management` a credential (`dwm_`, or an OAuth connection) by its id
 * and name; `person` a person in their own admin session by their id and name; `plugin`, `ai`.
 */
export interface ProposalSource {
  kind: "management" | "person" | "plugin" | "ai";
  id: string;
  label: string;
  requested_by?: string;
}

/**
 * Who a proposal comes from, as recorded in its `source`: a credential by its id and name (an
 * OAuth connection too: it acts like a credential its person created); a person's own session as
 * the person — no credential asked, so none is named (docs/management-api.md, "Who asks").
 */
export function proposalSourceOf(caller: Caller): ProposalSource {
  if (caller.kind === "session") return { kind: "person", id: caller.person.id, label: caller.person.name };
  return { kind: "management", id: caller.credential.id, label: caller.credential.name };
}

/** An entry field proposal as every surface answers it. */
export interface ProposalView {
  id: string;
  instance_id: string;
  base_version_id: string;
  fields: Record<string, unknown>;
  original_fields: Record<string, unknown>;
  note: string | null;
  source: ProposalSource;
  state: ProposalState;
  revision: number;
  created_by: string;
  decided_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A stored proposal as the services handle it (the table row without its site). */
export type ProposalRow = Omit<EntryProposalsTable, "site_id">;

export function proposalView(row: ProposalRow): ProposalView {
  return {
    id: row.id,
    instance_id: row.instance_id,
    base_version_id: row.base_version_id,
    fields: JSON.parse(row.fields) as Record<string, unknown>,
    original_fields: JSON.parse(row.original_fields) as Record<string, unknown>,
    note: row.note,
    source: JSON.parse(row.source) as ProposalSource,
    state: row.state,
    revision: row.revision,
    created_by: row.created_by,
    decided_by: row.decided_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * A proposal as a reader sees it: proposed and original values of fields the reader's role may not
 * read are left out (spec: "original_fields holds old values the reader may read").
 */
export function readerProposalView(row: ProposalRow, permissions: PermissionSet, model: Pick<Model, "id" | "fields">): ProposalView {
  const view = proposalView(row);
  const readable = new Set(readableFieldIds(permissions, model.id, model.fields.map((f) => f.id)));
  const keys = new Set(model.fields.filter((f) => readable.has(f.id)).map((f) => f.key));
  const only = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([k]) => keys.has(k)));
  return { ...view, fields: only(view.fields), original_fields: only(view.original_fields) };
}

/** Bytes of the proposed values as JSON. */
export function proposalValueBytes(fields: Readonly<Record<string, unknown>>): number {
  return new TextEncoder().encode(JSON.stringify(fields)).byteLength;
}

export async function findProposal(ctx: LifecycleContext, id: string): Promise<ProposalRow | undefined> {
  return ctx.db.selectFrom("entry_proposals").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", id).executeTakeFirst();
}

export interface CreateProposalInput {
  instance_id: string;
  base_version_id: string;
  fields: Readonly<Record<string, unknown>>;
  note?: string;
  source: ProposalSource;
}

/** Records an open proposal; nothing about the entry changes. */
export async function createProposal(ctx: LifecycleContext, input: CreateProposalInput): Promise<WritePlan<ProposalView>> {
  const keys = Object.keys(input.fields);
  if (keys.length === 0) throw new AppError("invalid_request", "Propose at least one field.");
  if (keys.length > PROPOSAL_LIMITS.fields) throw new AppError("invalid_request", `A proposal holds at most ${PROPOSAL_LIMITS.fields} fields.`);
  if (proposalValueBytes(input.fields) > PROPOSAL_LIMITS.valueBytes) throw new AppError("invalid_request", "The proposed values are larger than 64 KiB.");
  if (input.note !== undefined && codePointLength(input.note) > PROPOSAL_LIMITS.noteChars) throw new AppError("invalid_request", `A note holds at most ${PROPOSAL_LIMITS.noteChars} characters.`);

  const { entry, model } = await loadEntry(ctx, input.instance_id);
  requireNotTrashed(entry);
  const unknown = keys.filter((k) => !model.fields.some((f) => f.key === k));
  if (unknown.length > 0) {
    throw new AppError("field_validation_failed", "Some fields do not exist on this model.", { issues: unknown.map((k) => ({ field: k, message: "No such field." })) });
  }
  const unsupported = model.fields.filter((f) => keys.includes(f.key) && (f.type === "relation" || f.type === "media")).map((f) => f.key);
  if (unsupported.length > 0) {
    throw new AppError("proposal_field_unsupported", "Relation and media fields cannot be proposed.", { fields: unsupported });
  }
  // The proposer's language and field write limits apply as to a save (spec: writes outside them
  // return field_denied or locale_denied); proposing itself needs only read on the model.
  const updateLanguages = ctx.actor.permissions.limits?.languages?.[LANGUAGE_ACTION_FOR_OPERATION.update];
  if (updateLanguages !== undefined && !updateLanguages.includes(entry.lang)) {
    throw new AppError("locale_denied", `Language "${entry.lang}" is not allowed for "update".`, { lang: entry.lang });
  }
  authorize(ctx.actor, { operation: "read", modelId: model.id, fieldIds: model.fields.filter((f) => keys.includes(f.key)).map((f) => f.id), access: "write" });
  const base = await entryRepository(ctx.db, ctx.scope).findVersion(input.base_version_id);
  if (!base || base.instance_id !== entry.instance_id) throw new AppError("not_found", "No such version of this entry.", { base_version_id: input.base_version_id });

  // Every old value is kept; each reader sees those its role may read (readerProposalView).
  const baseByKey = toKeyedValues(model.fields, JSON.parse(base.fields) as Record<string, unknown>);
  const original: Record<string, unknown> = {};
  for (const key of keys) if (key in baseByKey) original[key] = baseByKey[key];

  const at = isoAt(ctx.clock.now());
  const row: ProposalRow = {
    id: newId("prp"),
    instance_id: entry.instance_id,
    base_version_id: base.id,
    // Proposed rich text is stored canonical like a save's: proposals are shown to reviewers.
    fields: JSON.stringify(canonicalFieldValues(model.fields, input.fields)),
    original_fields: JSON.stringify(original),
    note: input.note ?? null,
    source: JSON.stringify(input.source),
    state: "open",
    revision: 0,
    created_by: ctx.actor.id,
    decided_by: null,
    created_at: at,
    updated_at: at,
  };
  return {
    statements: [ctx.db.insertInto("entry_proposals").values({ ...row, site_id: ctx.site.id }).compile()],
    answer: readerProposalView(row, ctx.actor.permissions, model),
    events: [{ name: "proposal.created", payload: { proposal_id: row.id, instance_id: entry.instance_id, model_id: model.id } }],
    purgeTags: [],
    // A proposal changes no entry: it is how others suggest while someone edits (no lease guards it).
    locks: [],
    audit: { action: "proposal.create", targetKind: "proposal", targetId: row.id, details: { instance_id: entry.instance_id, fields: input.fields } },
  };
}

/**
 * An open proposal the actor may decide: its entry must be readable (else "not found", like the
 * entry itself) and the actor must hold update on it, before its state or the entry's is revealed.
 */
async function openProposal(ctx: LifecycleContext, id: string): Promise<{ row: ProposalRow } & Awaited<ReturnType<typeof loadEntry>>> {
  const row = await findProposal(ctx, id);
  if (!row) throw new AppError("not_found", "No such proposal.");
  // An unreadable entry answers exactly like a made-up proposal id (not "No such entry.").
  const loaded = await loadEntry(ctx, row.instance_id).catch((thrown: unknown) => {
    if (thrown instanceof AppError && thrown.code === "not_found") throw new AppError("not_found", "No such proposal.");
    throw thrown;
  });
  authorize(ctx.actor, { operation: "update", modelId: loaded.model.id, lang: loaded.entry.lang, ownerId: loaded.entry.owner_id });
  if (row.state !== "open") throw new AppError("proposal_stale", `The proposal is already ${row.state}.`, { state: row.state });
  return { row, ...loaded };
}

function decideStatement(ctx: LifecycleContext, row: ProposalRow, state: ProposalState, at: string) {
  return ctx.db
    .updateTable("entry_proposals")
    .set({ state, revision: row.revision + 1, decided_by: ctx.actor.id, updated_at: at })
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", row.id)
    .compile();
}

function decided(ctx: LifecycleContext, row: ProposalRow, model: Model, state: ProposalState, at: string): ProposalView {
  return readerProposalView({ ...row, state, revision: row.revision + 1, decided_by: ctx.actor.id, updated_at: at }, ctx.actor.permissions, model);
}

const stillOpen = (ctx: LifecycleContext, row: ProposalRow) =>
  guard(ctx.db, "proposal_stale", "EXISTS (SELECT 1 FROM entry_proposals WHERE id = ? AND state = 'open' AND revision = ?)", [row.id, row.revision]);

/**
 * Applies a proposal as a normal save by the applying person (their permissions, ownership and
 * workflow): refused with proposal_stale, nothing written, when the entry moved past its base.
 */
export async function applyProposal(ctx: LifecycleContext, input: { proposal_id: string }): Promise<WritePlan<{ proposal: ProposalView; entry: EntryView }>> {
  const { row, entry, model } = await openProposal(ctx, input.proposal_id);
  if (entry.current_version_id !== row.base_version_id) {
    throw new AppError("proposal_stale", "The entry was saved since this proposal was made.", { current_version_id: entry.current_version_id, base_version_id: row.base_version_id });
  }
  const save = await saveDraft(ctx, { instance_id: row.instance_id, expected_version_id: row.base_version_id, fields: JSON.parse(row.fields) as Record<string, unknown> });
  const at = isoAt(ctx.clock.now());
  return {
    statements: [stillOpen(ctx, row), ...save.statements, decideStatement(ctx, row, "applied", at)],
    answer: { proposal: decided(ctx, row, model, "applied", at), entry: save.answer },
    events: [...save.events, { name: "proposal.applied", payload: { proposal_id: row.id, instance_id: row.instance_id, model_id: model.id } }],
    purgeTags: save.purgeTags,
    // A save of the proposal's entry language: its editing lease guards it like any save.
    locks: [row.instance_id],
    audit: { action: "proposal.apply", targetKind: "proposal", targetId: row.id, details: { instance_id: row.instance_id, ...(save.audit.details ?? {}) } },
  };
}

/** Rejects a proposal; the entry is left as is. The person needs update on the entry's model. */
export async function rejectProposal(ctx: LifecycleContext, input: { proposal_id: string }): Promise<WritePlan<ProposalView>> {
  const { row, model } = await openProposal(ctx, input.proposal_id);
  const at = isoAt(ctx.clock.now());
  return {
    statements: [stillOpen(ctx, row), decideStatement(ctx, row, "rejected", at)],
    answer: decided(ctx, row, model, "rejected", at),
    events: [{ name: "proposal.rejected", payload: { proposal_id: row.id, instance_id: row.instance_id, model_id: model.id } }],
    purgeTags: [],
    audit: { action: "proposal.reject", targetKind: "proposal", targetId: row.id, details: { instance_id: row.instance_id } },
  };
}

/** A person who could be named to act next on an entry of a model. */
export interface Assignable {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** Active members of the site whose role may update entries of the model in the language. */
export async function eligibleAssignees(ctx: LifecycleContext, model: Model, lang: string): Promise<Assignable[]> {
  const rows = await ctx.db
    .selectFrom("memberships")
    .innerJoin("persons", "persons.id", "memberships.person_id")
    .innerJoin("roles", (join) => join.onRef("roles.id", "=", "memberships.role_id").onRef("roles.site_id", "=", "memberships.site_id"))
    .select(["persons.id", "persons.name", "persons.email", "persons.active", "roles.slug as role", "roles.permissions"])
    .where("memberships.site_id", "=", ctx.site.id)
    .where("memberships.active", "=", 1)
    .orderBy("persons.name")
    .execute();
  return rows.flatMap((r) => {
    if (r.active !== 1) return [];
    const parsed = v.safeParse(PermissionSet, JSON.parse(r.permissions));
    if (!parsed.success) return [];
    const answer = decide(parsed.output, { operation: "update", modelId: model.id, lang });
    return answer.allowed ? [{ id: r.id, name: r.name, email: r.email, role: r.role }] : [];
  });
}

export interface AssignInput {
  instance_id: string;
  assignee_ids: string[];
  expected_workflow_revision?: number;
}

export interface AssignmentView {
  instance_id: string;
  assignee_ids: string[];
  workflow_revision: number;
}

function requireWorkflowRevision(entry: EntryRow, expected: number | undefined): void {
  if (expected !== undefined && entry.workflow_revision !== expected) {
    throw new AppError("workflow_conflict", "The entry moved through its workflow since you read it.", { current_workflow_revision: entry.workflow_revision });
  }
}

/** Names who acts next on an entry: each assignee must be able to update the model. */
export async function assignEntry(ctx: LifecycleContext, input: AssignInput): Promise<WritePlan<AssignmentView>> {
  const { entry, model } = await loadEntry(ctx, input.instance_id);
  authorize(ctx.actor, { operation: "update", modelId: model.id, lang: entry.lang });
  requireNotTrashed(entry);
  requireWorkflowRevision(entry, input.expected_workflow_revision);
  const ids = [...new Set(input.assignee_ids)];
  const eligible = new Set((await eligibleAssignees(ctx, model, entry.lang)).map((a) => a.id));
  const refused = ids.filter((id) => !eligible.has(id));
  if (refused.length > 0) {
    throw new AppError("assignee_not_eligible", "Some assignees hold no active membership whose role may update this model.", { ids: refused });
  }
  const at = isoAt(ctx.clock.now());
  return {
    statements: [
      guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND workflow_revision = ?)", [entry.instance_id, entry.workflow_revision]),
      ctx.db
        .updateTable("entries")
        .set({ assignee_ids: JSON.stringify(ids), updated_at: at })
        .where("site_id", "=", ctx.site.id)
        .where("instance_id", "=", entry.instance_id)
        .compile(),
    ],
    answer: { instance_id: entry.instance_id, assignee_ids: ids, workflow_revision: entry.workflow_revision },
    events: [{ name: "entry.assigned", payload: { instance_id: entry.instance_id, model_id: model.id, lang: entry.lang, assignee_ids: ids } }],
    purgeTags: [],
    audit: { action: "entry.assign", targetKind: "entry", targetId: entry.instance_id, details: { assignee_ids: ids } },
  };
}
