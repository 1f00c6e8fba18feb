import { codePointLength } from "../../content/plain-text";
import { decide, hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { guard } from "../../db/batch";
import type { ModelProposalsTable } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import {
  applyProposedDefinition,
  checkProposedNewModel,
  createModelFromDefinition,
  proposedModelChanges,
  type BlockedChange,
  type ModelWriteAnswer,
  type ProposedDefinition,
} from "../models/apply-model";
import type { ProposalSource } from "./entry-proposals";

/** Limits of a model proposal (spec: Limits, Model proposal). */
export const MODEL_PROPOSAL_LIMITS = { fields: 200, noteChars: 500 } as const;

export type ModelProposalState = "open" | "applied" | "dismissed";
export type ModelProposalMode = "create" | "update";
export type ModelProposalRow = Omit<ModelProposalsTable, "site_id">;

/** A model proposal as every surface answers it; `stale` when the model moved past `base_updated_at`. */
export interface ModelProposalView {
  id: string;
  mode: ModelProposalMode;
  model_id: string | null;
  base_updated_at: string | null;
  definition: ProposedDefinition;
  note: string | null;
  source: ProposalSource;
  state: ModelProposalState;
  changes: BlockedChange[];
  stale: boolean;
  revision: number;
  created_by: string;
  decided_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Whether an update proposal's model changed (or went away) since the proposal was made. */
export function isStale(row: Pick<ModelProposalRow, "mode" | "base_updated_at">, model: Pick<Model, "updated_at"> | undefined): boolean {
  if (row.mode !== "update") return false;
  return model === undefined || model.updated_at !== row.base_updated_at;
}

export function modelProposalView(row: ModelProposalRow, stale: boolean): ModelProposalView {
  return {
    id: row.id,
    mode: row.mode,
    model_id: row.model_id,
    base_updated_at: row.base_updated_at,
    definition: JSON.parse(row.definition) as ProposedDefinition,
    note: row.note,
    source: JSON.parse(row.source) as ProposalSource,
    state: row.state,
    changes: JSON.parse(row.changes) as BlockedChange[],
    stale,
    revision: row.revision,
    created_by: row.created_by,
    decided_by: row.decided_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function findModelProposal(ctx: Pick<LifecycleContext, "db" | "site">, id: string): Promise<ModelProposalRow | undefined> {
  return ctx.db
    .selectFrom("model_proposals")
    .select(["id", "mode", "model_id", "base_updated_at", "definition", "note", "source", "state", "changes", "revision", "created_by", "decided_by", "created_at", "updated_at"])
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", id)
    .executeTakeFirst();
}

export interface CreateModelProposalInput {
  mode: ModelProposalMode;
  model_id?: string;
  base_updated_at?: string;
  definition: ProposedDefinition;
  note?: string;
  source: ProposalSource;
}

function needApply(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "model:apply")) throw new AppError("missing_permission", "Model proposals need model:apply.");
}

/**
 * Records an open model proposal; no model changes. An update proposal is made over the model's
 * `updated_at` as read (moved since → 409 model_changed with current_updated_at). Content-breaking
 * changes are permitted here and listed in `changes`.
 */
export async function createModelProposal(ctx: LifecycleContext, input: CreateModelProposalInput): Promise<WritePlan<ModelProposalView>> {
  needApply(ctx);
  if (input.definition.fields.length > MODEL_PROPOSAL_LIMITS.fields) throw new AppError("invalid_request", `A model proposal holds at most ${MODEL_PROPOSAL_LIMITS.fields} fields.`);
  if (input.note !== undefined && codePointLength(input.note) > MODEL_PROPOSAL_LIMITS.noteChars) throw new AppError("invalid_request", `A note holds at most ${MODEL_PROPOSAL_LIMITS.noteChars} characters.`);
  let changes: BlockedChange[] = [];
  let modelId: string | null = null;
  let base: string | null = null;
  if (input.mode === "update") {
    if (input.model_id === undefined || input.base_updated_at === undefined) {
      throw new AppError("invalid_request", "An update proposal names model_id and base_updated_at.", { parameter: input.model_id === undefined ? "model_id" : "base_updated_at" });
    }
    const model = await modelRepository(ctx.db, ctx.scope).findById(input.model_id);
    if (!model || !decide(ctx.actor.permissions, { operation: "read", modelId: model.id }).allowed) throw new AppError("not_found", "No such model.");
    if (model.updated_at !== input.base_updated_at) {
      throw new AppError("model_changed", "The model changed since it was read; read it again.", { current_revision: model.revision, current_updated_at: model.updated_at });
    }
    changes = await proposedModelChanges(ctx, model, input.definition);
    modelId = model.id;
    base = model.updated_at;
  } else {
    if (input.model_id !== undefined || input.base_updated_at !== undefined) {
      throw new AppError("invalid_request", "A create proposal names no model_id or base_updated_at.", { parameter: input.model_id !== undefined ? "model_id" : "base_updated_at" });
    }
    await checkProposedNewModel(ctx, input.definition);
  }
  const at = isoAt(ctx.clock.now());
  const row: ModelProposalRow = {
    id: newId("mpr"),
    mode: input.mode,
    model_id: modelId,
    base_updated_at: base,
    definition: JSON.stringify(input.definition),
    note: input.note ?? null,
    source: JSON.stringify(input.source),
    state: "open",
    changes: JSON.stringify(changes),
    revision: 0,
    created_by: ctx.actor.id,
    decided_by: null,
    created_at: at,
    updated_at: at,
  };
  return {
    statements: [ctx.db.insertInto("model_proposals").values({ ...row, site_id: ctx.site.id }).compile()],
    answer: modelProposalView(row, false),
    events: [{ name: "model_proposal.created", payload: { proposal_id: row.id, mode: row.mode, model_id: modelId } }],
    purgeTags: [],
    audit: { action: "model_proposal.create", targetKind: "model_proposal", targetId: row.id, details: { mode: row.mode, model_id: modelId, changes } },
  };
}

/**
 * The proposal with its model, refused as not_found when it changes a model the actor may not read
 * — asked before its state is told (authorise first, then reveal), so a real proposal id on an
 * unreadable model answers exactly like a made-up one.
 */
async function readableProposal(ctx: LifecycleContext, id: string): Promise<{ row: ModelProposalRow; model: Model | undefined }> {
  const row = await findModelProposal(ctx, id);
  if (!row) throw new AppError("not_found", "No such model proposal.");
  const model = row.model_id ? await modelRepository(ctx.db, ctx.scope).findById(row.model_id) : undefined;
  if (model && !decide(ctx.actor.permissions, { operation: "read", modelId: model.id }).allowed) throw new AppError("not_found", "No such model proposal.");
  return { row, model };
}

function requireOpen(row: ModelProposalRow): void {
  if (row.state !== "open") throw new AppError("schema_proposal_stale", `The model proposal is already ${row.state}.`, { state: row.state });
}

const stillOpen = (ctx: LifecycleContext, row: ModelProposalRow) =>
  guard(ctx.db, "schema_proposal_stale", "EXISTS (SELECT 1 FROM model_proposals WHERE id = ? AND state = 'open' AND revision = ?)", [row.id, row.revision]);

function decideStatement(ctx: LifecycleContext, row: ModelProposalRow, state: ModelProposalState, at: string) {
  return ctx.db
    .updateTable("model_proposals")
    .set({ state, revision: row.revision + 1, decided_by: ctx.actor.id, updated_at: at })
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", row.id)
    .compile();
}

const decided = (ctx: LifecycleContext, row: ModelProposalRow, state: ModelProposalState, at: string, stale: boolean): ModelProposalView =>
  modelProposalView({ ...row, state, revision: row.revision + 1, decided_by: ctx.actor.id, updated_at: at }, stale);

/**
 * Applies a model proposal as a normal model apply by the applying person, in one write with the
 * proposal's new state. The model changed since the proposal → 409 schema_proposal_stale, nothing
 * written; a change unsafe for content → the apply's own 409 model_change_blocked.
 */
export async function applyModelProposal(ctx: LifecycleContext, input: { proposal_id: string }): Promise<WritePlan<{ proposal: ModelProposalView; model: ModelWriteAnswer }>> {
  // Authorise first, then reveal: model:apply and the model's read are asked before the proposal's
  // state or the model's current time are told.
  needApply(ctx);
  const { row, model } = await readableProposal(ctx, input.proposal_id);
  requireOpen(row);
  const definition = JSON.parse(row.definition) as ProposedDefinition;
  let plan: WritePlan<ModelWriteAnswer>;
  if (row.mode === "update") {
    if (isStale(row, model) || !model) {
      throw new AppError("schema_proposal_stale", "The model changed since this proposal was made; only dismiss is possible.", {
        base_updated_at: row.base_updated_at,
        current_updated_at: model?.updated_at ?? null,
      });
    }
    plan = await applyProposedDefinition(ctx, { model_id: model.id, expected_revision: model.revision, definition });
  } else {
    plan = await createModelFromDefinition(ctx, { definition: { model: definition.model, fields: definition.fields } });
  }
  const at = isoAt(ctx.clock.now());
  return {
    statements: [stillOpen(ctx, row), ...plan.statements, decideStatement(ctx, row, "applied", at)],
    answer: { proposal: decided(ctx, row, "applied", at, false), model: plan.answer },
    events: [...plan.events, { name: "model_proposal.applied", payload: { proposal_id: row.id, model_id: plan.answer.model_id } }],
    purgeTags: plan.purgeTags,
    audit: { ...plan.audit, details: { ...(plan.audit.details ?? {}), proposal_id: row.id } },
  };
}

/** Dismisses an open model proposal (stale or not); no model changes. The person needs model:apply. */
export async function dismissModelProposal(ctx: LifecycleContext, input: { proposal_id: string }): Promise<WritePlan<ModelProposalView>> {
  needApply(ctx);
  const { row, model } = await readableProposal(ctx, input.proposal_id);
  requireOpen(row);
  const at = isoAt(ctx.clock.now());
  return {
    statements: [stillOpen(ctx, row), decideStatement(ctx, row, "dismissed", at)],
    answer: decided(ctx, row, "dismissed", at, isStale(row, model)),
    events: [{ name: "model_proposal.dismissed", payload: { proposal_id: row.id, model_id: row.model_id } }],
    purgeTags: [],
    audit: { action: "model_proposal.dismiss", targetKind: "model_proposal", targetId: row.id, details: { mode: row.mode, model_id: row.model_id } },
  };
}
