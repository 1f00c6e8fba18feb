import { DurableObject } from "cloudflare:workers";
import { systemClock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import type { Outcome } from "../../shared/errors";
import type { MoveAnswer } from "../../shared/services/sites/site-move";
import type { CopyProgress } from "../../shared/services/site-copy/progress";
import type { DeleteProgress } from "../../shared/services/sites/site-delete";
import * as lifecycle from "../../shared/services/lifecycle";
import { BULK_ACTIONS, type BulkAction, type BulkAnswer, type BulkInput } from "../../shared/services/bulk/actions";
import { COMMANDS, GROUPED_COMMANDS, commandBuilder, type CommandAnswer, type CommandInput, type CommandName } from "./command-registry";
import { eventTiming } from "../../shared/events/timing";
import { SentEvents } from "./sent-events";
import { EventSweep } from "./event-sweep";
import { SiteIdentity } from "./site-identity";
import type * as C from "./commands";
import { IdempotencyLedger, type ClaimRequest, type ClaimResult, type StoredAnswer } from "./idempotency";
import { LeaseBook, type AcquireResult, type Lease, type RenewResult } from "./leases";
import { SITE_OBJECT_MIGRATIONS } from "./migrations";
import { RateLimiter, type TakeResult } from "./rate-limits";
import { UploadObjects } from "./upload-objects";
import { MediaCleanup, type StorageCleanup } from "./media-cleanup";
import { cloudflarePurger } from "../../shared/public/cache-purge";
import { removeStoppedUploads } from "./stopped-uploads";
import { OperatorSteps } from "./operator-steps";
import { keepRefusedText } from "./recovery-on-lock-lost";
import { migrateStorage } from "./storage";
import { WriteQueue } from "./write-queue";
import { WriteRunner } from "./write-runner";
import { policyAsker, type PolicySource, type WritePrepare } from "./policy-step";
import { JobStepRunner, type JobStepAnswer, type JobStepRequest } from "./job-steps";
import { JOB_STEPS, type JobStepName } from "./job-step-registry";
import { TrashRetention } from "./trash-retention";
import { ScheduleRunner } from "./schedule-runner";

/** Commands after which Trash retention looks at D1 again: Trash grew, or the window may have changed. */
const TRASH_CHANGES: ReadonlySet<string> = new Set(["trash", "updateSettings"]);

/** Commands after which the schedule runner looks at D1 again. */
const SCHEDULE_CHANGES: ReadonlySet<string> = new Set(["createSchedule", "updateSchedule", "cancelSchedule", "createRelease", "updateRelease"]);

/** Sweeps run at least this often while the object holds claims, leases or counters. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * One per site (addressed by site id): serialises the site's writes and keeps editing leases,
 * idempotency claims and rate-limit windows in its own SQLite storage. Each method is a table of
 * contents; the work lives in the lifecycle services and the small classes it wires together.
 */
export class SiteObject extends DurableObject<Env> {
  readonly #clock = systemClock;
  readonly #queue = new WriteQueue();
  readonly #ledger: IdempotencyLedger;
  readonly #leases: LeaseBook;
  readonly #limits: RateLimiter;
  readonly #uploads: UploadObjects;
  readonly #cleanup: MediaCleanup;
  readonly #writes: WriteRunner;
  readonly #sent: SentEvents;
  readonly #events: EventSweep;
  readonly #operators: OperatorSteps;
  readonly #identity: SiteIdentity;
  readonly #jobSteps: JobStepRunner;
  readonly #trash: TrashRetention;
  readonly #schedules: ScheduleRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateStorage(ctx.storage, SITE_OBJECT_MIGRATIONS);
    this.#identity = new SiteIdentity(ctx.storage, ctx.id.name);
    const timing = eventTiming(env);
    this.#sent = new SentEvents(timing.resendAfterMs);
    this.#events = new EventSweep(env, this.#clock, this.#sent, timing);
    this.#operators = new OperatorSteps(env, this.#clock, this.#queue);
    this.#ledger = new IdempotencyLedger(ctx.storage, this.#clock);
    this.#leases = new LeaseBook(ctx.storage, this.#clock);
    this.#limits = new RateLimiter(ctx.storage, this.#clock);
    this.#uploads = new UploadObjects(ctx.storage, this.#clock);
    this.#cleanup = new MediaCleanup(ctx.storage, this.#clock, env);
    const policies: PolicySource = (request) => policyAsker(env, this.#clock, this.#limits, request);
    this.#jobSteps = new JobStepRunner(env, this.#clock, this.#queue, this.#ledger, cloudflarePurger(env), policies);
    this.#writes = new WriteRunner(
      env,
      this.#clock,
      this.#queue,
      this.#ledger,
      this.#leases,
      cloudflarePurger(env),
      this.#cleanup,
      { events: this.#sent, armMarks: () => this.#wakeBy(this.#sent.nextDue()) },
      policies,
    );
    this.#trash = new TrashRetention(ctx.storage, this.#clock, env, this.#writes);
    this.#schedules = new ScheduleRunner(ctx.storage, this.#clock, env, this.#writes);
  }

  // ── Content writes: the one lifecycle path, serialised per site ──────────────────────────────
  // Named shortcuts for the most used commands; statuses and builders live in the registry only.
  createEntry(r: C.CreateEntryRequest) {
    return this.command("createEntry", r);
  }
  saveDraft(r: C.SaveDraftRequest) {
    return this.command("saveDraft", r);
  }
  addLanguage(r: C.AddLanguageRequest) {
    return this.command("addLanguage", r);
  }
  publish(r: C.PublishRequest) {
    return this.command("publish", r);
  }
  unpublish(r: C.UnpublishRequest) {
    return this.command("unpublish", r);
  }
  move(r: C.MoveRequest) {
    return this.command("move", r);
  }
  trash(r: C.TrashRequest) {
    return this.command("trash", r);
  }
  restore(r: C.TrashRequest) {
    return this.command("restore", r);
  }
  purge(r: C.PurgeRequest) {
    return this.command("purge", r);
  }
  restoreVersion(r: C.RestoreVersionRequest) {
    return this.command("restoreVersion", r);
  }
  createModel(r: C.CreateModelRequest) {
    return this.command("createModel", r);
  }
  setManualOrder(r: C.ManualOrderRequest) {
    return this.command("setManualOrder", r);
  }

  /** Any registered command by name (objects/site/command-registry.ts): what the surfaces call. */
  async command<K extends CommandName>(name: K, request: C.WriteRequest<CommandInput<K>>): Promise<Outcome<C.WriteAnswer<CommandAnswer<K>>>> {
    if (!Object.hasOwn(COMMANDS, name)) throw new TypeError(`unknown command ${String(name)}`);
    const outcome = await this.#write(request, commandBuilder(name), COMMANDS[name].status, this.#writes.policyStep(name, request), GROUPED_COMMANDS.has(name));
    // A save refused because the lease was lost: its text is kept as the person's recovery draft (docs/recovery-drafts.md).
    if (!outcome.ok && outcome.error.code === "lock_lost" && name === "saveDraft") return keepRefusedText(this.#writes, request as C.SaveDraftRequest, outcome);
    // Trash grew or its window may have changed: the alarm looks at it again (docs/trash-retention.md).
    if (outcome.ok && !outcome.value.replayed && TRASH_CHANGES.has(name)) await this.#wakeBy(await this.#trash.forget());
    // A schedule made, moved or cancelled: the alarm learns the next due time (docs/scheduled-publishing.md).
    if (outcome.ok && !outcome.value.replayed && SCHEDULE_CHANGES.has(name)) await this.#wakeBy(await this.#schedules.forget());
    return outcome;
  }

  /**
   * A step of an import or export job (objects/site/job-step-registry.ts): spec 2 idempotency rule 5,
   * in the site's write queue (docs/imports.md, "Idempotency of steps").
   */
  jobStep<K extends JobStepName>(name: K, request: JobStepRequest<object>): Promise<Outcome<JobStepAnswer>> {
    if (!Object.hasOwn(JOB_STEPS, name)) throw new TypeError(`unknown job step ${String(name)}`);
    this.#armSweep();
    this.#identity.note(request.siteId);
    return this.#jobSteps.run(request, JOB_STEPS[name] as never);
  }

  /** A bulk action on up to 25 entries (docs/bulk-actions.md): each id as its single route would write it. */
  async bulk(action: BulkAction, request: C.WriteRequest<BulkInput>): Promise<Outcome<C.WriteAnswer<BulkAnswer>>> {
    if (!Object.hasOwn(BULK_ACTIONS, action)) throw new TypeError(`unknown bulk action ${String(action)}`);
    this.#armSweep();
    this.#identity.note(request.siteId);
    if (request.rate) {
      const refused = this.#spendRate(request.rate);
      if (refused) return refused;
    }
    const outcome = await this.#writes.runBulk(request, action);
    if (outcome.ok && !outcome.value.replayed && action === "trash") await this.#wakeBy(await this.#trash.forget());
    return outcome;
  }

  // ── Editing leases ───────────────────────────────────────────────────────────────────────
  acquireLease(resource: string, holder: string): AcquireResult {
    this.#armSweep();
    return this.#leases.acquire({ resource, holder });
  }
  renewLease(resource: string, token: string): RenewResult {
    return this.#leases.renew(resource, token);
  }
  releaseLease(resource: string, token: string): boolean {
    return this.#leases.release(resource, token);
  }
  takeOverLease(resource: string, holder: string): Lease {
    this.#armSweep();
    return this.#leases.takeOver({ resource, holder });
  }

  // ── Idempotency of work done outside the write queue (plugin operations) ────────────────────
  /**
   * Claims an Idempotency-Key for work that runs in the worker, not in this object's write queue
   * (a plugin operation: its plugin call must not hold the site's writers). Spec 2 idempotency
   * rule 4: such a command is kept in its own record, so a stale-pending claim (its run stopped
   * without an answer) is taken over and the retry runs again; a running one is `in_progress`.
   */
  claimKey(request: ClaimRequest): ClaimResult {
    this.#armSweep();
    const claim = this.#ledger.claim(request);
    if (claim.kind === "in_progress" && claim.retryAfterSeconds === null && this.#ledger.takeOver(request.scope, request.key)) return { kind: "claimed" };
    return claim;
  }
  /** Stores the answer of a claimed key (replayed to a retry with the same key and body). */
  completeKey(scope: string, key: string, answer: StoredAnswer): boolean {
    return this.#ledger.complete(scope, key, answer);
  }
  /** Frees a claimed key after a refusal or failure, so a corrected retry can run. */
  freeKey(scope: string, key: string): boolean {
    return this.#ledger.free(scope, key);
  }

  // ── Rate limits ──────────────────────────────────────────────────────────────────────────
  /** Spends one request from `bucket`; counted here so every isolate sees the same window. */
  takeRate(bucket: string, limit: number, windowMs: number): TakeResult {
    this.#armSweep();
    return this.#limits.take(bucket, limit, windowMs);
  }

  // ── Upload objects (docs/media.md, "Stopped uploads") ───────────────────────────────────────
  /** Notes an upload's R2 key before the worker stores it; the alarm wakes when it would be due. */
  async noteUpload(objectKey: string): Promise<void> {
    await this.#wakeBy(this.#uploads.note(objectKey));
  }
  /** A streamed upload opened its R2 multipart upload for a noted key (before its first part). */
  noteMultipartUpload(objectKey: string, uploadId: string): void {
    this.#uploads.noteMultipart(objectKey, uploadId);
  }
  /** The worker kept or deleted the upload's object. */
  settleUpload(objectKey: string): void {
    this.#uploads.settle(objectKey);
  }

  // ── Removed media's objects (docs/media.md, "Remove") ──────────────────────────────────────
  /**
   * What is left of a removed item's R2 deletes, after trying them once more (in the write queue):
   * a replayed removal answers `storage_cleanup` from this.
   */
  async retryMediaCleanup(mediaId: string): Promise<StorageCleanup> {
    const siteId = this.#identity.siteId;
    if (!siteId || this.#cleanup.state(mediaId) === "complete") return "complete";
    return this.#queue.run(() => this.#cleanup.run(siteId, mediaId));
  }

  // ── Operators' whole-site work, in the write queue (objects/site/operator-steps.ts) ──────────
  /** Moves the site's content to another site database (POST /api/ops/sites/{id}/database). */
  async moveDatabase(siteId: string, binding: string): Promise<Outcome<MoveAnswer>> {
    return this.#operators.moveDatabase(siteId, binding);
  }
  /** One bounded share of a site copy into this site (POST /api/ops/sites/{id}/copy, docs/site-copy.md). */
  async copySite(key: string): Promise<Outcome<CopyProgress | null>> {
    return this.#operators.copySite(key);
  }
  /** One bounded share of deleting this site (POST /api/ops/sites/{id}/delete); the last clears this object's storage too. */
  async deleteSite(siteId: string): Promise<Outcome<DeleteProgress | null>> {
    return this.#operators.deleteSite(siteId, async () => {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
    });
  }

  override async alarm(): Promise<void> {
    this.#ledger.sweep();
    this.#leases.sweep();
    this.#limits.sweep();
    // Not ctx.id.name: an object the alarm woke cold has none (see SiteIdentity).
    const siteId = this.#identity.siteId;
    // Events: marked, unsent ones sent, unconsumed ones sent again (objects/site/event-sweep.ts).
    if (siteId) await this.#events.run(siteId);
    if (siteId) await removeStoppedUploads(this.env, this.#uploads, siteId);
    if (siteId) await this.#queue.run(() => this.#cleanup.run(siteId));
    // Due schedules first (they are on time); each transition runs through the write queue.
    const scheduleDue = siteId ? await this.#schedules.run(siteId) : null;
    // Trash past its window (spec 3: 30 days): one bounded batch per alarm; each purge runs through the write queue.
    const trashDue = siteId ? await this.#trash.run(siteId) : null;
    const next = [scheduleDue, trashDue, this.#ledger.nextExpiry(), this.#leases.nextExpiry(), this.#limits.nextExpiry(), this.#uploads.nextDue(), this.#cleanup.nextDue(), this.#sent.nextDue()].filter(
      (t): t is number => t !== null,
    );
    if (next.length > 0) await this.ctx.storage.setAlarm(Math.max(Math.min(...next), this.#clock.now() + 1000));
  }

  async #write<I extends object, T>(
    request: C.WriteRequest<I>,
    build: (ctx: lifecycle.LifecycleContext, input: I) => Promise<lifecycle.WritePlan<T>>,
    status = 200,
    prepare?: WritePrepare<I>,
    group = false,
  ): Promise<Outcome<C.WriteAnswer<T>>> {
    this.#armSweep();
    this.#identity.note(request.siteId);
    if (request.rate) {
      const refused = this.#spendRate(request.rate);
      if (refused) return refused;
    }
    return this.#writes.run(request, build, status, prepare, group);
  }

  /** Spends a command's rate window; the refusal when it is used up. */
  #spendRate({ bucket, limit, windowMs, message }: C.RateSpend): Outcome<never> | undefined {
    const rate = this.#limits.take(bucket, limit, windowMs);
    if (!rate.allowed) return { ok: false, error: { code: "rate_limited", message, details: { retry_after: Math.ceil(rate.retryAfterMs / 1000) } } };
    return undefined;
  }

  /** Makes sure the alarm rings by `due` (earlier alarms stand). */
  async #wakeBy(due: number | null): Promise<void> {
    if (due === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > due) await this.ctx.storage.setAlarm(due);
  }

  #armSweep(): void {
    void this.ctx.storage.getAlarm().then((current) => {
      if (current === null) return this.ctx.storage.setAlarm(this.#clock.now() + SWEEP_INTERVAL_MS);
    });
  }
}
