import { isoAt, type Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError, type Outcome } from "../../shared/errors";
import { cloudflarePurger, purgeAfterCommit, type CachePurger } from "../../shared/public/cache-purge";
import { outboundPolicy } from "../../shared/net/outbound-address";
import { findSiteById } from "../../shared/repositories/site-repository";
import type { JobStepDefinition, StepContext } from "../../shared/services/imports/job-step";
import type { CompiledQuery } from "kysely";
import { commit } from "../../shared/db/batch";
import { firstRow, statement } from "../../shared/services/imports/statements";
import type { Actor } from "../../shared/services/lifecycle";
import type { IdempotencyRequest } from "./commands";
import { RETENTION_DEFAULT_MS, type IdempotencyLedger } from "./idempotency";
import type { WriteQueue } from "./write-queue";
import { enqueueEvents } from "./after-commit";
import type { PolicyAsker } from "./policy-step";

/** A job step sent to the site's object: which step, on which job, as whom, under which key. */
export interface JobStepRequest<I> {
  siteId: string;
  actor: Actor;
  jobId: string;
  input: I;
  idempotency?: IdempotencyRequest;
}

export interface JobStepAnswer {
  status: number;
  body: object;
  replayed: boolean;
}

interface StepClaimRow {
  fingerprint: string;
  job_id: string;
  position: number;
  state: "running" | "done" | "error";
}

const STALE = "The first request with this key stopped before answering; read the job (getImportJob or getExportJob), then send the command again with a new key.";

/**
 * The path of every job step (spec 2, idempotency rule 5; docs/imports.md, "Idempotency of steps"):
 * claim the key in the object's ledger (a request with the same key running now → 409 with
 * Retry-After; one left pending by a stopped object → 409 without it, never taken over) → in the
 * site's write queue, read the key's step claim in D1:
 * - none: record the job's position in it, before anything runs, then run the step;
 * - the job moved since: answer the job as it is now with `replayed: true`, running nothing;
 * - the job did not move: run again when the step's rule allows it (always, or only after the
 *   first request ended with an error), else answer the job as it is now with `replayed: true`.
 * The ledger claim is freed once the step ended (the D1 claim now carries the key); a step that
 * stopped mid-way leaves the ledger claim pending: 409 without Retry-After until it expires.
 */
