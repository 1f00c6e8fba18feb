import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger, IN_PROGRESS_RETRY_AFTER_SECONDS, RETENTION_DEFAULT_MS, STALE_RUNNING_MS } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import type { LifecycleContext, WritePlan } from "../../shared/services/lifecycle";
import { seedSite } from "../helpers/fixtures";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

/**
 * Spec 2, errors: 409 `idempotency_in_progress` — "claim running (with Retry-After) or
 * stale-pending (without it)". A command that has run here longer than any command takes is stuck:
 * its claim is stale-pending, answered without Retry-After (waiting will not help, and ageing does
 * not make running it again safe, rule 3); it is never run a second time.
 */
describe("WriteRunner: running and stale-pending claims", () => {
  it("answers a running claim with Retry-After, a stuck one without, and never runs it twice", async () => {
    const s = await seedSite();
    const marker = `stuck-${Date.now()}`;
    let builds = 0;
    let unblock: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    const build = async (ctx: LifecycleContext): Promise<WritePlan<{ marker: string }>> => {
      builds++;
      await gate;
      return {
        statements: [ctx.db.updateTable("sites").set({ name: marker }).where("id", "=", ctx.site.id).compile()],
        answer: { marker },
        events: [],
        purgeTags: [],
        audit: { action: "test.stuck", targetKind: "site", targetId: ctx.site.id },
      };
    };
    const idempotency = { scope: "cred_stuck", key: "k-stuck", fingerprint: "fp-stuck", retentionMs: RETENTION_DEFAULT_MS };
    const request = { siteId: s.site.id, actor: s.admin, input: {}, idempotency };
    const outcome = await inSiteStorage(s.site.id, async (storage) => {
      const clock = new FakeClock(Date.now());
      const runner = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
      const first = runner.run(request, build, 201);
      const running = await runner.run(request, build, 201);
      clock.advance(STALE_RUNNING_MS);
      const stuck = await runner.run(request, build, 201);
      unblock();
      const done = await first;
      const replay = await runner.run(request, build, 201);
      return { running, stuck, done, replay };
    });
    expect(outcome.running).toMatchObject({ ok: false, error: { code: "idempotency_in_progress", details: { retry_after: IN_PROGRESS_RETRY_AFTER_SECONDS } } });
    expect(outcome.stuck).toMatchObject({ ok: false, error: { code: "idempotency_in_progress" } });
    expect(outcome.stuck.ok ? undefined : outcome.stuck.error.details).toBeUndefined();
    expect(outcome.done).toMatchObject({ ok: true, value: { status: 201, body: { marker }, replayed: false } });
    expect(outcome.replay).toMatchObject({ ok: true, value: { body: { marker }, replayed: true } });
    expect(builds).toBe(1);
  });
});
