import type { Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { findSiteById } from "../../shared/repositories/site-repository";
import { entryRepository } from "../../shared/repositories/entry-repository";
import { dueSchedules, endSchedule, firePin, pinDone, SCHEDULE_ACTOR, SCHEDULE_BATCH, stalePins, type EndScheduleInput } from "../../shared/services/schedules/fire";
import type { Pin } from "../../shared/services/schedules/schedules";
import type { ReleaseRow, ScheduleRow } from "../../shared/db/database";
import { dueReleases, endRelease, publishRelease, STALE_CHANGE_CODES } from "../../shared/services/releases/publish";
import type { ReleaseProblem } from "../../shared/services/releases/releases";
import { LEASE_TTL_MS } from "./leases";
import type { WriteRunner } from "./write-runner";
import { NextLook } from "./next-look";
import { AppError } from "../../shared/errors";
import type { PolicyResult } from "../../shared/services/plugins/policies";

/** When the next pending schedule is due (ms; -1: none; absent: unknown, look in D1). */
const NEXT_KEY = "schedules_next";
/** After a schedule is made, changed or cancelled, D1 is looked at this soon (then the exact time is known). */
export const SCHEDULE_LOOK_DELAY_MS = 1000;
const RETRY_MS = 5 * 60_000;

/** Refusals that mean the pinned version moved between the look and the write: the schedule is stale. */
const STALE_CODES = new Set(["version_conflict", "workflow_conflict", "transition_unavailable", "entry_in_trash"]);
/**
 * Refusals that end by themselves: an editing lease, the site's policy budget (docs/plugin-policies.md,
 * "Releases and schedules"). The schedule or release waits and tries again.
 */
const WAIT_CODES = new Set(["locked", "lock_lost", "plugin_policy_budget_exhausted"]);

/**
 * Fires due schedules from the site object's alarm (docs/scheduled-publishing.md): for each, the
 * pins are checked first (a moved version: the schedule ends `stale`, nothing published), then
 * each pinned language's publish or unpublish runs through the write path (lease guard, its own
 * batch, audit and events), then the schedule ends `done` (or `failed` with the refusal's code).
 */
export class ScheduleRunner {
  readonly #look: NextLook;

  constructor(
    storage: DurableObjectStorage,
    private readonly clock: Clock,
    private readonly env: Env,
    private readonly writes: WriteRunner,
  ) {
    this.#look = new NextLook(storage, clock, NEXT_KEY, SCHEDULE_LOOK_DELAY_MS);
  }

  forget(): Promise<number> {
    return this.#look.forget();
  }

  nextDue(): Promise<number | null> {
    return this.#look.due();
  }

  async run(siteId: string): Promise<number | null> {
    const now = this.clock.now();
    const next = await this.nextDue();
    if (next === null || next > now) return next;
    try {
      const d1 = await siteScopedDatabase(this.env, siteId);
      const db = createDb(d1);
      const site = await findSiteById(db, siteId);
      if (!site) return this.#look.remember(null);
      const found = await dueSchedules({ d1, site }, now);
      let waiting = false;
      for (const row of found.due) waiting = (await this.#fire(siteId, { db, scope: siteScope(siteId) }, row)) || waiting;
      // Releases with a time ride on the same alarm (docs/releases.md), after the schedules due with them.
      const releases = await dueReleases({ d1, site }, now, SCHEDULE_BATCH);
      for (const row of releases.due) waiting = (await this.#fireRelease(siteId, row)) || waiting;
      const candidates = [found.more || releases.more ? now : null, waiting ? now + LEASE_TTL_MS : null, found.nextDueAt, releases.nextDueAt].filter((t): t is number => t !== null);
      return this.#look.remember(candidates.length > 0 ? Math.min(...candidates) : null);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "scheduled publishing failed; alarm will retry", error: String(error) }));
      return this.#look.remember(now + RETRY_MS);
    }
  }

  /** One due schedule; true when it waits for an editing lease to end. */
  async #fire(siteId: string, reads: Parameters<typeof stalePins>[0], row: ScheduleRow): Promise<boolean> {
    const end = (input: Omit<EndScheduleInput, "schedule_id">) => this.writes.run({ siteId, actor: SCHEDULE_ACTOR, input: { schedule_id: row.id, ...input } }, endSchedule);
    const stale = await stalePins(reads, row);
    if (stale.length > 0) {
      await end({ state: "stale", stale });
      return false;
    }
    const pins = JSON.parse(row.pins) as Pin[];
    const entries = new Map((await entryRepository(reads.db, reads.scope).findMany(pins.map((p) => p.instance_id))).map((e) => [e.instance_id, e]));
    const due = pins.filter((pin) => !pinDone(row.action, pin, entries.get(pin.instance_id)));
    // Content policies (spec 2 rule 14): every language it is about to move asked at once, before
    // the first moves, so a refusal (or an enforcing policy that cannot be asked) moves none.
    const policies = await this.#askPolicies(siteId, row, due);
    if (policies === "wait") return true;
    if (!policies.ok) {
      await end({ state: "failed", code: policies.error.code, message: policies.error.message, ...(policies.error.details ? { refusal: policies.error.details } : {}) });
      return false;
    }
    for (const pin of due) {
      const outcome = await this.writes.run({ siteId, actor: SCHEDULE_ACTOR, input: { schedule_id: row.id, action: row.action, pin } }, firePin);
      if (outcome.ok) continue;
      const { code, message } = outcome.error;
      if (WAIT_CODES.has(code)) return true;
      if (STALE_CODES.has(code)) await end({ state: "stale", stale: await stalePins(reads, row) });
      else await end({ state: "failed", code, message });
      return false;
    }
    await end({ state: "done", ...(policies.results.length > 0 ? { policy_results: policies.results } : {}) });
    return false;
  }

  /** The policies of a firing schedule's languages (`fireSchedule`, policy-step.ts): allowed (with any results), refused, or wait. */
  async #askPolicies(siteId: string, row: ScheduleRow, pins: Pin[]): Promise<{ ok: true; results: PolicyResult[] } | { ok: false; error: AppError } | "wait"> {
    const input = { schedule_id: row.id, action: row.action, pins };
    const step = this.writes.policyStep("fireSchedule", { siteId, actor: SCHEDULE_ACTOR, input });
    if (!step || pins.length === 0) return { ok: true, results: [] };
    try {
      const prepared = await step(input);
      return { ok: true, results: prepared.extra?.policy_results ?? [] };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return WAIT_CODES.has(error.code) ? "wait" : { ok: false, error };
    }
  }

  /**
   * One due release, published whole through the write path (one batch, the lease guard on every
   * change); refused: it ends `stale` (every problem a moved pin: `scheduled_target_stale`) or
   * `failed`, with the problems. True when it waits for an editing lease to end.
   */
  async #fireRelease(siteId: string, row: ReleaseRow): Promise<boolean> {
    // Asked of the content policies as the publishRelease route asks them (every change at once, before the queue).
    const request = { siteId, actor: SCHEDULE_ACTOR, input: { release_id: row.id } };
    const outcome = await this.writes.run(request, publishRelease, 200, this.writes.policyStep("publishRelease", request));
    if (outcome.ok) return false;
    const { code, message, details } = outcome.error;
    if (WAIT_CODES.has(code)) return true;
    const problems = (details?.problems ?? []) as ReleaseProblem[];
    const stale = code === "release_refused" && problems.length > 0 && problems.every((p) => STALE_CHANGE_CODES.has(p.code));
    await this.writes.run({ siteId, actor: SCHEDULE_ACTOR, input: { release_id: row.id, state: stale ? ("stale" as const) : ("failed" as const), code, message, problems } }, endRelease);
    return false;
  }

}