export class JobStepRunner {
  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
    private readonly queue: WriteQueue,
    private readonly ledger: IdempotencyLedger,
    private readonly purger: CachePurger = cloudflarePurger(env),
    /** The site's content policies, asked by import write steps before each entry write (shared/services/imports/policies.ts). */
    private readonly policies?: (request: JobStepRequest<object>) => Promise<PolicyAsker | undefined>,
  ) {}

  async run<I extends object>(request: JobStepRequest<I>, step: JobStepDefinition<I>): Promise<Outcome<JobStepAnswer>> {
    const idem = request.idempotency;
    if (idem) {
      const claim = this.ledger.claim({ ...idem, retentionMs: RETENTION_DEFAULT_MS });
      if (claim.kind === "reused") return refusal("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
      if (claim.kind === "in_progress") {
        return claim.retryAfterSeconds !== null
          ? refusal("idempotency_in_progress", "The first request with this key is still running.", { retry_after: claim.retryAfterSeconds })
          : refusal("idempotency_in_progress", STALE);
      }
      // A completed ledger row is never left by this runner (it frees its claims); treat it as taken.
      if (claim.kind === "replay") return refusal("idempotency_key_reused", "This Idempotency-Key was used for another kind of request.");
    }
    let purgeTags: string[] = [];
    let events: string[] = [];
    try {
      const result = await this.queue.run(async () => {
        const ctx = await this.#context(request, step.asksPolicies === true);
        if (idem) {
          const decided = await this.#decide(ctx, idem, request.jobId, step);
          if (decided) return decided;
        }
        try {
          // The claim's end may ride in the step's last batch, with the job's move (one batch less a step).
          const claimDone = idem ? { statement: this.#endClaimStatement(ctx, idem, "done"), committed: false } : undefined;
          const answer = await step.run(claimDone ? { ...ctx, claimDone } : ctx, { ...request.input, job_id: request.jobId });
          purgeTags = answer.purgeTags;
          events = (answer.events ?? []).map((e) => e.id);
          if (idem && !claimDone?.committed) await this.#endClaim(ctx, idem, "done");
          return { status: 200, body: answer.body, replayed: false };
        } catch (error) {
          // The step ended with an error: the claim says so, and the same key may run it again.
          if (idem) await this.#endClaim(ctx, idem, "error").catch(() => undefined);
          throw error;
        }
      });
      if (idem) this.ledger.free(idem.scope, idem.key);
      if (purgeTags.length > 0) await purgeAfterCommit(this.env, this.purger, [...new Set(purgeTags)]);
      // Handed to the queue now; a failed send leaves the outbox rows for the alarm's scan.
      if (events.length > 0) await enqueueEvents(this.env, this.clock, request.siteId, events).catch(() => undefined);
      return { ok: true, value: result };
    } catch (error) {
      if (idem) this.ledger.free(idem.scope, idem.key);
      if (error instanceof AppError) return { ok: false, error: error.toFailure() };
      throw error;
    }
  }

  /** What a key already claimed decides (an answer without running), or undefined: run the step. */
  async #decide<I>(ctx: StepContext, idem: IdempotencyRequest, jobId: string, step: JobStepDefinition<I>): Promise<JobStepAnswer | undefined> {
    const table = step.job === "import" ? "import_jobs" : "export_jobs";
    const job = await firstRow<{ position: number }>(ctx.d1, `SELECT position FROM ${table} WHERE site_id = ? AND id = ?`, [ctx.site.id, jobId]);
    const claim = await firstRow<StepClaimRow>(
      ctx.d1,
      "SELECT fingerprint, job_id, position, state FROM job_step_claims WHERE site_id = ? AND scope = ? AND key = ? AND expires_at > ?",
      [ctx.site.id, idem.scope, idem.key, isoAt(this.clock.now())],
    );
    if (claim && (claim.fingerprint !== idem.fingerprint || claim.job_id !== jobId)) throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
    if (!claim) {
      if (!job) return undefined; // the step refuses: not_found (nothing to record)
      await this.#recordClaim(ctx, idem, jobId, job.position);
      return undefined;
    }
    const moved = job === undefined || job.position !== claim.position;
    const again = !moved && (step.rerun === "always" || claim.state === "error");
    if (again) {
      await this.#recordClaim(ctx, idem, jobId, claim.position);
      return undefined;
    }
    if (claim.state === "running" && !moved) throw new AppError("idempotency_in_progress", STALE);
    return { status: 200, body: { ...(await step.current(ctx, jobId)), replayed: true }, replayed: true };
  }

  /** The claim records the job's position before the step (spec 2, rule 5), committed before it runs. */
  async #recordClaim(ctx: StepContext, idem: IdempotencyRequest, jobId: string, position: number): Promise<void> {
    const now = this.clock.now();
    await ctx.d1.batch([
      ctx.d1.prepare("DELETE FROM job_step_claims WHERE expires_at <= ?").bind(isoAt(now)),
      ctx.d1
        .prepare(
          `INSERT INTO job_step_claims (site_id, scope, key, fingerprint, job_id, position, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)
           ON CONFLICT (site_id, scope, key) DO UPDATE SET state = 'running', position = excluded.position`,
        )
        .bind(ctx.site.id, idem.scope, idem.key, idem.fingerprint, jobId, position, isoAt(now), isoAt(now + RETENTION_DEFAULT_MS)),
    ]);
  }

  #endClaimStatement(ctx: StepContext, idem: IdempotencyRequest, state: "done" | "error"): CompiledQuery {
    return statement("UPDATE job_step_claims SET state = ? WHERE site_id = ? AND scope = ? AND key = ?", [state, ctx.site.id, idem.scope, idem.key]);
  }

  async #endClaim(ctx: StepContext, idem: IdempotencyRequest, state: "done" | "error"): Promise<void> {
    await commit(ctx.d1, [this.#endClaimStatement(ctx, idem, state)]);
  }

  async #context(request: JobStepRequest<object>, imports: boolean): Promise<StepContext> {
    const d1 = await siteScopedDatabase(this.env, request.siteId);
    const db = createDb(d1);
    const site = await findSiteById(db, request.siteId);
    if (!site) throw new AppError("not_found", "No such site.");
    const outbound = { policy: outboundPolicy(this.env), fetch: (r: Request) => fetch(r) };
    // Only advanceImport writes entries; a site without content policies reads nothing more.
    const ask = imports && this.policies ? await this.policies(request) : undefined;
    return { db, d1, scope: siteScope(site.id), site, actor: request.actor, clock: this.clock, files: this.env.MEDIA, outbound, ...(ask ? { policies: { ask, spentMs: 0 } } : {}) };
  }
}

function refusal(code: "idempotency_key_reused" | "idempotency_in_progress", message: string, details?: Record<string, unknown>): Outcome<never> {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
