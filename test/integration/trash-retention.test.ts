import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { TrashRetention } from "../../objects/site/trash-retention";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import { TRASH_PURGE_BATCH } from "../../shared/services/lifecycle/trash-retention";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

/**
 * Spec 3, States (Trash) and Limits ("Trash retention: 30 days"); docs/trash-retention.md: the site
 * object's alarm deletes Trash older than the window for good, in bounded batches, each item with
 * relation rows of either side, media usage, an audit row and an event; `trash_days` only shortens;
 * a language in Trash blocks adding it again; restore shows busy addresses and broken links first
 * and needs delete on the model.
 */

type Err = { error: { code: string; [k: string]: unknown } };
const DAY = 24 * 60 * 60 * 1000;

interface Fixture {
  s: SeededSite;
  token: string;
  article: string;
  category: string;
}

async function fixture(settings?: Record<string, unknown>): Promise<Fixture> {
  const s = await seedSite(settings ? { settings } : {});
  const { article, category } = await blogModels(s.ctx());
  return { s, token: await credential(s), article: article.id, category: category.id };
}

let n = 0;
async function entry(f: Fixture, model: "article" | "category", fields: Record<string, unknown>, slug = `t-${n++}`): Promise<string> {
  const created = await manage<{ instance_id: string }>(f.token, "POST", "/entries", { body: { model_id: model === "article" ? f.article : f.category, slug, fields } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.instance_id;
}

async function trash(f: Fixture, id: string, languageOnly = false): Promise<void> {
  const res = await manage(f.token, "POST", `/entries/${id}/trash`, { body: languageOnly ? { language_only: true } : {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Moves an entry's Trash time back, as if it had been moved there `days` ago. */
async function trashedDaysAgo(id: string, days: number): Promise<void> {
  await env.DB.prepare("UPDATE entries SET trashed_at = ? WHERE instance_id = ?").bind(new Date(Date.now() - days * DAY).toISOString(), id).run();
}

const exists = async (id: string) => (await env.DB.prepare("SELECT 1 AS x FROM entries WHERE instance_id = ?").bind(id).first()) !== null;
const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())?.n ?? -1;
/**
 * Sets the site's window. The site object looks at Trash again after a settings change, as after a
 * Trash move: tests that move Trash times back (after the object may have looked) use it to say so.
 */
async function keepDays(f: Fixture, days: number): Promise<void> {
  const res = await manage(f.token, "PUT", "/settings", { body: { retention: { trash_days: days } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
/**
 * Runs the site object's alarm now. The object may have run it on its own a moment earlier (it
 * wakes itself after a change): then there is none to run, and what it did is asserted just the same.
 */
const alarm = (f: Fixture) => runDurableObjectAlarm(env.SITE.getByName(f.s.site.id));

/** Until `check` holds (an alarm the object rang on its own may still be finishing), at most 3 s. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe("Trash retention: the alarm deletes Trash past 30 days", () => {
  it("purges a 31-day-old item with its relation rows of either side, media usage, an audit row and an event; keeps a 29-day-old one", async () => {
    const f = await fixture();
    const media = await uploadMedia(f.token, { bytes: png(3, 3, `r${n++}`), name: "cover.png" });
    expect(media.status).toBe(201);
    const cat = await entry(f, "category", { title: "Tides" });
    const old = await entry(f, "article", { title: "Old", categories: [cat], cover: media.body.media.id });
    const recent = await entry(f, "article", { title: "Recent" });
    // Another item links to the old one (the other side of its relations).
    const linking = await entry(f, "category", { title: "Holder" });
    const holder = await entry(f, "article", { title: "Holder", author: null, categories: [] });
    await manage(f.token, "PUT", `/entries/${holder}`, { body: { expected_version_id: (await manage<{ current_version_id: string }>(f.token, "GET", `/entries/${holder}`)).body.current_version_id, fields: { categories: [linking] } } });
    const usage = async () => (await manage<{ used_by: unknown[] }>(f.token, "GET", `/media/${media.body.media.id}/usage`)).body.used_by.length;
    expect(await usage()).toBe(1);

    await trash(f, old);
    await trash(f, recent);
    await trashedDaysAgo(old, 31);
    await trashedDaysAgo(recent, 29);
    // The old article also is the target of a link: the linking category entry's draft names it.
    await env.DB.prepare("INSERT INTO relation_links (site_id, version_id, source_instance_id, field_id, position, target_instance_id, target_group_id) SELECT site_id, current_version_id, instance_id, 'categories', 99, ?, (SELECT translation_group_id FROM entries WHERE instance_id = ?) FROM entries WHERE instance_id = ?").bind(old, old, holder).run();

    // Moving the clock of Trash back is the test's doing; the site learns of it like of a window change.
    await keepDays(f, 30);
    await alarm(f);
    expect(await eventually(async () => !(await exists(old)))).toBe(true);
    expect(await exists(recent)).toBe(true);
    expect((await manage<Err>(f.token, "GET", `/entries/${old}`)).status).toBe(404);
    expect(await count("SELECT count(*) AS n FROM relation_links WHERE site_id = ? AND source_instance_id = ?", f.s.site.id, old)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM relation_links WHERE site_id = ? AND target_instance_id = ?", f.s.site.id, old)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM versions WHERE instance_id = ?", old)).toBe(0);
    expect(await usage()).toBe(0);
    const audit = await env.DB.prepare("SELECT actor_kind, actor_id, action FROM audit_log WHERE site_id = ? AND target_id = ?").bind(f.s.site.id, old).all<{ actor_kind: string; actor_id: string; action: string }>();
    expect(audit.results.filter((a) => a.action === "entry.purge")).toEqual([{ actor_kind: "system", actor_id: "trash_retention", action: "entry.purge" }]);
    const events = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'entry.purged'").bind(f.s.site.id).all<{ payload: string }>();
    expect(events.results.map((e) => JSON.parse(e.payload) as { instance_ids: string[]; reason: string })).toEqual([expect.objectContaining({ instance_ids: [old], reason: "trash_retention" })]);
    // The other relation's holder stays, without the link to the purged item.
    expect(await exists(holder)).toBe(true);
  });

  it("purges only the languages past the window, and a site's shorter trash_days (never a longer one)", async () => {
    const f = await fixture();
    const en = await entry(f, "article", { title: "Two languages" });
    const fr = (await manage<{ instance_id: string }>(f.token, "POST", `/entries/${en}/languages`, { body: { lang: "fr", slug: `fr-${n++}`, fields: { title: "Deux" } } })).body.instance_id;
    await trash(f, fr, true);
    await trashedDaysAgo(fr, 31);
    // A language in Trash blocks adding it again.
    const again = await manage<Err>(f.token, "POST", `/entries/${en}/languages`, { body: { lang: "fr" } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("language_in_trash");
    await keepDays(f, 30);
    await alarm(f);
    expect(await eventually(async () => !(await exists(fr)))).toBe(true);
    expect(await exists(en)).toBe(true);
    expect((await manage(f.token, "POST", `/entries/${en}/languages`, { body: { lang: "fr", slug: `fr-${n++}` } })).status).toBe(201);

    const longer = await manage<Err>(f.token, "PUT", "/settings", { body: { retention: { trash_days: 45 } } });
    expect(longer.status).toBe(400);
    expect((await manage(f.token, "PUT", "/settings", { body: { retention: { trash_days: 7 } } })).status).toBe(200);
    const eightDays = await entry(f, "article", { title: "Eight days" });
    const sixDays = await entry(f, "article", { title: "Six days" });
    await trash(f, eightDays);
    await trash(f, sixDays);
    await trashedDaysAgo(eightDays, 8);
    await trashedDaysAgo(sixDays, 6);
    await keepDays(f, 7);
    await alarm(f);
    expect(await eventually(async () => !(await exists(eightDays)))).toBe(true);
    expect(await exists(sixDays)).toBe(true);
  });

  it("keeps time by the clock: nothing at 29 days, the item at 31 (FakeClock)", async () => {
    const f = await fixture();
    const id = await entry(f, "article", { title: "Clocked" });
    await trash(f, id);
    const run = (days: number) =>
      inSiteStorage(`${f.s.site.id}-clock-${days}`, async (storage) => {
        const clock = new FakeClock(Date.now() + days * DAY);
        const writes = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
        const retention = new TrashRetention(storage, clock, env, writes);
        const next = await retention.run(f.s.site.id);
        return { next, now: clock.now() };
      });
    const early = await run(29);
    expect(await exists(id)).toBe(true);
    // It knows when the item expires: in a day from the fake now.
    expect(Math.abs((early.next ?? 0) - (early.now + DAY))).toBeLessThan(60_000);
    await run(31);
    expect(await exists(id)).toBe(false);
  });

  it("works in bounded batches: at most TRASH_PURGE_BATCH items per alarm, the rest on the next", async () => {
    const f = await fixture();
    const ctx = f.s.ctx();
    const ids: string[] = [];
    for (let i = 0; i <= TRASH_PURGE_BATCH; i++) {
      const created = await apply(ctx, lifecycle.createEntry(ctx, { model_id: f.category, lang: "en", slug: `b-${n++}`, fields: { title: `B${i}` } }));
      await apply(ctx, lifecycle.trashEntry(ctx, { instance_id: created.instance_id }));
      ids.push(created.instance_id);
    }
    const left = () => count("SELECT count(*) AS n FROM entries WHERE site_id = ?", f.s.site.id);
    // The runs of the alarm, 31 days on (FakeClock), over a storage of their own: deterministic.
    const clock = new FakeClock(Date.now() + 31 * DAY);
    const run = () =>
      inSiteStorage(`${f.s.site.id}-batches`, (storage) => {
        const writes = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
        return new TrashRetention(storage, clock, env, writes).run(f.s.site.id);
      });
    // A full batch: the next run is due at once (the alarm rings again a second later).
    expect(await run()).toBe(clock.now());
    expect(await left()).toBe(1);
    expect(await run()).toBeNull();
    expect(await left()).toBe(0);
  });
});

describe("restoring from Trash", () => {
  it("shows busy addresses and broken links first, refuses a busy address, and needs delete on the model", async () => {
    const f = await fixture();
    const cat = await entry(f, "category", { title: "Gone soon" });
    const id = await entry(f, "article", { title: "Back", categories: [cat] }, "the-address");
    await trash(f, id);
    await trash(f, cat);
    const taker = await entry(f, "article", { title: "Taker" }, "the-address");

    const check = await manage<{ busy_addresses: unknown[]; broken_links: unknown[]; restorable: boolean }>(f.token, "GET", `/entries/${id}/restore-check`);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      restorable: false,
      busy_addresses: [{ instance_id: id, lang: "en", slug: "the-address", held_by: taker }],
      broken_links: [{ instance_id: id, lang: "en", field: "categories", target_instance_id: cat, reason: "in_trash" }],
    });
    const refused = await manage<Err>(f.token, "POST", `/entries/${id}/restore`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("slug_taken");
    expect((await manage<Err>(f.token, "GET", `/entries/${taker}/restore-check`)).body.error.code).toBe("entry_not_in_trash");

    await manage(f.token, "POST", `/entries/${taker}/trash`, { body: {} });
    const free = await manage<{ restorable: boolean; busy_addresses: unknown[] }>(f.token, "GET", `/entries/${id}/restore-check`);
    expect(free.body).toMatchObject({ restorable: true, busy_addresses: [] });

    // Without delete on the model: neither the check nor the restore.
    await changeAdminRole(f.s, (p) => ({ ...p, models: { "*": ["read", "create", "update", "publish", "unpublish"] } }));
    expect((await manage<Err>(f.token, "GET", `/entries/${id}/restore-check`)).body.error.code).toBe("missing_permission");
    const denied = await manage<Err>(f.token, "POST", `/entries/${id}/restore`, { body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("missing_permission");
    expect((await env.DB.prepare("SELECT trashed_at FROM entries WHERE instance_id = ?").bind(id).first<{ trashed_at: string | null }>())?.trashed_at).not.toBeNull();
  });
});
