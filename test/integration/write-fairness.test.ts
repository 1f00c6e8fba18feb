import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import type { WritePrepare } from "../../objects/site/policy-step";
import type { LifecycleContext, WritePlan } from "../../shared/services/lifecycle";
import { transitionInstallation } from "../../shared/services/plugins/installations";
import { blogModels, seedSite } from "../helpers/fixtures";
import { freshEndpoint } from "../helpers/fake-plugin";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";
import { articleCount, createArticle, type Entry } from "../helpers/policy-plugin";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";
import { tracePhasesFrom, type PhaseTrace } from "../../shared/observability/write-phases";

/**
 * Fair writes (issue #27 item 9, docs/write-fairness.md): a site's writes are admitted first come,
 * first served — the place in the queue is taken on arrival, before anything is awaited — and a
 * write that asks a plugin gives its place up so the plugin never holds the writers behind it.
 * No timing is asserted: only the order in which writes reached their queued work.
 */

/** Lets other calls run for a while (what a slow D1 read before the queue gives them). */
const others = () => new Promise<void>((resolve) => setTimeout(resolve, 30));

/** A gate the test opens. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("WriteQueue places", () => {
  it("a place taken first runs first, even when its work is given last", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const first = queue.reserve();
    const second = queue.reserve();
    const ran = second.run(async () => log.push("second"));
    await others();
    expect(log).toEqual([]);
    await Promise.all([first.run(async () => log.push("first")), ran]);
    expect(log).toEqual(["first", "second"]);
    expect(queue.depth).toBe(0);
  });

  it("a place left before its turn lets the jobs behind it go, still after the jobs before it", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const slow = gate();
    const a = queue.run(async () => {
      await slow.opened;
      log.push("a");
    });
    const left = queue.reserve();
    const c = queue.run(async () => log.push("c"));
    left.leave();
    await others();
    expect(log).toEqual([]);
    slow.open();
    await Promise.all([a, c]);
    expect(log).toEqual(["a", "c"]);
    // A left place takes no work; leaving twice is harmless.
    left.leave();
    await expect(left.run(async () => "late")).rejects.toThrow();
    expect(queue.depth).toBe(0);
  });
});

describe("WriteRunner admission", () => {
  /** A plan that changes nothing visible but commits a batch, logging when it is built. */
  const building = (log: string[], name: string) => async (ctx: LifecycleContext): Promise<WritePlan<{ name: string }>> => {
    log.push(name);
    return {
      statements: [ctx.db.updateTable("sites").set({ updated_at: new Date().toISOString() }).where("id", "=", ctx.site.id).compile()],
      answer: { name },
      events: [],
      purgeTags: [],
      audit: { action: "test.fair", targetKind: "site", targetId: ctx.site.id },
    };
  };
  const passThrough = <I>(input: I) => ({ input, extra: null, explain: () => null });

  it("admits writes in arrival order when the first one's read before the queue comes back last", async () => {
    const s = await seedSite();
    const log: string[] = [];
    const read = gate();
    // The first write's step before the queue (as the site's policy read) is slow and asks no plugin.
    const slowRead: WritePrepare<object> = async (input) => {
      await read.opened;
      return passThrough(input);
    };
    const outcomes = await inSiteStorage(`fair-order-${s.site.id}`, async (storage) => {
      const clock = new FakeClock(Date.now());
      const runner = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
      const request = { siteId: s.site.id, actor: s.admin, input: {} };
      const first = runner.run(request, building(log, "first"), 200, slowRead);
      const second = runner.run(request, building(log, "second"));
      const third = runner.run(request, building(log, "third"), 200, async (input) => passThrough(input));
      await others();
      // Nobody passed the first write while its read was out.
      expect(log).toEqual([]);
      read.open();
      return Promise.all([first, second, third]);
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(log).toEqual(["first", "second", "third"]);
  });

  it("a write that asks a plugin gives up its place: the writes behind it are not held", async () => {
    const s = await seedSite();
    const log: string[] = [];
    const plugin = gate();
    const asksPlugin: WritePrepare<object> = async (input, beforeRemote) => {
      beforeRemote?.();
      await plugin.opened;
      return passThrough(input);
    };
    const outcomes = await inSiteStorage(`fair-plugin-${s.site.id}`, async (storage) => {
      const clock = new FakeClock(Date.now());
      const runner = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
      const request = { siteId: s.site.id, actor: s.admin, input: {} };
      const first = runner.run(request, building(log, "asks a plugin"), 200, asksPlugin);
      const second = await runner.run(request, building(log, "second"));
      plugin.open();
      return [await first, second];
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(log).toEqual(["second", "asks a plugin"]);
  });
});

describe("content policies are read for every write", () => {
  it("a policy installed after a write is enforced on the next write, and one disabled is no longer asked", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    expect((await createArticle(token, models.article.id, "Before any FORBIDDEN plugin")).status).toBe(201);
    const { endpoint } = freshEndpoint();
    const manifest = testManifest({ id: "guard", name: "Guard", endpoint, content_policies: [{ id: "forbid", label: "Policy forbid", mode: "validate" }] });
    const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id] });
    const before = await articleCount(s.site.id);
    const refused = await createArticle(token, models.article.id, "A FORBIDDEN title");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "plugin_policy_refused", installation_id: plugin.id, policy_id: "forbid" });
    expect(await articleCount(s.site.id)).toBe(before);
    await transitionInstallation(s.ctx(), plugin.id, "disable");
    expect((await createArticle(token, models.article.id, "FORBIDDEN once the plugin is disabled")).status).toBe(201);
  });
});

