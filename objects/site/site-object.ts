import { DurableObject } from "cloudflare:workers";
import { systemClock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import type { Outcome } from "../../shared/errors";
import * as lifecycle from "../../shared/services/lifecycle";
import type { EntryView, PurgeAnswer, TrashAnswer } from "../../shared/services/lifecycle";
import { createModel } from "../../shared/services/models/create-model";
import { setManualOrder } from "../../shared/services/models/manual-order";
import type { Model } from "../../shared/repositories/model-repository";
import { COMMANDS, commandBuilder, type CommandAnswer, type CommandInput, type CommandName } from "./command-registry";
import { enqueueEvents, pendingEventIds } from "./after-commit";
import type * as C from "./commands";
import { IdempotencyLedger } from "./idempotency";
import { LeaseBook, type AcquireResult, type Lease, type RenewResult } from "./leases";
import { SITE_OBJECT_MIGRATIONS } from "./migrations";
import { RateLimiter, type TakeResult } from "./rate-limits";
import { migrateStorage } from "./storage";
import { WriteQueue } from "./write-queue";
import { WriteRunner } from "./write-runner";

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
  readonly #writes: WriteRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateStorage(ctx.storage, SITE_OBJECT_MIGRATIONS);
    this.#ledger = new IdempotencyLedger(ctx.storage, this.#clock);
    this.#leases = new LeaseBook(ctx.storage, this.#clock);
    this.#limits = new RateLimiter(ctx.storage, this.#clock);
    this.#writes = new WriteRunner(env, this.#clock, this.#queue, this.#ledger, this.#leases);
  }

  // ── Content writes: the one lifecycle path, serialised per site ──────────────────────────────
  createEntry(r: C.CreateEntryRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.createEntry, 201);
  }
  saveDraft(r: C.SaveDraftRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.saveDraft);
  }
  addLanguage(r: C.AddLanguageRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.addLanguage, 201);
  }
  publish(r: C.PublishRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.publishEntry);
  }
  unpublish(r: C.UnpublishRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.unpublishEntry);
  }
  move(r: C.MoveRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.moveEntry);
  }
  trash(r: C.TrashRequest): Promise<Outcome<C.WriteAnswer<TrashAnswer>>> {
    return this.#write(r, lifecycle.trashEntry);
  }
  restore(r: C.TrashRequest): Promise<Outcome<C.WriteAnswer<TrashAnswer>>> {
    return this.#write(r, lifecycle.restoreEntry);
  }
  purge(r: C.PurgeRequest): Promise<Outcome<C.WriteAnswer<PurgeAnswer>>> {
    return this.#write(r, lifecycle.purgeEntry);
  }
  restoreVersion(r: C.RestoreVersionRequest): Promise<Outcome<C.WriteAnswer<EntryView>>> {
    return this.#write(r, lifecycle.restoreVersion);
  }

  createModel(r: C.CreateModelRequest): Promise<Outcome<C.WriteAnswer<Model>>> {
    return this.#write(r, createModel, 201);
  }

  setManualOrder(r: C.ManualOrderRequest): Promise<Outcome<C.WriteAnswer<Model>>> {
    return this.#write(r, setManualOrder);
  }

  /** Any registered command by name (objects/site/command-registry.ts): what the surfaces call. */
  command<K extends CommandName>(name: K, request: C.WriteRequest<CommandInput<K>>): Promise<Outcome<C.WriteAnswer<CommandAnswer<K>>>> {
    if (!Object.hasOwn(COMMANDS, name)) throw new TypeError(`unknown command ${String(name)}`);
    return this.#write(request, commandBuilder(name), COMMANDS[name].status);
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

  // ── Rate limits ──────────────────────────────────────────────────────────────────────────
  /** Spends one request from `bucket`; counted here so every isolate sees the same window. */
  takeRate(bucket: string, limit: number, windowMs: number): TakeResult {
    this.#armSweep();
    return this.#limits.take(bucket, limit, windowMs);
  }

  override async alarm(): Promise<void> {
    this.#ledger.sweep();
    this.#leases.sweep();
    this.#limits.sweep();
    const siteId = this.ctx.id.name;
    if (siteId) await enqueueEvents(this.env, this.#clock, siteId, await pendingEventIds(this.env, siteId));
    const next = [this.#ledger.nextExpiry(), this.#leases.nextExpiry(), this.#limits.nextExpiry()].filter((t): t is number => t !== null);
    if (next.length > 0) await this.ctx.storage.setAlarm(Math.max(Math.min(...next), this.#clock.now() + 1000));
  }

  async #write<I extends object, T>(request: C.WriteRequest<I>, build: (ctx: lifecycle.LifecycleContext, input: I) => Promise<lifecycle.WritePlan<T>>, status = 200): Promise<Outcome<C.WriteAnswer<T>>> {
    this.#armSweep();
    return this.#writes.run(request, build, status);
  }

  #armSweep(): void {
    void this.ctx.storage.getAlarm().then((current) => {
      if (current === null) return this.ctx.storage.setAlarm(this.#clock.now() + SWEEP_INTERVAL_MS);
    });
  }
}
