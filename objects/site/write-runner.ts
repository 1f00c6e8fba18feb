import { AppError, type Outcome } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { recordDatabases, siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { cloudflarePurger, purgeAfterCommit, type CachePurger } from "../../shared/public/cache-purge";
import { commitPlan, type LifecycleContext, type WritePlan } from "../../shared/services/lifecycle";
import type { BulkAction, BulkAnswer, BulkInput } from "../../shared/services/bulk/actions";
import { preloadWrite } from "../../shared/services/lifecycle/preload";
import { enqueueEvents, markEnqueued, sendEvents } from "./after-commit";
import { runBulk, type WriteSteps } from "./bulk-runner";
import type { WriteAnswer, WriteRequest } from "./commands";
import type { IdempotencyLedger } from "./idempotency";
import type { LeaseBook } from "./leases";
import type { MediaCleanup, StorageCleanup } from "./media-cleanup";
import type { Place, WriteQueue } from "./write-queue";
import { policyStep, type PolicySource, type Prepared, type WritePrepare } from "./policy-step";
import { notePhase } from "../../shared/observability/write-phases";
import { MARK_AT_MOST, type SentEvents } from "./sent-events";
import { GroupLane, POLICIES_FIRST, runGroup, type GroupSteps, type Seat, type Turn } from "./write-group";

export type PlanBuilder<I, T> = (ctx: LifecycleContext, input: I) => Promise<WritePlan<T>>;

/**
 * The path of every write inside a SiteObject:
 * take a place in the FIFO queue on arrival → claim the idempotency key → run at that place (read and authorise, build, check the editing
 * lease, commit one batch with the answer) → complete the key → purge cache tags → enqueue events.
 * A refusal frees the key and stores nothing, so a corrected retry with the same key can run.
 */
export class WriteRunner {
  /** Plain creates waiting at their places, which the write ahead of them may commit with its own (write-group.ts). */
  readonly #lane = new GroupLane();

  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
    private readonly queue: WriteQueue,
    private readonly ledger: IdempotencyLedger,
    private readonly leases: LeaseBook,
    private readonly purger: CachePurger = cloudflarePurger(env),
    private readonly objects?: MediaCleanup,
    /**
     * Where sent events wait to be marked enqueued together (sent-events.ts); `armMarks` is called
     * when the first arrive, to wake the alarm that marks them. Without it, each write marks its own.
     */
    private readonly sent?: { events: SentEvents; armMarks: () => Promise<void> },
    /**
     * The site's content policies (policy-step.ts). Every write that changes an entry takes its
     * policy step from here — single writes, bulk actions, releases and the alarm's schedules and
     * releases — so no path can skip them (docs/plugin-policies.md). Absent only in unit tests.
     */
    private readonly policies?: PolicySource,
  ) {}

  /**
   * The content-policy step of command `name` for this request (spec 2 rule 14), or undefined when
   * the command asks none: given to {@link run} as `prepare`, or run first by a caller that fires
   * several writes as one (a schedule's languages: schedule-runner.ts).
   */
  policyStep<I extends object>(name: string, request: WriteRequest<I>): WritePrepare<I> | undefined {
    return this.policies ? policyStep(this.policies, name, request) : undefined;
  }

  async run<I extends object, T>(
    request: WriteRequest<I>,
    build: PlanBuilder<I, T>,
    status = 200,
    /**
     * A step after the claim and before the queued work (the content policies, policy-step.ts): it
     * may refuse, change the input and add keys to the answer. After the claim, so a replay never
     * runs it; a plugin it asks never holds the site's other writers (see `place` below).
     */
    prepare?: WritePrepare<I>,
    /** A plain create, which may be committed with the creates queued right behind it (write-group.ts). */
    group = false,
  ): Promise<Outcome<WriteAnswer<T>>> {
    // First come, first served (docs/write-fairness.md): the place in the queue is taken on
    // arrival, before anything is awaited, so reads before the queued work (a stale claim's
    // look-up, the site's policy list) cannot reorder admission. A write about to ask a plugin
    // gives the place up and joins the end of the queue once the plugins answered.
    const place = this.queue.reserve();
    notePhase("place_reserved");
    const giveUp = (): void => place.leave();
    try {
      return await this.#runAt(place, request, build, status, prepare ? (input: I) => prepare(input, giveUp) : undefined, prepare?.noopWithoutPolicies === true, group);
    } finally {
      place.leave();
    }
  }

  /**
   * The write at its place. `prepare` (the policy step) runs before the queued work — except a step
   * that asks nothing on a site without content policies (`atTurn`): then whether the site declares
   * one is read with the write's first reads at its turn, in the same D1 batch, and the step runs
   * only when it does: the write leaves its place (its job ends there, writing nothing), runs the
   * step outside the queue as any policy step would, and joins the end of the queue. A site
   * without policies — most — pays no D1 round trip for them (docs/write-fairness.md, "CPU per write").
   */
  async #runAt<I extends object, T>(
    place: Place,
    request: WriteRequest<I>,
    build: PlanBuilder<I, T>,
    status: number,
    prepare?: (input: I) => Promise<Prepared<I>>,
    atTurn = false,
    group = false,
  ): Promise<Outcome<WriteAnswer<T>>> {
    const idem = request.idempotency;
    const early = await this.#claim<T>(request);
    if (early) return early;
    let prepared: Prepared<I> | undefined;
    try {
      const checkAtTurn = prepare !== undefined && atTurn;
      prepared = prepare && !checkAtTurn ? await prepare(request.input) : undefined;
      notePhase("policy_read");
      const turn = (policiesUnread: boolean) => () => this.#turn(request, build, status, prepared, policiesUnread);
      // A plain create at its own place may be run with the creates queued right behind it (group
      // commit, write-group.ts): it waits in the lane, where the write ahead of it may take it.
      const seat: Seat | undefined =
        group && place.open && (prepare === undefined || checkAtTurn)
          ? { ticket: place.ticket, request, build: build as Seat["build"], status, policiesUnread: checkAtTurn }
          : undefined;
      const first = seat ? () => this.#seatTurn<T>(seat, turn(checkAtTurn)) : turn(checkAtTurn);
      if (seat) this.#lane.join(seat);
      // Still at the place taken on arrival unless a plugin was asked (then: the end of the queue).
      let ran = await (place.open ? place.run(first) : this.queue.run(first)).finally(() => seat && this.#lane.drop(seat));
      if (ran === POLICIES_FIRST && prepare) {
        prepared = await prepare(request.input);
        notePhase("policy_read");
        ran = await this.queue.run(turn(false));
      }
      if (ran === POLICIES_FIRST) throw new Error("a write's policy step was skipped");
      const { value, status: done, cleanup } = ran;
      status = done;
      if (idem) this.ledger.complete(idem.scope, idem.key, { status, body: JSON.stringify(value.answer) });
      // After commit and outside the queue; never throws: a failed purge is reported, the write stands.
      // Before events, so a consumer re-reading the public API on an event does not get a stale answer.
      const purge = await purgeAfterCommit(this.env, this.purger, value.purgeTags);
      const answer: WriteAnswer<T> = { status, body: value.answer, replayed: false, events: value.events, purge, ...(cleanup ? { cleanup } : {}) };
      notePhase("queue_send");
      await this.#handOver(request.siteId, value.events.map((e) => e.id));
      notePhase("answer");
      return { ok: true, value: answer };
    } catch (error) {
      if (error instanceof AppError) {
        if (idem) this.ledger.free(idem.scope, idem.key);
        const explained = prepared?.explain(error.toFailure());
        return { ok: false, error: (explained ?? error).toFailure() };
      }
      const answered = await this.#afterFault<T>(request);
      if (answered) return answered;
      throw error;
    }
  }

  /**
   * A write's queued work alone: its first reads (with the site's policy check when
   * `policiesUnread`), build and authorise, the lease guard, its one batch with the answer.
   */
  async #turn<I extends object, T>(request: WriteRequest<I>, build: PlanBuilder<I, T>, status: number, prepared: Prepared<I> | undefined, policiesUnread: boolean): Promise<Turn<T>> {
    notePhase("run_start");
    const { ctx, declaresPolicies } = await this.#contextWith(request, policiesUnread);
    // The site declares a content policy: the step must run first, outside the queue.
    if (declaresPolicies) return POLICIES_FIRST;
    const input = prepared?.input ?? request.input;
    const extra = prepared?.extra ?? null;
    // The builder authorises before anything is revealed; the lease check (which names no
    // holder but tells that someone edits the entry) comes after it, still before the commit.
    const built = await build(ctx, input);
    // The policies' results ride in the answer, so a replay answers them too.
    const plan = extra ? { ...built, answer: { ...(built.answer as object), ...extra } as T } : built;
    this.#checkLeases(request, plan);
    const planStatus = plan.status ?? status;
    const idem = request.idempotency;
    const record = idem ? { ...idem, status: planStatus } : undefined;
    // Objects a write orphans are noted before its batch, so a stop after the commit leaves the
    // alarm a note; deleted once it committed, still inside the queue (the alarm's cleanup runs
    // there too, so it never judges a note whose batch is in flight).
    const orphans = plan.objectCleanup;
    if (orphans && this.objects) await this.objects.note(orphans.mediaId, orphans.objectKeys);
    notePhase("batch_start");
    const committed = await commitPlan(ctx, plan, record);
    notePhase("batch_end");
    const cleanup: StorageCleanup | undefined = orphans && this.objects ? await this.objects.run(request.siteId, orphans.mediaId) : undefined;
    return { value: committed, status: planStatus, cleanup };
  }

  /**
   * A groupable write's turn: answered from the group that ran it, if the write ahead took it;
   * else it heads a group of the seats right behind it, or runs alone when none waits.
   */
  async #seatTurn<T>(seat: Seat, alone: () => Promise<Turn<T>>): Promise<Turn<T>> {
    if (!seat.settled) {
      this.#lane.drop(seat);
      const riders = this.#lane.behind(seat);
      if (riders.length === 0) return alone();
      await runGroup(this.#groupSteps, [seat, ...riders]);
    }
    const settled = seat.settled;
    if (!settled) throw new Error("a group left its head unsettled");
    if ("threw" in settled) throw settled.threw;
    // The group ran this seat's own builder, whose answer is a T.
    return settled.ran as Turn<T>;
  }

  /** What a group borrows from this runner (write-group.ts). */
  get #groupSteps(): GroupSteps {
    return {
      env: this.env,
      clock: this.clock,
      checkLeases: (request, plan) => this.#checkLeases(request, plan),
      alone: (seat) => this.#turn(seat.request, seat.build, seat.status, undefined, seat.policiesUnread),
    };
  }

  /**
   * A bulk action (docs/bulk-actions.md, bulk-runner.ts): the same claim, lease guard, purge and
   * event hand-over as a single write, lent to the bulk path so neither can drift from the other.
   */
  runBulk(request: WriteRequest<BulkInput>, action: BulkAction): Promise<Outcome<WriteAnswer<BulkAnswer>>> {
    return runBulk(this.#steps(), request, action);
  }

  /** The steps of this runner that bulk-runner.ts runs for each bulk action. */
  #steps(): WriteSteps {
    return {
      env: this.env,
      queue: this.queue,
      ledger: this.ledger,
      purger: this.purger,
      ...(this.policies ? { policies: this.policies } : {}),
      claim: (request) => this.#claim(request),
      afterFault: (request) => this.#afterFault(request),
      context: (request) => this.#context(request),
      checkLeases: (request, plan, named) => this.#checkLeases(request, plan, named),
      handOver: (siteId, ids) => this.#handOver(siteId, ids),
    };
  }

  /**
   * Claims the request's Idempotency-Key (if any): an answer when the command must not run (a
   * replay, a reused key, a claim in progress, or a stale one resolved from what it wrote), else
   * undefined and the command runs under the claim.
   */
  async #claim<T>(request: WriteRequest<object>): Promise<Outcome<WriteAnswer<T>> | undefined> {
    const idem = request.idempotency;
    if (!idem) return undefined;
    const claim = this.ledger.claim(idem);
    if (claim.kind === "replay") return { ok: true, value: this.#replay<T>(claim.status, claim.body) };
    if (claim.kind === "reused") return refusal("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
    if (claim.kind !== "in_progress") return undefined;
    if (claim.retryAfterSeconds !== null) {
      return refusal("idempotency_in_progress", "The first request with this key is still running.", { retry_after: claim.retryAfterSeconds });
    }
    // Stale-pending (spec 2: 409 without Retry-After), unless this request can resolve it. Taken
    // over synchronously, so identical requests arriving meanwhile see it running (Retry-After)
    // and exactly one resolves it; a command stuck here is never taken over.
    if (!this.ledger.takeOver(idem.scope, idem.key)) return refusal("idempotency_in_progress", STALE_MESSAGE);
    const written = await this.#committedAnswer(request.siteId, idem.scope, idem.key, idem.fingerprint).then(
      (answer) => ({ known: true as const, answer }),
      () => ({ known: false as const, answer: undefined }),
    );
    if (!written.known) {
      this.ledger.release(idem.scope, idem.key);
      return refusal("idempotency_in_progress", STALE_MESSAGE);
    }
    // Rule 3: the batch committed with its answer → answered from what it wrote.
    if (written.answer) {
      this.ledger.complete(idem.scope, idem.key, written.answer);
      return { ok: true, value: this.#replay<T>(written.answer.status, written.answer.body) };
    }
    // Nothing was written: the retry runs, under the claim it took over.
    return undefined;
  }

  /**
   * After a fault (D1 or transport), which may come after the batch committed: rule 3 answers such a
   * write from what it wrote; only a write known not to have committed frees its key. If even that
   * read fails, the claim stays pending and a later retry resolves it from D1. Undefined: rethrow.
   */
  async #afterFault<T>(request: WriteRequest<object>): Promise<Outcome<WriteAnswer<T>> | undefined> {
    const idem = request.idempotency;
    if (idem) {
      const written = await this.#committedAnswer(request.siteId, idem.scope, idem.key, idem.fingerprint).then(
        (answer) => ({ known: true as const, answer }),
        () => ({ known: false as const, answer: undefined }),
      );
      if (written.answer) {
        this.ledger.complete(idem.scope, idem.key, written.answer);
        return { ok: true, value: this.#replay<T>(written.answer.status, written.answer.body) };
      }
      if (written.known) this.ledger.free(idem.scope, idem.key);
    }
    return undefined;
  }

  async #context(request: WriteRequest<object>): Promise<LifecycleContext> {
    return (await this.#contextWith(request, false)).ctx;
  }

  /** The write's context from its first reads; with `policies`, also whether the site declares a content policy (same batch). */
  async #contextWith(request: WriteRequest<object>, policies: boolean): Promise<{ ctx: LifecycleContext; declaresPolicies: boolean }> {
    const d1 = await siteScopedDatabase(this.env, request.siteId);
    const { site, preloaded, declaresPolicies = false } = await preloadWrite(d1, request.siteId, request.input, { policies });
    if (!site) throw new AppError("not_found", "No such site.");
    const ctx = { db: createDb(d1), d1, scope: siteScope(site.id), site, actor: request.actor, clock: this.clock, ...(preloaded ? { preloaded } : {}) };
    return { ctx, declaresPolicies };
  }

  /**
   * Sends a committed write's events to the queue. Their rows are marked enqueued later, together
   * with other writes' (the alarm), unless this runner has nowhere to note them or too many wait.
   */
  async #handOver(siteId: string, ids: string[]): Promise<void> {
    if (!this.sent) {
      await enqueueEvents(this.env, this.clock, siteId, ids);
      return;
    }
    const { events, armMarks } = this.sent;
    if (!(await sendEvents(this.env, siteId, ids))) {
      // The rows stay unmarked: the alarm, armed now, looks for them and sends them again.
      events.scanSoon(this.clock.now());
      await armMarks();
      return;
    }
    if (events.add(ids, this.clock.now())) await armMarks();
    if (events.size > MARK_AT_MOST) {
      const due = events.take();
      await markEnqueued(this.env, this.clock, siteId, due).then(
        () => events.marked(this.clock.now()),
        () => events.add(due, this.clock.now()),
      );
    }
  }

  /**
   * The one editing-lease guard of every write (spec 3, "Editing locks"; docs/content-rules.md):
   * whatever the surface or the caller, a write changing an entry language someone else holds a
   * live lease on is 423 `locked`, and one whose writer's lease was taken over is 423 `lock_lost`.
   * Runs after the plan is built (authorised) and before anything of it is written; a replay of a
   * completed key was answered before this and is not asked again.
   */
  #checkLeases(request: WriteRequest<object>, plan: WritePlan<unknown>, named: string[] = namedInstance(request.input)): void {
    const resources = plan.locks ?? named;
    if (resources.length === 0) return;
    const admission = this.leases.admitWrite({ resources, holder: request.actor.id, ...(request.leaseToken ? { token: request.leaseToken } : {}) });
    if (admission === "locked") throw new AppError("locked", "Someone else is editing this entry.");
    if (admission === "lock_lost") throw new AppError("lock_lost", "Your editing lease on this entry was taken over by someone else; read the entry again before writing.");
  }

  async #committedAnswer(siteId: string, scope: string, key: string, fingerprint: string): Promise<{ status: number; body: string } | undefined> {
    // A directory change's answer is in the control database (shared/db/tables.ts): look in both.
    for (const db of await recordDatabases(this.env, siteId)) {
      const row = await db
        .prepare("SELECT status, body, fingerprint FROM idempotency_results WHERE site_id = ? AND scope = ? AND key = ? AND expires_at > ?")
        .bind(siteId, scope, key, new Date(this.clock.now()).toISOString())
        .first<{ status: number; body: string; fingerprint: string }>();
      if (row) return row.fingerprint === fingerprint ? { status: row.status, body: row.body } : undefined;
    }
    return undefined;
  }

  /**
   * A replay reports no purge: the first run purged. (If the object stopped between commit and
   * purge, stale answers live at most PUBLIC_CACHE_MAX_AGE seconds.)
   */
  #replay<T>(status: number, body: string): WriteAnswer<T> {
    return { status, body: JSON.parse(body) as T, replayed: true, events: [], purge: { tags: [], evicted: false } };
  }
}

/** The entry language a command's input names (`instance_id`), for a plan that does not list its {@link WritePlan.locks}. */
function namedInstance(input: object): string[] {
  const named = "instance_id" in input ? input.instance_id : undefined;
  return typeof named === "string" ? [named] : [];
}

/** A stale-pending claim whose outcome this request cannot learn or must not repeat (spec 2, idempotency rule 5). */
const STALE_MESSAGE = "The first request with this key stopped before answering; read the result, then send the command again with a new key.";

function refusal(code: "idempotency_key_reused" | "idempotency_in_progress", message: string, details?: Record<string, unknown>): Outcome<never> {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
