import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { ScheduleRunner } from "../../objects/site/schedule-runner";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

/**
 * Issue #27 item 2 (docs/scheduled-publishing.md): a publish or unpublish of one language or all,
 * at a time, pinning the versions; the site object's alarm fires it; a pinned version that moved
 * ends the schedule as `scheduled_target_stale` (event, audit, visible on the entry).
 */

type Err = { error: { code: string; [k: string]: unknown } };
type Schedule = { id: string; state: string; at: string; revision: number; outcome_code: string | null; pins: { instance_id: string; lang: string; version_id: string }[] };
type Entry = { instance_id: string; current_version_id: string; published_version_id: string | null; workflow: { state: string }; schedules?: { id: string; state: string; outcome_code: string | null }[] };
const HOUR = 60 * 60 * 1000;

interface Fixture {
  s: SeededSite;
  token: string;
  article: string;
}

async function fixture(): Promise<Fixture> {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  return { s, token: await credential(s), article: article.id };
}

let n = 0;
async function article(f: Fixture, fr = false): Promise<{ en: Entry; fr?: Entry }> {
  const en = await manage<Entry>(f.token, "POST", "/entries", { body: { model_id: f.article, slug: `s-${n++}`, fields: { title: "Scheduled" } } });
  expect(en.status).toBe(201);
  if (!fr) return { en: en.body };
  const other = await manage<Entry>(f.token, "POST", `/entries/${en.body.instance_id}/languages`, { body: { lang: "fr", slug: `s-fr-${n++}`, fields: { title: "Programmé" } } });
  return { en: en.body, fr: other.body };
}

const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
const getEntry = async (f: Fixture, id: string) => (await manage<Entry>(f.token, "GET", `/entries/${id}`)).body;
const schedule = async (f: Fixture, id: string) => (await manage<{ data: Schedule[] }>(f.token, "GET", `/schedules?entry_id=${id}`)).body.data;

/** Runs the site's schedules as its alarm would at `at` (test/helpers/time.ts's FakeClock), over a storage of its own. */
function fireAt(f: Fixture, at: number): Promise<number | null> {
  return inSiteStorage(`${f.s.site.id}-schedules-${at}`, (storage) => {
    const clock = new FakeClock(at);
    const writes = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
    return new ScheduleRunner(storage, clock, env, writes).run(f.s.site.id);
  });
}