describe("a write's phases (the write bench's tail report, BENCH_WRITE_PHASES)", () => {
  it("a write through the management API notes its phases in order, and nothing once the source is unset", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    // The worker and the site object share this runtime's isolate: one trace sees both sides.
    const trace: PhaseTrace = { marks: [] };
    tracePhasesFrom(() => trace);
    try {
      expect((await createArticle(token, models.article.id, "Written traced")).status).toBe(201);
    } finally {
      tracePhasesFrom(null);
    }
    const order = ["authenticated", "body_read", "place_reserved", "policy_read", "run_start", "batch_start", "batch_end", "queue_send", "answer"];
    // Other files' writes may run in this runtime meanwhile: the first occurrence of each phase, in order.
    const seen = order.map((phase) => trace.marks.findIndex(([name]) => name === phase));
    expect(seen.every((i) => i >= 0)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    // Names and times only: no token, header or body.
    expect(JSON.stringify(trace.marks)).not.toContain(token);
    // With the source unset (the product's state), a write notes nothing.
    const noted = trace.marks.length;
    expect((await createArticle(token, models.article.id, "Written untraced")).status).toBe(201);
    expect(trace.marks.length).toBe(noted);
  });
});

describe("between two queued writes the runtime goes round its event loop (session 17)", () => {
  it("through the management API: a timer due when a write commits fires before the next queued write starts", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    // A due timer stands for a request whose bytes reached a socket meanwhile: workerd serves both
    // only when its event loop goes round, which a site queue running write after write on the
    // one local thread never let it do (docs/write-fairness.md, "Session 17"). Order only.
    const log: string[] = [];
    class Watched extends Array<[string, number]> {
      override push(...marks: [string, number][]): number {
        for (const [phase] of marks) {
          if (phase === "run_start") log.push("run");
          if (phase === "batch_end") setTimeout(() => log.push("timer"), 0);
        }
        return super.push(...marks);
      }
    }
    const trace: PhaseTrace = { marks: new Watched() };
    // Saves, one per entry: creates queued right behind each other commit as one group (group
    // commit, objects/site/write-group.ts), saves each run at their own turn.
    const entries: Entry[] = [];
    for (const title of ["One", "Two", "Three", "Four"]) {
      const made = await createArticle(token, models.article.id, `Queued ${title}`);
      expect(made.status).toBe(201);
      entries.push(made.body);
    }
    tracePhasesFrom(() => trace);
    let answers: { status: number }[];
    try {
      answers = await Promise.all(
        entries.map((entry, i) => manage(token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { title: `Saved ${i}` } } })),
      );
    } finally {
      tracePhasesFrom(null);
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // Every write after the first started only once the timer of the one before it had fired.
    expect(log.filter((mark) => mark === "run")).toHaveLength(4);
    for (let i = 1; i < log.length; i++) if (log[i] === "run") expect(log[i - 1]).toBe("timer");
  });
});
