import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger, RETENTION_DEFAULT_MS } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import type { LifecycleContext, WritePlan } from "../../shared/services/lifecycle";
import { systemClock } from "../../shared/clock";
import { seedSite } from "../helpers/fixtures";
import { inSiteStorage } from "../helpers/site-storage";

/**
 * Spec 2, idempotency rule 3: a one-batch command whose batch committed but whose answer was lost
 * to a fault is answered from what it wrote (`replayed: true`), and its retry writes nothing more.
 * The fault is simulated by a plan whose answer can be read for the batch and then throws.
 */
describe("WriteRunner after a fault that follows the commit", () => {
  it("answers from what the batch wrote and keeps the key, so the retry replays", async () => {
    const s = await seedSite();
    const marker = `fault-${Date.now()}`;
    let builds = 0;
    const build = async (ctx: LifecycleContext): Promise<WritePlan<{ marker: string }>> => {
      builds++;
      let reads = 0;
      const plan: WritePlan<{ marker: string }> = {
        statements: [ctx.db.updateTable("sites").set({ name: marker }).where("id", "=", ctx.site.id).compile()],
        get answer() {
          // commitPlan reads the answer once to build the batch's idempotency row, then once after commit.
          reads++;
          if (reads > 1) throw new Error("connection reset after commit");
          return { marker };
        },
        events: [],
        purgeTags: [],
        audit: { action: "test.fault", targetKind: "site", targetId: ctx.site.id },
      };
      return plan;
    };
    const idempotency = { scope: "cred_fault", key: "k-fault", fingerprint: "fp-fault", retentionMs: RETENTION_DEFAULT_MS };
    const request = { siteId: s.site.id, actor: s.admin, input: {}, idempotency };
    const outcome = await inSiteStorage(s.site.id, async (storage) => {
      const runner = new WriteRunner(env, systemClock, new WriteQueue(), new IdempotencyLedger(storage, systemClock), new LeaseBook(storage, systemClock));
      const first = await runner.run(request, build, 201);
      const retry = await runner.run(request, build, 201);
      return { first, retry };
    });
    expect(outcome.first).toMatchObject({ ok: true, value: { status: 201, body: { marker }, replayed: true } });
    expect(outcome.retry).toMatchObject({ ok: true, value: { status: 201, body: { marker }, replayed: true } });
    expect(builds).toBe(1);
    const audits = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND action = 'test.fault'").bind(s.site.id).first<{ n: number }>();
    expect(audits?.n).toBe(1);
  });
});
