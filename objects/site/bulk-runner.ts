import { AppError, type Outcome } from "../../shared/errors";
import type { Env } from "../../shared/env";
import { purgeAfterCommit, type CachePurger } from "../../shared/public/cache-purge";
import { commitPlan, type LifecycleContext, type WritePlan } from "../../shared/services/lifecycle";
import { idempotencyStatement, type CommittedEvent } from "../../shared/services/lifecycle/commit-plan";
import { BULK_ACTIONS, type BulkAction, type BulkAnswer, type BulkInput, type BulkResult, type BulkStep } from "../../shared/services/bulk/actions";
import { commit } from "../../shared/db/batch";
import type { WriteAnswer, WriteRequest } from "./commands";
import type { IdempotencyLedger } from "./idempotency";
import type { Place, WriteQueue } from "./write-queue";
import type { PolicyAsker, PolicySource, Prepared } from "./policy-step";

/**
 * What a bulk action borrows from its site's WriteRunner (write-runner.ts): the same queue, key
 * ledger, lease guard and event hand-over as every single write, so the two paths cannot drift.
 */
export interface WriteSteps {
  readonly env: Env;
  readonly queue: WriteQueue;
  readonly ledger: IdempotencyLedger;
  readonly purger: CachePurger;
  readonly policies?: PolicySource;
  claim<T>(request: WriteRequest<object>): Promise<Outcome<WriteAnswer<T>> | undefined>;
  afterFault<T>(request: WriteRequest<object>): Promise<Outcome<WriteAnswer<T>> | undefined>;
  context(request: WriteRequest<object>): Promise<LifecycleContext>;
  checkLeases(request: WriteRequest<object>, plan: WritePlan<unknown>, named?: string[]): void;
  handOver(siteId: string, ids: string[]): Promise<void>;
}

/**
 * A bulk action (docs/bulk-actions.md): one Idempotency-Key for the request, then, in the write
 * queue, each id in input order through the ordinary single-entry builders. An id's languages
 * (publish, unpublish) are all built and lease-checked before the first commits, so a refusal of
 * one language leaves the whole item unchanged; a refused id never stops the others. The answer
 * is recorded with the key once every id ran.
 *
 * Content policies (the runner's `policies`, policy-step.ts) are asked as every step's single write would ask
 * them: after the claim (a replay asks nothing) and before the queued work, the place taken on
 * arrival given up first (so a slow plugin never holds the site's other writers), per id and language; a refusal refuses that id alone with the single
 * write's code, and nothing of it is written (docs/plugin-policies.md, "Bulk actions").
 */
export async function runBulk(steps: WriteSteps, request: WriteRequest<BulkInput>, action: BulkAction): Promise<Outcome<WriteAnswer<BulkAnswer>>> {
  // The place is taken on arrival, as for a single write (WriteRunner.run); left before plugins are asked.
  const place = steps.queue.reserve();
  try {
    return await runBulkAt(steps, place, request, action);
  } finally {
    place.leave();
  }
}

async function runBulkAt(steps: WriteSteps, place: Place, request: WriteRequest<BulkInput>, action: BulkAction): Promise<Outcome<WriteAnswer<BulkAnswer>>> {
  const idem = request.idempotency;
  const early = await steps.claim<BulkAnswer>(request);
  if (early) return early;
  try {
    const ask = steps.policies ? await steps.policies(request) : undefined;
    // A site with content policies: its plugins may be asked for 25 ids (docs/write-fairness.md).
    if (ask) place.leave();
    const asked = ask ? await askBulk(steps, request, action, ask) : undefined;
    const bulkJob = async () => {
      const ctx = await steps.context(request);
      const events: CommittedEvent[] = [];
      const tags = new Set<string>();
      const results: BulkResult[] = [];
      for (const id of request.input.ids) {
        const planned = asked?.get(id);
        results.push(planned && "refusal" in planned ? refusedItem(id, [], planned.refusal) : await bulkOne(steps, ctx, request, action, id, events, tags, planned));
      }
      const answer: BulkAnswer = { action, results };
      if (idem) await commit(ctx.d1, [idempotencyStatement(ctx, { ...idem, status: 200 }, answer)]);
      return { answer, events, tags: [...tags] };
    };
    const done = await (place.open ? place.run(bulkJob) : steps.queue.run(bulkJob));
    if (idem) steps.ledger.complete(idem.scope, idem.key, { status: 200, body: JSON.stringify(done.answer) });
    const purge = await purgeAfterCommit(steps.env, steps.purger, done.tags);
    await steps.handOver(request.siteId, done.events.map((e) => e.id));
    return { ok: true, value: { status: 200, body: done.answer, replayed: false, events: done.events, purge } };
  } catch (error) {
    if (error instanceof AppError) {
      if (idem) steps.ledger.free(idem.scope, idem.key);
      return { ok: false, error: error.toFailure() };
    }
    const answered = await steps.afterFault<BulkAnswer>(request);
    if (answered) return answered;
    throw error;
  }
}

