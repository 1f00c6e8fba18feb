import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import type { Outcome } from "../../shared/errors";
import type { WriteAnswer, WriteRequest } from "../../objects/site/commands";
import * as lifecycle from "../../shared/services/lifecycle";
import type { EntryView, LifecycleContext, WritePlan } from "../../shared/services/lifecycle";
import { addModel, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { articleCount, createArticle, setup } from "../helpers/policy-plugin";
import { tracedGroups } from "../helpers/group-trace";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

/**
 * Group commit (docs/write-fairness.md, "Group commit (session 17)"): plain creates queued right
 * behind each other in a site's write queue share one D1 batch of first reads and one of commits,
 * and each still gets exactly the answer, audit row, event and idempotency answer it would alone.
 * The writes are held behind a job at the head of the queue, so the group is what is queued.
 */

type Create = lifecycle.CreateEntryInput;
type Builder = (ctx: LifecycleContext, input: Create) => Promise<WritePlan<EntryView>>;

/** Lets other calls run for a while. */
const others = () => new Promise<void>((resolve) => setTimeout(resolve, 30));

/** The sizes of the groups committed together since the test began. */
const groups = tracedGroups();

/** A write runner of its own queue over a site object's storage (its idempotency ledger and leases). */
function runnerOver(storage: DurableObjectStorage) {
  const clock = new FakeClock(Date.now());
  const queue = new WriteQueue();
  const leases = new LeaseBook(storage, clock);
  return { queue, leases, runner: new WriteRunner(env, clock, queue, new IdempotencyLedger(storage, clock), leases) };
}

/**
 * `writes` sent to the runner of the site object `name` while a job holds the head of its queue;
 * then the job ends and their outcomes are answered. `first` runs before the queue is held.
 */
async function heldBehind<R>(name: string, writes: (runner: WriteRunner, leases: LeaseBook) => Promise<R>[], first?: (runner: WriteRunner) => Promise<void>): Promise<R[]> {
  return inSiteStorage(name, async (storage) => {
    const { queue, leases, runner } = runnerOver(storage);
    await first?.(runner);
    let open: () => void = () => undefined;
    const held = queue.run(() => new Promise<void>((resolve) => (open = resolve)));
    const sent = writes(runner, leases);
    await others();
    open();
    await held;
    return Promise.all(sent);
  });
}

function createRequest(s: SeededSite, input: Create, key?: string): WriteRequest<Create> {
  return { siteId: s.site.id, actor: s.admin, input, ...(key ? { idempotency: { scope: "group-test", key, fingerprint: `fp-${key}`, retentionMs: 60_000 } } : {}) };
}

/** A grouped create, as the site object sends `createEntry` (command-registry.ts GROUPED_COMMANDS). */
function create(runner: WriteRunner, request: WriteRequest<Create>, build: Builder = lifecycle.createEntry) {
  return runner.run(request, build, 201, undefined, true);
}

function ok(outcome: Outcome<WriteAnswer<EntryView>>): WriteAnswer<EntryView> {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}`);
  return outcome.value;
}

function code(outcome: Outcome<unknown>): string {
  return outcome.ok ? "ok" : outcome.error.code;
}

async function rows(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare(sql).bind(...params).all<Record<string, unknown>>()).results;
}

describe("group commit of plain creates", () => {
  it("grouped creates each get their own answer, audit row, event and idempotency answer (replayed)", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const requests = [0, 1, 2, 3, 4].map((i) => createRequest(s, { model_id: article.id, fields: { title: `Grouped ${i}` } }, `grouped-${i}-${s.site.id}`));
    const name = `group-own-${s.site.id}`;
    const outcomes = await heldBehind(name, (runner) => requests.map((r) => create(runner, r)));
    // A retry of each key, to the same object (its ledger holds the answers).
    const replays = await inSiteStorage(name, (storage) => Promise.all(requests.map((r) => create(runnerOver(storage).runner, r))));
    expect(groups()).toEqual([5]);
    const answers = outcomes.map(ok);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.map((a) => a.body.fields.title)).toEqual(["Grouped 0", "Grouped 1", "Grouped 2", "Grouped 3", "Grouped 4"]);
    const ids = answers.map((a) => a.body.instance_id);
    expect(new Set(ids).size).toBe(5);
    for (const [i, id] of ids.entries()) {
      expect(await rows("SELECT action FROM audit_log WHERE site_id = ? AND target_id = ?", s.site.id, id)).toEqual([{ action: "entry.create" }]);
      const events = await rows("SELECT id, name, payload FROM outbox_events WHERE site_id = ? AND name = 'entry.created' AND json_extract(payload, '$.instance_id') = ?", s.site.id, id);
      expect(events.map((e) => e.id)).toEqual(answers[i]?.events.map((e) => e.id));
      const stored = await rows("SELECT status, body FROM idempotency_results WHERE site_id = ? AND scope = 'group-test' AND key = ?", s.site.id, `grouped-${i}-${s.site.id}`);
      expect(stored.map((r) => [r.status, (JSON.parse(String(r.body)) as EntryView).instance_id])).toEqual([[201, id]]);
    }
    // A retry of each key is its own first answer, replayed.
    expect(replays.map((r) => ok(r).replayed)).toEqual([true, true, true, true, true]);
    expect(replays.map((r) => ok(r).body.instance_id)).toEqual(ids);
  });

  it("a group is bounded (12) and only what is queued: 14 creates commit as 12 then 2", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const outcomes = await heldBehind(`group-bound-${s.site.id}`, (runner) =>
      Array.from({ length: 14 }, (_, i) => create(runner, createRequest(s, { model_id: article.id, fields: { title: `Bounded ${i}` } }))),
    );
    expect(outcomes.map(code)).toEqual(Array(14).fill("ok"));
    expect(groups()).toEqual([12, 2]);
    expect(await articleCount(s.site.id)).toBe(14);
  });

  it("a duplicate slug in a group: the batch is refused, each create runs again alone and gets its true answer", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const outcomes = await heldBehind(`group-slug-${s.site.id}`, (runner) => [
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Alpha" } })),
      create(runner, createRequest(s, { model_id: article.id, slug: "same", fields: { title: "First same" } })),
      create(runner, createRequest(s, { model_id: article.id, slug: "same", fields: { title: "Second same" } })),
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Delta" } })),
    ]);
    expect(groups()).toEqual([4]);
    expect(outcomes.map(code)).toEqual(["ok", "ok", "slug_taken", "ok"]);
    const holder = ok(outcomes[1] as Outcome<WriteAnswer<EntryView>>).body.instance_id;
    // The refusal alone would have named the holder: the first create of the slug.
    expect(outcomes[2]).toMatchObject({ ok: false, error: { code: "slug_taken", details: { slug: "same", instance_id: holder } } });
    expect(await articleCount(s.site.id)).toBe(3);
    expect(await rows("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'entry.create'", s.site.id)).toEqual([{ n: 3 }]);
    expect(await rows("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'entry.created'", s.site.id)).toEqual([{ n: 3 }]);
  });

  it("a duplicate unique value: the create that must read is not grouped, and is refused as alone", async () => {
    const s = await seedSite();
    const product = await addModel(s.ctx(), {
      slug: "product",
      name: "Product",
      fields: [
        { key: "title", label: "Title", type: "text", title: true },
        { key: "sku", label: "SKU", type: "text", unique: "model" },
      ],
    });
    const outcomes = await heldBehind(`group-unique-${s.site.id}`, (runner) =>
      [
        ["One", "a1"],
        ["Two", "a1"],
        ["Three", "b2"],
      ].map(([title, sku]) => create(runner, createRequest(s, { model_id: product.id, fields: { title, sku } }))),
    );
    expect(outcomes.map(code)).toEqual(["ok", "field_validation_failed", "ok"]);
    expect(await articleCount(s.site.id)).toBe(2);
  });

  it("keeps arrival order: a save queued between creates splits them, and runs between them", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const log: string[] = [];
    const logged =
      (build: Builder): Builder =>
      (ctx, input) => {
        log.push(String(input.fields.title));
        return build(ctx, input);
      };
    let existing: EntryView | undefined;
    const outcomes = await heldBehind(
      `group-order-${s.site.id}`,
      (runner) => {
        const entry = existing as EntryView;
        const save: lifecycle.SaveDraftInput = { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields: { title: "Saved" } };
        return [
          create(runner, createRequest(s, { model_id: article.id, fields: { title: "A" } }), logged(lifecycle.createEntry)),
          runner.run({ siteId: s.site.id, actor: s.admin, input: save }, async (ctx, input: lifecycle.SaveDraftInput) => {
            log.push("save");
            return lifecycle.saveDraft(ctx, input);
          }),
          create(runner, createRequest(s, { model_id: article.id, fields: { title: "B" } }), logged(lifecycle.createEntry)),
          create(runner, createRequest(s, { model_id: article.id, fields: { title: "C" } }), logged(lifecycle.createEntry)),
        ];
      },
      async (runner) => {
        existing = ok(await create(runner, createRequest(s, { model_id: article.id, fields: { title: "Existing" } }))).body;
        log.length = 0;
      },
    );
    expect(outcomes.map(code)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(log).toEqual(["A", "save", "B", "C"]);
    // A alone (the save is right behind it), B and C together.
    expect(groups()).toEqual([2]);
  });

  it("a create that needs reads of its own (a relation) runs at its own place, heading the creates behind it", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const writer = await lifecycle.commitPlan(s.ctx(), await lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const outcomes = await heldBehind(`group-reads-${s.site.id}`, (runner) => [
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Plain" } })),
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Linked", author: writer.answer.instance_id } })),
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Plain too" } })),
    ]);
    expect(outcomes.map(code)).toEqual(["ok", "ok", "ok"]);
    expect(ok(outcomes[1] as Outcome<WriteAnswer<EntryView>>).body.fields.author).toBe(writer.answer.instance_id);
    // The plain create committed alone (the linked one behind it was cut), then the linked one headed a group of two.
    expect(groups()).toEqual([2]);
  });

  it("the editing-lease guard still refuses in a group; the others commit", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const held = "ent_held_by_someone_else";
    const guarded: Builder = async (ctx, input) => ({ ...(await lifecycle.createEntry(ctx, input)), locks: [held] });
    const outcomes = await heldBehind(`group-lease-${s.site.id}`, (runner, leases) => {
      leases.acquire({ resource: held, holder: "someone-else" });
      return [
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Free one" } })),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Locked one" } }), guarded),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Free two" } })),
      ];
    });
    expect(outcomes.map(code)).toEqual(["ok", "locked", "ok"]);
    expect(groups()).toEqual([2]);
    expect(await articleCount(s.site.id)).toBe(2);
  });

  it("a grouped batch that faults: it wrote nothing, so each create runs again alone — only the faulty one fails", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    // A plan whose batch fails with a fault (not a refusal) when it commits.
    const faulty: Builder = async (ctx, input) => {
      const plan = await lifecycle.createEntry(ctx, input);
      const broken = { ...ctx.db.insertInto("batch_guards").values({ reason: "x" }).compile(), sql: "INSERT INTO no_such_table (x) VALUES (1)", parameters: [] };
      return { ...plan, statements: [...plan.statements, broken] };
    };
    const settled = await heldBehind(`group-fault-${s.site.id}`, (runner) =>
      [
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Sound one" } })),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Faulty" } }), faulty),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Sound two" } })),
      ].map((p) => p.then(code, () => "fault")),
    );
    expect(groups()).toEqual([3]);
    expect(settled).toEqual(["ok", "fault", "ok"]);
    const titles = await rows("SELECT label FROM entries WHERE site_id = ? ORDER BY label", s.site.id);
    expect(titles).toEqual([{ label: "Sound one" }, { label: "Sound two" }]);
  });
});

describe("group commit when a member faults around the commit", () => {
  /** A create whose answer throws on its `from`-th read: the first read builds the batch, the second follows the commit (write-runner-fault.test.ts). */
  const answerFaultsOnRead =
    (from: number): Builder =>
    async (ctx, input) => {
      const plan = await lifecycle.createEntry(ctx, input);
      const answer = plan.answer;
      let reads = 0;
      return {
        ...plan,
        get answer() {
          reads++;
          if (reads >= from) throw new Error("connection reset");
          return answer;
        },
      };
    };

  it("a fault after the grouped batch committed (one member's answer lost): no member is written twice, the others answer as alone", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const outcomes = await heldBehind(`group-late-fault-${s.site.id}`, (runner) => [
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Head" } }, `late-0-${s.site.id}`)),
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Lost" } }, `late-1-${s.site.id}`), answerFaultsOnRead(2)),
      create(runner, createRequest(s, { model_id: article.id, fields: { title: "Tail" } }, `late-2-${s.site.id}`)),
    ]);
    // Each create is in the store once: the grouped batch wrote all three, and nothing ran again.
    expect(await rows("SELECT label, count(*) AS n FROM entries WHERE site_id = ? GROUP BY label ORDER BY label", s.site.id)).toEqual([
      { label: "Head", n: 1 },
      { label: "Lost", n: 1 },
      { label: "Tail", n: 1 },
    ]);
    // The head and the tail answer their own commit; the member whose answer was lost answers from its key (rule 3), as alone.
    expect(outcomes.map((o) => (o.ok ? o.value.replayed : o.error.code))).toEqual([false, true, false]);
    expect(outcomes.map((o) => ok(o).body.fields.title)).toEqual(["Head", "Lost", "Tail"]);
    expect(groups()).toEqual([3]);
  });

  it("a member whose batch cannot be built (a fault before the commit) fails alone: the head and the others commit", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const settled = await heldBehind(`group-plan-fault-${s.site.id}`, (runner) =>
      [
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Head" } })),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Unplanned" } }), answerFaultsOnRead(1)),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Tail" } })),
      ].map((p) => p.then(code, () => "fault")),
    );
    expect(settled).toEqual(["ok", "fault", "ok"]);
    expect(await rows("SELECT label FROM entries WHERE site_id = ? ORDER BY label", s.site.id)).toEqual([{ label: "Head" }, { label: "Tail" }]);
  });
  it("a head whose build throws a fault (not a refusal) fails alone: it frees its key, the creates behind it commit as a group", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const broken: Builder = async () => {
      throw new TypeError("a bug in the builder");
    };
    const key = `head-fault-${s.site.id}`;
    const name = `group-head-fault-${s.site.id}`;
    const settled = await heldBehind(name, (runner) =>
      [
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Broken head" } }, key), broken),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Rider one" } })),
        create(runner, createRequest(s, { model_id: article.id, fields: { title: "Rider two" } })),
      ].map((p) => p.then(code, (error: unknown) => (error instanceof TypeError ? "fault" : "other"))),
    );
    expect(settled).toEqual(["fault", "ok", "ok"]);
    expect(groups()).toEqual([2]);
    expect(await rows("SELECT label FROM entries WHERE site_id = ? ORDER BY label", s.site.id)).toEqual([{ label: "Rider one" }, { label: "Rider two" }]);
    // Its key was freed (nothing was written): the corrected retry runs.
    const retry = await inSiteStorage(name, (storage) => create(runnerOver(storage).runner, createRequest(s, { model_id: article.id, fields: { title: "Broken head" } }, key)));
    expect(ok(retry)).toMatchObject({ status: 201, replayed: false });
  });
});

describe("group commit through the management API", () => {
  it("concurrent creates each answer 201 with their own entry, and each key replays its own answer", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const keys = Array.from({ length: 8 }, (_, i) => `api-group-${i}-${s.site.id}`);
    const send = () => Promise.all(keys.map((key, i) => manage<EntryView>(token, "POST", "/entries", { key, body: { model_id: article.id, fields: { title: `Concurrent ${i}` } } })));
    const first = await send();
    expect(first.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(first.map((r) => r.body.fields.title)).toEqual(keys.map((_, i) => `Concurrent ${i}`));
    expect(new Set(first.map((r) => r.body.instance_id)).size).toBe(8);
    const again = await send();
    expect(again.map((r) => r.body.instance_id)).toEqual(first.map((r) => r.body.instance_id));
    expect(again.every((r) => (r.body as EntryView & { replayed?: boolean }).replayed === true)).toBe(true);
    // The first create runs alone while the others arrive at the object; they commit as a group.
    expect(Math.max(0, ...groups())).toBeGreaterThan(1);
    expect(await articleCount(s.site.id)).toBe(8);
  });

  it("content-policy refusals still hold for concurrent creates: the refused write nothing, the others commit", async () => {
    const { s, models, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const titles = ["Fine 1", "A FORBIDDEN one", "Fine 2", "Another FORBIDDEN", "Fine 3"];
    const answers = await Promise.all(titles.map((title) => createArticle(token, models.article.id, title)));
    expect(answers.map((a) => a.status)).toEqual([201, 422, 201, 422, 201]);
    expect(answers[1]?.body.error.code).toBe("plugin_policy_refused");
    expect(await articleCount(s.site.id)).toBe(3);
  });
});