describe("scheduled publishing", () => {
  it("publishes every language at its time with the pinned versions, not before; the alarm is set for it", async () => {
    const f = await fixture();
    const { en, fr } = await article(f, true);
    const at = inHours(1);
    const created = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: "scheduled", at, revision: 0 });
    expect(created.body.pins.map((p) => [p.lang, p.version_id]).sort()).toEqual([["en", en.current_version_id], ["fr", fr?.current_version_id]].sort());

    // The site's own alarm: nothing due yet; it then rings at the schedule's time.
    const stub = env.SITE.getByName(f.s.site.id);
    // (The object may have rung on its own a moment earlier: then there is nothing to run now.)
    await runDurableObjectAlarm(stub);
    expect((await schedule(f, en.instance_id))[0]?.state).toBe("scheduled");
    const alarmAt = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarmAt).toBeLessThanOrEqual(Date.parse(at));

    expect(await fireAt(f, Date.parse(at) - 1000)).toBe(Date.parse(at));
    expect((await getEntry(f, en.instance_id)).published_version_id).toBeNull();
    await fireAt(f, Date.parse(at) + 1000);
    const done = (await schedule(f, en.instance_id))[0];
    expect(done).toMatchObject({ state: "done", outcome_code: null });
    expect((await getEntry(f, en.instance_id)).published_version_id).toBe(en.current_version_id);
    expect((await getEntry(f, fr?.instance_id ?? "")).published_version_id).toBe(fr?.current_version_id);
    expect((await publicGet(f.s.host, `/v1/article/s-${n - 2}`)).status).toBe(200);
    const events = await env.DB.prepare("SELECT name FROM outbox_events WHERE site_id = ? AND name IN ('entry.published', 'schedule.fired') ORDER BY name").bind(f.s.site.id).all<{ name: string }>();
    expect(events.results.map((e) => e.name)).toEqual(["entry.published", "entry.published", "schedule.fired"]);
  });

  it("ends as scheduled_target_stale when the pinned version moved: nothing published, event and audit, visible on the entry", async () => {
    const f = await fixture();
    const { en } = await article(f);
    const at = inHours(2);
    const created = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at, language_only: true, expected_version_id: en.current_version_id } });
    expect(created.status).toBe(201);
    // A newer draft after scheduling: the schedule pinned the older one.
    expect((await manage(f.token, "PUT", `/entries/${en.instance_id}`, { body: { expected_version_id: en.current_version_id, fields: { summary: "later edit" } } })).status).toBe(200);
    await fireAt(f, Date.parse(at) + 1000);
    const after = await getEntry(f, en.instance_id);
    expect(after.published_version_id).toBeNull();
    expect(after.schedules).toEqual([{ id: created.body.id, action: "publish", at, state: "stale", outcome_code: "scheduled_target_stale" }]);
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'schedule.stale'").bind(f.s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ schedule_id: created.body.id, code: "scheduled_target_stale", stale: [{ instance_id: en.instance_id, pinned_version_id: en.current_version_id }] });
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE site_id = ? AND target_id = ?").bind(f.s.site.id, created.body.id).all<{ action: string }>();
    expect(audit.results.map((a) => a.action)).toEqual(["schedule.create", "schedule.stale"]);

    // Re-pinned after the edit, it publishes the new draft.
    const moved = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at } });
    const repinned = await manage<Schedule>(f.token, "PUT", `/schedules/${moved.body.id}`, { body: { expected_revision: 0, repin: true } });
    expect(repinned.status).toBe(200);
    await fireAt(f, Date.parse(at) + 2000);
    expect((await getEntry(f, en.instance_id)).published_version_id).toBe(after.current_version_id);
  });

  it("fires from the site object's own alarm once due, and schedules an unpublish of every language", async () => {
    const f = await fixture();
    const { en } = await article(f);
    const first = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: inHours(1) } });
    // Its time comes (moved in D1); the next schedule made tells the object to look again.
    await env.DB.prepare("UPDATE schedules SET at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), first.body.id).run();
    const other = await article(f);
    expect((await manage(f.token, "POST", "/schedules", { body: { entry_id: other.en.instance_id, action: "publish", at: inHours(5) } })).status).toBe(201);
    await runDurableObjectAlarm(env.SITE.getByName(f.s.site.id));
    // (An alarm the object rang on its own may still be finishing: at most 3 s.)
    for (let i = 0; i < 30 && (await getEntry(f, en.instance_id)).workflow.state !== "published"; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await getEntry(f, en.instance_id)).workflow.state).toBe("published");
    expect((await getEntry(f, other.en.instance_id)).workflow.state).toBe("draft");

    const unpublishAt = inHours(3);
    const down = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "unpublish", at: unpublishAt } });
    expect(down.status).toBe(201);
    expect(down.body.pins).toEqual([{ instance_id: en.instance_id, lang: "en", version_id: en.current_version_id }]);
    await fireAt(f, Date.parse(unpublishAt) + 1000);
    expect((await getEntry(f, en.instance_id)).workflow.state).toBe("unpublished");
  });

  it("an item in Trash: its schedules are kept but not moved — a change is refused as a new schedule is (409 entry_in_trash), a cancel allowed; one left ends stale when due (probe finding)", async () => {
    const f = await fixture();
    const { en, fr } = await article(f, true);
    const at = inHours(2);
    const kept = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at } });
    const dropped = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: inHours(3) } });
    const frOnly = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: fr?.instance_id, action: "publish", at: inHours(3), language_only: true } });
    expect([kept.status, dropped.status, frOnly.status]).toEqual([201, 201, 201]);
    // One language to Trash: its own schedule cannot move; the item's can be re-pinned to the language left.
    expect((await manage(f.token, "POST", `/entries/${fr?.instance_id}/trash`, { body: { language_only: true } })).status).toBe(200);
    const frMoved = await manage<Err>(f.token, "PUT", `/schedules/${frOnly.body.id}`, { body: { expected_revision: 0, at: inHours(4) } });
    expect([frMoved.status, frMoved.body.error.code]).toEqual([409, "entry_in_trash"]);
    const partly = await manage<Err>(f.token, "PUT", `/schedules/${dropped.body.id}`, { body: { expected_revision: 0, at: inHours(4) } });
    expect([partly.status, partly.body.error.code]).toEqual([409, "entry_in_trash"]);
    const repinned = await manage<Schedule>(f.token, "PUT", `/schedules/${dropped.body.id}`, { body: { expected_revision: 0, repin: true } });
    expect([repinned.status, repinned.body.pins.map((p) => p.lang)]).toEqual([200, ["en"]]);

    // The whole item to Trash: a new schedule and a change (time or re-pin) are the same refusal.
    expect((await manage(f.token, "POST", `/entries/${en.instance_id}/trash`, { body: {} })).status).toBe(200);
    const created = await manage<Err>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at } });
    expect([created.status, created.body.error.code]).toEqual([409, "entry_in_trash"]);
    for (const body of [{ expected_revision: 0, at: inHours(5) }, { expected_revision: 0, repin: true }]) {
      const moved = await manage<Err>(f.token, "PUT", `/schedules/${kept.body.id}`, { body });
      expect([JSON.stringify(body), moved.status, moved.body.error.code]).toEqual([JSON.stringify(body), 409, "entry_in_trash"]);
    }
    expect((await manage<Schedule>(f.token, "POST", `/schedules/${dropped.body.id}/cancel`, { body: {} })).body.state).toBe("cancelled");
    // Kept and due while in Trash: nothing is published, the schedule ends stale.
    await fireAt(f, Date.parse(at) + 1000);
    const ended = (await manage<{ data: Schedule[] }>(f.token, "GET", "/schedules?state=stale")).body.data.find((x) => x.id === kept.body.id);
    expect([ended?.state, ended?.outcome_code]).toEqual(["stale", "scheduled_target_stale"]);
    const row = await env.DB.prepare("SELECT published_version_id FROM entries WHERE instance_id = ?").bind(en.instance_id).first<{ published_version_id: string | null }>();
    expect(row?.published_version_id).toBeNull();
  });

  it("changes, cancels, lists and lays out a calendar; refuses past times, finished schedules and missing scopes", async () => {
    const f = await fixture();
    const { en } = await article(f);
    const past = await manage<Err>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: new Date(Date.now() - HOUR).toISOString() } });
    expect([past.status, past.body.error.code]).toEqual([422, "schedule_time_past"]);
    const nothing = await manage<Err>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "unpublish", at: inHours(1) } });
    expect([nothing.status, nothing.body.error.code]).toEqual([422, "transition_unavailable"]);
    const readOnly = await credential(f.s, ["content:read"]);
    expect((await manage<Err>(readOnly, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: inHours(1) } })).body.error.code).toBe("insufficient_scope");

    const day = new Date(Date.now() + 48 * HOUR);
    day.setUTCHours(9, 0, 0, 0);
    const a = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: day.toISOString() } });
    const b = await manage<Schedule>(f.token, "POST", "/schedules", { body: { entry_id: en.instance_id, action: "publish", at: new Date(day.getTime() + 24 * HOUR).toISOString() } });
    const stale = await manage<Err>(f.token, "PUT", `/schedules/${a.body.id}`, { body: { expected_revision: 5, at: inHours(3) } });
    expect([stale.status, stale.body.error.code]).toEqual([409, "workflow_conflict"]);
    const later = new Date(day.getTime() + 2 * HOUR).toISOString();
    const changed = await manage<Schedule>(f.token, "PUT", `/schedules/${a.body.id}`, { body: { expected_revision: 0, at: later } });
    expect(changed.body).toMatchObject({ at: later, revision: 1 });
    const cancelled = await manage<Schedule>(f.token, "POST", `/schedules/${b.body.id}/cancel`, { body: {} });
    expect(cancelled.body.state).toBe("cancelled");
    const again = await manage<Err>(f.token, "POST", `/schedules/${b.body.id}/cancel`, { body: {} });
    expect([again.status, again.body.error.code]).toEqual([409, "schedule_not_pending"]);

    const listed = await manage<{ data: Schedule[] }>(f.token, "GET", "/schedules?state=scheduled");
    expect(listed.body.data.map((s) => s.id)).toEqual([a.body.id]);
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const calendar = await manage<{ days: { date: string; schedules: Schedule[] }[] }>(f.token, "GET", `/schedules/calendar?from=${date(Date.now())}&to=${date(Date.now() + 7 * 24 * HOUR)}`);
    expect(calendar.status).toBe(200);
    expect(calendar.body.days).toEqual([
      { date: date(day.getTime()), schedules: [expect.objectContaining({ id: a.body.id, state: "scheduled" })] },
      { date: date(day.getTime() + 24 * HOUR), schedules: [expect.objectContaining({ id: b.body.id, state: "cancelled" })] },
    ]);
    const tooLong = await manage<Err>(f.token, "GET", `/schedules/calendar?from=2026-01-01&to=2026-06-01`);
    expect(tooLong.status).toBe(400);
    // A credential limited to another model sees none of them.
    const { category } = { category: (await manage<{ data: { id: string; slug: string }[] }>(f.token, "GET", "/models")).body.data.find((m) => m.slug === "category")?.id ?? "" };
    const narrow = await credential(f.s, ["content:read"], [category]);
    expect((await manage<{ data: Schedule[] }>(narrow, "GET", "/schedules")).body.data).toEqual([]);
  });
});