/** An id of a bulk action decided before the queue: its steps with their policies' answers, or its refusal. */
type AskedItem = { steps: BulkStep[]; prepared: Prepared<Record<string, unknown>>[] } | { refusal: AppError };

/**
 * Before the queue, on a site with content policies: each id's steps, decided on what is committed
 * now (as a single write's policy subject is), each asked of the policies. All ids at once, so the
 * plugin calls of 25 items take as long as the slowest. An id whose expansion or policies refuse
 * is answered with that refusal; the steps of the others are built again in the queue, where
 * every rule of the single route is checked on what is committed then.
 */
async function askBulk(steps: WriteSteps, request: WriteRequest<BulkInput>, action: BulkAction, ask: PolicyAsker): Promise<Map<string, AskedItem>> {
  const ctx = await steps.context(request);
  const items = await Promise.all(
    request.input.ids.map(async (id): Promise<[string, AskedItem]> => {
      try {
        const itemSteps = await BULK_ACTIONS[action](ctx, id, request.input);
        const settled = await Promise.allSettled(itemSteps.map((step) => ask(step.command, step.input)));
        // The first refused language in the item's order names the refusal, as the queue would.
        const refused = settled.find((s) => s.status === "rejected");
        if (refused) throw refused.reason;
        return [id, { steps: itemSteps, prepared: settled.map((s) => (s as PromiseFulfilledResult<Prepared<Record<string, unknown>>>).value) }];
      } catch (error) {
        if (error instanceof AppError) return [id, { refusal: error }];
        throw error;
      }
    }),
  );
  return new Map(items);
}

/** One id of a bulk action: its steps validated together, then committed one by one. */
async function bulkOne(
  runner: WriteSteps,
  ctx: LifecycleContext,
  request: WriteRequest<BulkInput>,
  action: BulkAction,
  id: string,
  events: CommittedEvent[],
  tags: Set<string>,
  asked?: { steps: BulkStep[]; prepared: Prepared<Record<string, unknown>>[] },
): Promise<BulkResult> {
  const changed: BulkResult["changed"] = [];
  const policyResults = asked ? asked.prepared.flatMap((p) => p.extra?.policy_results ?? []) : [];
  let current = 0;
  try {
    const steps = asked ? asked.steps : await BULK_ACTIONS[action](ctx, id, request.input);
    const inputs = steps.map((step, i) => asked?.prepared[i]?.input ?? step.input);
    const plans: WritePlan<unknown>[] = [];
    for (const [i, step] of steps.entries()) {
      current = i;
      const plan = await step.build(ctx, inputs[i] ?? step.input);
      runner.checkLeases(request, plan, [step.instance_id]);
      plans.push(plan);
    }
    for (const [i, step] of steps.entries()) {
      current = i;
      // The first plan was built on what is committed now; a later language is built again on
      // what the earlier ones committed (its dependents, its group's first publication).
      const plan = i === 0 ? plans[0] : await step.build(ctx, inputs[i] ?? step.input);
      if (!plan) continue;
      if (i > 0) runner.checkLeases(request, plan, [step.instance_id]);
      const committed = await commitPlan(ctx, plan);
      events.push(...committed.events);
      for (const tag of committed.purgeTags) tags.add(tag);
      changed.push({ instance_id: step.instance_id, lang: step.lang });
    }
    return { id, status: 200, changed, ...(policyResults.length > 0 ? { policy_results: policyResults } : {}) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Values a transform wrote and the save then refused: the transform was invalid (as for a single save).
    const explained = asked?.prepared[current]?.explain(error.toFailure());
    return refusedItem(id, changed, explained ?? error);
  }
}

function refusedItem(id: string, changed: BulkResult["changed"], error: AppError): BulkResult {
  return { id, status: error.status, changed, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}
