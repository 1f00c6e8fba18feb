import type { Clock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { notePhase } from "../../shared/observability/write-phases";
import { commitPlan, planStatements, type Committed, type IdempotencyRecord, type LifecycleContext, type PlannedBatch, type WritePlan } from "../../shared/services/lifecycle";
import { preloadGroup } from "../../shared/services/lifecycle/preload";
import type { WriteRequest } from "./commands";
import type { StorageCleanup } from "./media-cleanup";

/**
 * Group commit (docs/write-fairness.md, "Group commit (session 17)"): when a plain create reaches
 * its turn in the site's write queue and more plain creates wait right behind it, their first
 * reads go in one D1 batch and their commits in another — each create's statements (entry,
 * version, audit row, outbox event, idempotency answer) still all in that one transaction — where
 * each alone paid two round trips into D1. Only what is already queued joins: a group never waits.
 *
 * What keeps each write's answer the one it would get alone, in arrival order:
 * - members are the seats whose tickets follow the head's with nothing queued between (FIFO);
 * - a member built after another's plan is pending may not read D1 (its reads would not see the
 *   pending writes): one that tries is cut, with every member after it, and runs at its own place;
 * - a refusal built without reads depends only on the site, the model, the actor and the input,
 *   which creates do not change: it stands, as alone;
 * - checks left to the batch (the slug's unique index, unique values' trigger, the single-entry
 *   guard) refuse the whole grouped batch: then each pending member runs again alone, in order,
 *   each with its own batch, and gets its true answer — a refused write never takes the others down.
 */

/** The most writes one group commits (the head included): a bounded batch, a bounded redo after a refusal. */
export const GROUP_AT_MOST = 12;

/** What a write's job answers when its first reads found that the site declares a content policy: its policy step runs first. */
export const POLICIES_FIRST = Symbol("policies first");

/** A committed write's turn in the queue. */
export interface Ran<T> {
  value: Committed<T>;
  status: number;
  cleanup?: StorageCleanup;
}

export type Turn<T> = Ran<T> | typeof POLICIES_FIRST;

/** How a member's turn ended when a group ran it: returned by its own job at its place. */
export type Settled = { ran: Turn<unknown> } | { threw: unknown };

/** A groupable write waiting at its place in the queue (taken on arrival: {@link Place.ticket}). */
export interface Seat {
  readonly ticket: number;
  readonly request: WriteRequest<object>;
  readonly build: (ctx: LifecycleContext, input: object) => Promise<WritePlan<unknown>>;
  readonly status: number;
  /** Whether its content-policy check is read at its turn (write-runner.ts `atTurn`). */
  readonly policiesUnread: boolean;
  /** Set by the group that ran it; unset: it runs at its own place. */
  settled?: Settled;
}

/** The groupable writes waiting in the queue, by ticket. */
export class GroupLane {
  readonly #seats = new Map<number, Seat>();

  join(seat: Seat): void {
    this.#seats.set(seat.ticket, seat);
  }

  drop(seat: Seat): void {
    if (this.#seats.get(seat.ticket) === seat) this.#seats.delete(seat.ticket);
  }

  /** The seats right behind `head` with nothing queued between, of the same site: at most {@link GROUP_AT_MOST} − 1. */
  behind(head: Seat): Seat[] {
    const riders: Seat[] = [];
    for (let ticket = head.ticket + 1; riders.length < GROUP_AT_MOST - 1; ticket++) {
      const seat = this.#seats.get(ticket);
      if (!seat || seat.settled || seat.request.siteId !== head.request.siteId) break;
      riders.push(seat);
    }
    return riders;
  }

  get size(): number {
    return this.#seats.size;
  }
}

/** What a group borrows from its write runner. */
export interface GroupSteps {
  env: Env;
  clock: Clock;
  checkLeases(request: WriteRequest<object>, plan: WritePlan<unknown>): void;
  /** A member's whole turn alone (its own first reads and batch), exactly as an ungrouped write runs. */
  alone(seat: Seat): Promise<Turn<unknown>>;
}

interface Pending {
  seat: Seat;
  ctx: LifecycleContext;
  plan: WritePlan<unknown>;
  status: number;
}

/**
 * Runs `seats` (the head first, then the riders in ticket order) as one group, settling each one it
 * ran. A seat left unsettled was cut from the group: its own job runs it at its place, alone or at
 * the head of a group of its own. The head is always settled.
 */
export async function runGroup(steps: GroupSteps, seats: readonly Seat[]): Promise<void> {
  const head = seats[0];
  if (!head) return;
  notePhase("run_start");
  const siteId = head.request.siteId;
  let d1: D1Database;
  let first: Awaited<ReturnType<typeof preloadGroup>>;
  try {
    d1 = await siteScopedDatabase(steps.env, siteId);
    first = await preloadGroup(d1, siteId, seats.map(modelOf), { policies: seats.some((s) => s.policiesUnread) });
  } catch (error) {
    // The head's own first reads failed: it answers that; the riders run at their places.
    head.settled = { threw: error };
    return;
  }
  const { site, models, declaresPolicies = false } = first;
  if (!site) {
    for (const seat of seats) seat.settled = { threw: new AppError("not_found", "No such site.") };
    return;
  }
  const watch = watchedReads();
  const pending: Pending[] = [];
  for (const seat of seats) {
    if (seat.policiesUnread && declaresPolicies) {
      seat.settled = { ran: POLICIES_FIRST };
      continue;
    }
    // Reads are free until a plan is pending: until then the member sees what it would alone.
    const strict = pending.length > 0;
    watch.touched = false;
    const reads = strict ? watch.d1 : d1;
    const modelId = modelOf(seat);
    const ctx: LifecycleContext = {
      db: createDb(reads),
      d1: reads,
      scope: siteScope(site.id),
      site,
      actor: seat.request.actor,
      clock: steps.clock,
      preloaded: { kind: "model", modelId, model: models.get(modelId) },
    };
    try {
      const plan = await seat.build(ctx, seat.request.input);
      // A read it needed, or R2 objects to clean after it (the runner's own path): not in this group.
      if (watch.touched || plan.objectCleanup) break;
      steps.checkLeases(seat.request, plan);
      pending.push({ seat, ctx: { ...ctx, db: createDb(d1), d1 }, plan, status: plan.status ?? seat.status });
    } catch (error) {
      if (watch.touched || (!(error instanceof AppError) && seat !== head)) break;
      seat.settled = { threw: error };
    }
  }
  await commitPending(steps, d1, site.id, pending);
  if (!head.settled) head.settled = await steps.alone(head).then(
    (ran) => ({ ran }),
    (threw: unknown) => ({ threw }),
  );
}

/**
 * Commits the group's plans: one batch for all; after a refusal of that batch, each alone in order.
 * Every member it is given ends settled, and a fault of one member's own (building its statements,
 * reading its answer after the commit) settles that member alone, as its own commitPlan would have
 * failed: a member left unsettled after the batch committed would be run again at its place.
 */
async function commitPending(steps: GroupSteps, d1: D1Database, siteId: string, pending: readonly Pending[]): Promise<void> {
  const only = pending.length === 1 ? pending[0] : undefined;
  if (only) {
    // One plan: its own batch, its own explanation of a refusal, exactly as alone.
    only.seat.settled = await commitPlan(only.ctx, only.plan, recordOf(only)).then(
      (value) => ({ ran: { value, status: only.status } }),
      (threw: unknown) => ({ threw }),
    );
    return;
  }
  if (pending.length === 0) return;
  const planned = await planEach(pending);
  if (planned.length === 0) return;
  notePhase("batch_start");
  notePhase(`group_commit:${planned.length}`);
  const settleCommitted = () => {
    for (const { p, batch } of planned) p.seat.settled = committedTurn(p, batch);
  };
  try {
    await commit(d1, planned.flatMap(({ batch }) => batch.statements));
  } catch (error) {
    // A fault may come after the batch committed (all or nothing): one of its outbox rows says which.
    const written = error instanceof AppError ? false : await committedBatch(d1, siteId, planned.flatMap(({ batch }) => batch.committed.events.map((e) => e.id)));
    if (written === true) {
      settleCommitted();
      return;
    }
    if (written === false) {
      // Refused (a check left to the batch: which member, the batch does not say) or not written:
      // each runs again alone, in order, so each gets its own answer and the others commit.
      for (const { p } of planned) p.seat.settled = await steps.alone(p.seat).then((ran) => ({ ran }), (threw: unknown) => ({ threw }));
      return;
    }
    // Unknown: each member answers as a faulted write alone would (write-runner.ts `#afterFault`:
    // from its idempotency row if it committed, else a fault).
    for (const { p } of planned) p.seat.settled = { threw: error };
    return;
  }
  notePhase("batch_end");
  settleCommitted();
}

/**
 * Each member's statements (outbox, audit, idempotency rows). A member whose statements cannot be
 * built is settled with that fault and left out, as its own commitPlan would fail before writing.
 */
async function planEach(pending: readonly Pending[]): Promise<{ p: Pending; batch: PlannedBatch<unknown> }[]> {
  const built = await Promise.allSettled(pending.map((p) => planStatements(p.ctx, p.plan, recordOf(p))));
  const planned: { p: Pending; batch: PlannedBatch<unknown> }[] = [];
  for (const [i, p] of pending.entries()) {
    const result = built[i];
    if (result?.status === "fulfilled") planned.push({ p, batch: result.value });
    else p.seat.settled = { threw: result?.reason };
  }
  return planned;
}

/** A committed member's turn: its answer read again after the commit, as commitPlan does (a plan's answer may be a getter, and may fault). */
function committedTurn(p: Pending, batch: PlannedBatch<unknown>): Settled {
  try {
    return { ran: { value: { ...batch.committed, answer: p.plan.answer }, status: p.status } };
  } catch (threw) {
    return { threw };
  }
}

/** Whether a grouped batch that faulted was written, from its first outbox row; undefined when that cannot be read (or it has none). */
async function committedBatch(d1: D1Database, siteId: string, eventIds: readonly string[]): Promise<boolean | undefined> {
  const id = eventIds[0];
  if (id === undefined) return undefined;
  return d1
    .prepare("SELECT 1 AS found FROM outbox_events WHERE id = ? AND site_id = ?")
    .bind(id, siteId)
    .first()
    .then(
      (row) => row !== null,
      () => undefined,
    );
}

function recordOf(p: Pending): IdempotencyRecord | undefined {
  const idem = p.seat.request.idempotency;
  return idem ? { ...idem, status: p.status } : undefined;
}

/** The model a create names (`model_id`). */
function modelOf(seat: Seat): string {
  const input = seat.request.input;
  return "model_id" in input && typeof input.model_id === "string" ? input.model_id : "";
}

/**
 * A D1 handle that refuses every use, noting that one was tried: given to a member built while
 * another's plan is pending, whose reads would miss the pending writes. A builder that caught the
 * refusal and went on is still cut (`touched`).
 */
function watchedReads(): { d1: D1Database; touched: boolean } {
  const watch = { d1: undefined as unknown as D1Database, touched: false };
  const refuse = (): never => {
    watch.touched = true;
    throw new Error("a grouped write may not read D1 while another's plan is pending");
  };
  // Every method refuses; `then` and symbols read as absent, so the handle is never taken for a promise.
  watch.d1 = new Proxy({} as D1Database, { get: (_target, key) => (key === "then" || typeof key === "symbol" ? undefined : refuse) });
  return watch;
}
