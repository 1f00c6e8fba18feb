import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { commit } from "../../db/batch";
import { newId } from "../../ids";
import { sha256Hex } from "../../crypto/digest";
import { AppError } from "../../errors";
import type { LifecycleContext, WritePlan } from "./context";

/** The idempotency record that rides in the same batch as the write (rule 3). */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  fingerprint: string;
  status: number;
  retentionMs: number;
}

export interface CommittedEvent {
  id: string;
  name: string;
}

export interface Committed<T> {
  answer: T;
  events: CommittedEvent[];
  purgeTags: string[];
}

/** Digest every value of an audit record so the log proves what changed without holding content. */
async function digestValues(details: Record<string, unknown>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) out[key] = await sha256Hex(JSON.stringify(value) ?? "null");
  return out;
}

/** A plan's statements with its outbox events and audit record (and idempotency answer), as one batch commits them. */
export interface PlannedBatch<T> {
  statements: CompiledQuery[];
  committed: Committed<T>;
}

/** The statements that commit a plan: its own, its outbox events, its audit record, then the idempotency answer. */
export async function planStatements<T>(ctx: LifecycleContext, plan: WritePlan<T>, idempotency?: IdempotencyRecord): Promise<PlannedBatch<T>> {
  const now = ctx.clock.now();
  const at = isoAt(now);
  const siteId = ctx.site.id;
  const statements: CompiledQuery[] = [...plan.statements];
  const events = plan.events.map((e) => ({ id: newId("evt"), ...e }));
  for (const event of events) {
    statements.push(
      ctx.db
        .insertInto("outbox_events")
        .values({
          id: event.id,
          site_id: siteId,
          name: event.name,
          payload: JSON.stringify({ ...event.payload, site_id: siteId, occurred_at: at }),
          created_at: at,
          enqueued_at: null,
        })
        .compile(),
    );
  }
  statements.push(
    ctx.db
      .insertInto("audit_log")
      .values({
        id: newId("aud"),
        site_id: siteId,
        at,
        actor_kind: ctx.actor.kind,
        actor_id: ctx.actor.id,
        credential_id: ctx.actor.credentialId ?? ctx.actor.installationId ?? null,
        action: plan.audit.action,
        target_kind: plan.audit.targetKind,
        target_id: plan.audit.targetId,
        details: JSON.stringify(await digestValues(plan.audit.details ?? {})),
      })
      .compile(),
  );
  // The answer is read once here (a plan's answer may be a getter); commitPlan reads it again after
  // its commit, so a fault there comes after the batch, as test/objects/write-runner-fault.test.ts needs.
  const answer = plan.answer;
  if (idempotency) statements.push(idempotencyStatement(ctx, idempotency, answer));
  return { statements, committed: { answer, events: events.map(({ id, name }) => ({ id, name })), purgeTags: plan.purgeTags } };
}

/** Commits a plan with its audit record, outbox events and optional idempotency answer in one batch. */
export async function commitPlan<T>(
  ctx: LifecycleContext,
  plan: WritePlan<T>,
  idempotency?: IdempotencyRecord,
): Promise<Committed<T>> {
  const planned = await planStatements(ctx, plan, idempotency);
  await commit(ctx.d1, planned.statements).catch(async (error: unknown) => {
    // A check the plan left to the batch: its refusal gets the details a read would have given.
    throw error instanceof AppError && plan.explain ? await plan.explain(error) : error;
  });
  return { ...planned.committed, answer: plan.answer };
}

/** The row that lets a committed write answer a retry of its key from what it wrote (spec 2, idempotency rule 3). */
export function idempotencyStatement(ctx: LifecycleContext, idempotency: IdempotencyRecord, answer: unknown): CompiledQuery {
  const now = ctx.clock.now();
  const at = isoAt(now);
  const row = { fingerprint: idempotency.fingerprint, status: idempotency.status, body: JSON.stringify(answer), created_at: at, expires_at: isoAt(now + idempotency.retentionMs) };
  return ctx.db
    .insertInto("idempotency_results")
    .values({ site_id: ctx.site.id, scope: idempotency.scope, key: idempotency.key, ...row })
    .onConflict((oc) => oc.columns(["site_id", "scope", "key"]).doUpdateSet(row))
    .compile();
}
