import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WriteQueue } from "../../objects/site/write-queue";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("WriteQueue", () => {
  it("runs jobs strictly in arrival order, never interleaved", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const job = (name: string, delayMs: number) => async () => {
      log.push(`start ${name}`);
      await sleep(delayMs);
      log.push(`end ${name}`);
      return name;
    };
    // The first job is the slowest: without the queue, b and c would finish before a.
    const results = Promise.all([queue.run(job("a", 30)), queue.run(job("b", 5)), queue.run(job("c", 15))]);
    expect(queue.depth).toBe(3);
    expect(await results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    await sleep(0);
    expect(queue.depth).toBe(0);
  });

  it("does not start a job before the previous one settles, even if queued from inside it", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    let inner: Promise<void> | undefined;
    await queue.run(async () => {
      inner = queue.run(async () => {
        log.push("inner");
      });
      await sleep(5);
      log.push("outer done");
    });
    await inner;
    expect(log).toEqual(["outer done", "inner"]);
  });

  it("survives failing jobs: the failure reaches only its caller and the chain continues", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const first = queue.run(async () => {
      await sleep(5);
      log.push("first");
      return 1;
    });
    const failing = queue.run(async () => {
      await sleep(1);
      log.push("failing");
      throw new Error("boom");
    });
    const throwingSync = queue.run(() => {
      log.push("sync throw");
      throw new Error("sync boom");
    });
    const last = queue.run(async () => {
      log.push("last");
      return 4;
    });
    const settled = await Promise.allSettled([first, failing, throwingSync, last]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    await expect(failing).rejects.toThrow("boom");
    await expect(throwingSync).rejects.toThrow("sync boom");
    expect(await last).toBe(4);
    expect(log).toEqual(["first", "failing", "sync throw", "last"]);
    expect(await queue.run(async () => "after")).toBe("after");
    expect(queue.depth).toBe(0);
  });
});

describe("WriteQueue between jobs", () => {
  // A timer that comes due while a job runs stands for a request whose bytes reached a socket
  // meanwhile: workerd serves both only when its event loop goes round (docs/write-fairness.md,
  // "Session 17"). Order only, no timing.
  it("lets the event loop go round between two queued jobs", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const first = queue.run(async () => {
      setTimeout(() => log.push("timer"), 0);
      log.push("a");
    });
    const second = queue.run(async () => log.push("b"));
    const third = queue.run(async () => {
      setTimeout(() => log.push("timer after b"), 0);
      log.push("c");
    });
    await Promise.all([first, second, third]);
    expect(log).toEqual(["a", "timer", "b", "c"]);
    await sleep(0);
    expect(log).toEqual(["a", "timer", "b", "c", "timer after b"]);
  });

  it("hands a job its result before the next job's turn, and starts a job at an idle queue at once", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    setTimeout(() => log.push("timer"), 0);
    const idle = queue.run(async () => log.push("idle job"));
    const behind = queue.run(async () => log.push("behind"));
    await idle.then(() => log.push("answered"));
    expect(log).toEqual(["idle job", "answered"]);
    await behind;
    expect(log).toEqual(["idle job", "answered", "timer", "behind"]);
  });

  it("a place left unused hands over without a turn of the event loop", async () => {
    const queue = new WriteQueue();
    const log: string[] = [];
    const left = queue.reserve();
    const next = queue.run(async () => log.push("next"));
    setTimeout(() => log.push("timer"), 0);
    left.leave();
    await next;
    expect(log).toEqual(["next"]);
  });
});

describe("WriteQueue inside a Durable Object", () => {
  it("keeps jobs that await D1 from interleaving", async () => {
    await runInDurableObject(env.SITE.getByName("test-queue-d1"), async () => {
      const queue = new WriteQueue();
      const log: string[] = [];
      const job = (name: string, rounds: number) => async () => {
        log.push(`start ${name}`);
        for (let i = 0; i < rounds; i++) await env.DB.prepare("SELECT ? AS n").bind(i).first();
        log.push(`end ${name}`);
      };
      await Promise.all([queue.run(job("a", 3)), queue.run(job("b", 1)), queue.run(job("c", 2))]);
      expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    });
  });
});
