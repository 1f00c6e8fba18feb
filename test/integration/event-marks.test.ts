import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { markSql } from "../../objects/site/after-commit";
import { MARK_DELAY_MS } from "../../objects/site/sent-events";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { insertUnsentEvent, siteWithOneCreate } from "../helpers/outbox";

type Entry = { instance_id: string };
type Row = { id: string; name: string; enqueued_at: string | null };

const outbox = (siteId: string) =>
  env.DB.prepare("SELECT id, name, enqueued_at FROM outbox_events WHERE site_id = ? ORDER BY created_at, id").bind(siteId).all<Row>().then((r) => r.results);

/**
 * A write hands its events to the queue at once and leaves marking their rows to the site
 * object's alarm, which marks every sent event together (issue #14: one D1 round trip less per
 * write). The alarm is armed within MARK_DELAY_MS and marks before it resends, so a sent event is
 * not sent again; an event the queue refused stays unmarked and is resent.
 */
describe("sent events are marked together by the alarm", () => {
  it("arms the alarm within the delay, marks every write's events in one pass and resends none of them", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const started = Date.now();
    for (const title of ["One", "Two", "Three"]) {
      expect((await manage<Entry>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title } } })).status).toBe(201);
    }
    const stub = env.SITE.getByName(s.site.id);
    const alarm = await runInDurableObject(stub, (_o, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm ?? Infinity).toBeLessThanOrEqual(Date.now() + MARK_DELAY_MS);
    expect(alarm ?? 0).toBeGreaterThanOrEqual(started);

    const created = (await outbox(s.site.id)).filter((r) => r.name === "entry.created");
    expect(created).toHaveLength(3);
    // Sent, not yet marked: no write paid a round trip of its own for the mark.
    expect(created.every((r) => r.enqueued_at === null)).toBe(true);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const marked = (await outbox(s.site.id)).filter((r) => r.name === "entry.created");
    expect(marked.every((r) => r.enqueued_at !== null)).toBe(true);

    // A second pass finds nothing to send: the marks stand unchanged (a resend would stamp them anew).
    await runInDurableObject(stub, (_o, state) => state.storage.setAlarm(Date.now() + 60_000));
    await new Promise((r) => setTimeout(r, 5));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const again = (await outbox(s.site.id)).filter((r) => r.name === "entry.created");
    expect(again.map((r) => r.enqueued_at)).toEqual(marked.map((r) => r.enqueued_at));
  });

  it("keeps a committed event the alarm never saw sent unmarked until the alarm sends it", async () => {
    const { s, stub } = await siteWithOneCreate("Kept");
    await insertUnsentEvent(s.site.id, "evt_orphan_mark");
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await outbox(s.site.id);
    expect(rows.find((r) => r.id === "evt_orphan_mark")?.enqueued_at).not.toBeNull();
    expect(rows.every((r) => r.enqueued_at !== null)).toBe(true);
  });
});

describe("the mark's query", () => {
  it("finds each event by its primary key, however many are marked at once (never the site's whole outbox)", async () => {
    for (const count of [1, 10, 90]) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${markSql(count)}`)
        .bind("2026-11-24T00:00:00.000Z", "site_x", ...Array.from({ length: count }, (_, i) => `evt_${i}`))
        .all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail).join(" | ");
      expect(details).toContain("sqlite_autoindex_outbox_events_1 (id=?)");
      expect(details).not.toContain("idx_outbox_pending");
    }
  });
});
