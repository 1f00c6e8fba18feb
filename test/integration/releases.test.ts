import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdempotencyLedger } from "../../objects/site/idempotency";
import { LeaseBook } from "../../objects/site/leases";
import { ScheduleRunner } from "../../objects/site/schedule-runner";
import { WriteQueue } from "../../objects/site/write-queue";
import { WriteRunner } from "../../objects/site/write-runner";
import { ALL_SCOPES } from "../../schema/scopes";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { blogModels, roleActor, seedSite, type SeededSite } from "../helpers/fixtures";
import { member } from "../helpers/people-api";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

/**
 * Issue #27 item 3 (docs/releases.md): a named set of entry-language changes published together —
 * on demand or at a time by the site object's alarm (the schedules' runner) — in one D1 batch, all
 * or nothing, validated as a whole first; previewed as a whole; release events in the outbox.
 */

type Problem = { index: number; instance_id: string; code: string };
type Release = { id: string; state: string; revision: number; at: string | null; outcome_code: string | null; problems: Problem[]; changes: { instance_id: string; action: string; version_id: string }[] };
type Entry = { instance_id: string; current_version_id: string; published_version_id: string | null };
type Err = { error: { code: string; message: string; problems?: Problem[]; change?: number; stale?: boolean } };
type Item = { data: { slug: string; fields: Record<string, unknown>; relations: Record<string, { slug: string | null }[]> } };

interface Fixture {
  s: SeededSite;
  token: string;
  article: string;
  category: string;
}

async function fixture(): Promise<Fixture> {
  const s = await seedSite();
  const { article, category } = await blogModels(s.ctx());
  return { s, token: await credential(s), article: article.id, category: category.id };
}

let n = 0;
async function entry(f: Fixture, fields: Record<string, unknown> = { title: "Released" }, model = f.article): Promise<Entry & { slug: string }> {
  const slug = `r-${n++}`;
  const created = await manage<Entry>(f.token, "POST", "/entries", { body: { model_id: model, slug, fields } });
  expect(created.status).toBe(201);
  return { ...created.body, slug };
}

const HOUR = 60 * 60 * 1000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
const events = async (f: Fixture, like: string) =>
  (await env.DB.prepare("SELECT name, payload FROM outbox_events WHERE site_id = ? AND name LIKE ? ORDER BY created_at, name").bind(f.s.site.id, like).all<{ name: string; payload: string }>()).results;

/** Runs the site's schedules and releases as its alarm would at `at`, over a storage of its own. */
function fireAt(f: Fixture, at: number): Promise<number | null> {
  return inSiteStorage(`${f.s.site.id}-releases-${at}`, (storage) => {
    const clock = new FakeClock(at);
    const writes = new WriteRunner(env, clock, new WriteQueue(), new IdempotencyLedger(storage, clock), new LeaseBook(storage, clock));
    return new ScheduleRunner(storage, clock, env, writes).run(f.s.site.id);
  });
}

describe("releases", () => {
  it("publishes 20 changes together: one bad change refuses them all, nothing written; fixed, all are published in one go with their events", async () => {
    const f = await fixture();
    // Made side by side (the site's object still writes them one after the other).
    const drafts = await Promise.all(Array.from({ length: 18 }, () => entry(f)));
    const served = await entry(f);
    expect((await manage(f.token, "POST", `/entries/${served.instance_id}/publish`, { body: {} })).status).toBe(200);
    // A draft without its required title: publishing it alone is refused (field validation).
    const bad = await entry(f, { summary: "no title yet" });
    const changes = [...drafts.map((d) => ({ entry_id: d.instance_id, action: "publish" })), { entry_id: served.instance_id, action: "unpublish" }, { entry_id: bad.instance_id, action: "publish" }];
    const created = await manage<Release>(f.token, "POST", "/releases", { body: { name: "Spring issue", changes } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: "open", at: null, revision: 0 });
    expect(created.body.changes).toHaveLength(20);
    expect(created.body.changes[0]).toMatchObject({ instance_id: drafts[0]?.instance_id, action: "publish", version_id: drafts[0]?.current_version_id });

    const refused = await manage<Err>(f.token, "POST", `/releases/${created.body.id}/publish`, { body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("release_refused");
    expect(refused.body.error.problems).toEqual([expect.objectContaining({ index: 19, instance_id: bad.instance_id, code: "field_validation_failed" })]);
    // Nothing of the other 19 changes was made.
    expect((await publicGet(f.s.host, `/v1/article/${drafts[0]?.slug}`)).status).toBe(404);
    expect((await publicGet(f.s.host, `/v1/article/${drafts[17]?.slug}`)).status).toBe(404);
    expect((await publicGet(f.s.host, `/v1/article/${served.slug}`)).status).toBe(200);
    expect(await events(f, "release.published")).toEqual([]);

    // The draft fixed, the release pins the new version and publishes whole.
    const saved = await manage<Entry>(f.token, "PUT", `/entries/${bad.instance_id}`, { body: { expected_version_id: bad.current_version_id, fields: { title: "Now titled" } } });
    expect(saved.status).toBe(200);
    const repinned = await manage<Release>(f.token, "PUT", `/releases/${created.body.id}`, { body: { expected_revision: 0, repin: true } });
    expect(repinned.status).toBe(200);
    expect(repinned.body.changes[19]?.version_id).toBe(saved.body.current_version_id);
    const published = await manage<Release>(f.token, "POST", `/releases/${created.body.id}/publish`, { body: { expected_revision: 1 } });
    expect(published.status).toBe(200);
    expect(published.body.state).toBe("published");
    for (const d of [drafts[0], drafts[9], drafts[17], bad]) expect((await publicGet(f.s.host, `/v1/article/${d?.slug}`)).status).toBe(200);
    expect((await publicGet(f.s.host, `/v1/article/${served.slug}`)).status).toBe(404);
    // One outbox row per change and the release's own, all from the one batch (one creation time).
    const rows = await env.DB.prepare("SELECT name, created_at, payload FROM outbox_events WHERE site_id = ? AND name IN ('entry.published', 'entry.unpublished', 'release.published') AND created_at >= (SELECT created_at FROM outbox_events WHERE site_id = ? AND name = 'release.published')")
      .bind(f.s.site.id, f.s.site.id)
      .all<{ name: string; created_at: string; payload: string }>();
    expect(rows.results.filter((r) => r.name === "entry.published")).toHaveLength(19);
    expect(rows.results.filter((r) => r.name === "entry.unpublished")).toHaveLength(1);
    expect(new Set(rows.results.map((r) => r.created_at)).size).toBe(1);
    expect(JSON.parse(rows.results.find((r) => r.name === "entry.published")?.payload ?? "{}")).toMatchObject({ release_id: created.body.id });
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE site_id = ? AND target_id = ? ORDER BY at").bind(f.s.site.id, created.body.id).all<{ action: string }>();
    expect(audit.results.map((a) => a.action)).toEqual(["release.create", "release.update", "release.publish"]);

    // A published release is history.
    expect((await manage<Err>(f.token, "POST", `/releases/${created.body.id}/publish`, { body: {} })).body.error.code).toBe("release_published");
    expect((await manage<Err>(f.token, "DELETE", `/releases/${created.body.id}`)).body.error.code).toBe("release_published");
  }, 60_000); // 20 entries made through the API first

  it("counts a relation target the release publishes as published, and previews the site as it will be after it", async () => {
    const f = await fixture();
    const topic = await entry(f, { title: "Tides" }, f.category);
    const story = await entry(f, { title: "Reading the tide tables", categories: [topic.instance_id] });
    const release = await manage<Release>(f.token, "POST", "/releases", { body: { name: "Tides", changes: [{ entry_id: story.instance_id, action: "publish" }, { entry_id: topic.instance_id, action: "publish" }] } });
    expect(release.status).toBe(201);

    const preview = await manage<{ valid: boolean; problems: Problem[]; items: { instance_id: string; url: string | null; item: Item["data"] | null }[]; preview: string }>(f.token, "POST", `/releases/${release.body.id}/preview`, { body: {}, key: null });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ valid: true, problems: [] });
    expect(preview.body.items[0]?.item?.relations.categories).toEqual([expect.objectContaining({ slug: topic.slug })]);
    // The capability shows both items on the site host; without it neither is served yet.
    const viaUrl = await publicGet<Item>(f.s.host, preview.body.items[0]?.url ?? "");
    expect(viaUrl.status).toBe(200);
    expect(viaUrl.headers.get("cache-control")).toContain("no-store");
    expect(viaUrl.body.data.relations.categories).toEqual([expect.objectContaining({ slug: topic.slug })]);
    expect((await publicGet(f.s.host, `/v1/category/${topic.slug}?preview=${encodeURIComponent(preview.body.preview)}`)).status).toBe(200);
    expect((await publicGet(f.s.host, `/v1/article/${story.slug}`)).status).toBe(404);
    expect((await publicGet(f.s.host, `/v1/article/${story.slug}?preview=not-a-capability`)).status).toBe(404);

    expect((await manage(f.token, "POST", `/releases/${release.body.id}/publish`, { body: {} })).status).toBe(200);
    const served = await publicGet<Item>(f.s.host, `/v1/article/${story.slug}`);
    expect(served.status).toBe(200);
    expect(served.body.data.relations.categories).toEqual([expect.objectContaining({ slug: topic.slug })]);
    // After publication the preview capability shows nothing more.
    expect((await publicGet(f.s.host, preview.body.items[0]?.url ?? "")).status).toBe(404);
  });

  it("publishes at its time from the schedules' alarm; a release whose pinned draft moved ends scheduled_target_stale, nothing published", async () => {
    const f = await fixture();
    const one = await entry(f);
    const two = await entry(f);
    const at = inHours(1);
    const timed = await manage<Release>(f.token, "POST", "/releases", { body: { name: "Timed", at, changes: [{ entry_id: one.instance_id, action: "publish" }, { entry_id: two.instance_id, action: "publish", version_id: two.current_version_id }] } });
    expect(timed.status).toBe(201);
    expect(await fireAt(f, Date.parse(at) - 1000)).toBe(Date.parse(at));
    expect((await publicGet(f.s.host, `/v1/article/${one.slug}`)).status).toBe(404);
    await fireAt(f, Date.parse(at) + 1000);
    expect((await manage<Release>(f.token, "GET", `/releases/${timed.body.id}`)).body.state).toBe("published");
    expect((await publicGet(f.s.host, `/v1/article/${two.slug}`)).status).toBe(200);

    const three = await entry(f);
    const later = inHours(2);
    const stale = await manage<Release>(f.token, "POST", "/releases", { body: { name: "Stale", at: later, changes: [{ entry_id: three.instance_id, action: "publish" }] } });
    expect((await manage(f.token, "PUT", `/entries/${three.instance_id}`, { body: { expected_version_id: three.current_version_id, fields: { summary: "edited after" } } })).status).toBe(200);
    await fireAt(f, Date.parse(later) + 1000);
    const ended = await manage<Release>(f.token, "GET", `/releases/${stale.body.id}`);
    expect(ended.body).toMatchObject({ state: "stale", outcome_code: "scheduled_target_stale", problems: [expect.objectContaining({ instance_id: three.instance_id, code: "version_conflict" })] });
    expect((await publicGet(f.s.host, `/v1/article/${three.slug}`)).status).toBe(404);
    const staleEvents = await events(f, "release.stale");
    expect(JSON.parse(staleEvents[0]?.payload ?? "{}")).toMatchObject({ release_id: stale.body.id, code: "scheduled_target_stale" });
    // Deleting a release that never published leaves its entries as they are.
    expect((await manage(f.token, "DELETE", `/releases/${stale.body.id}`)).status).toBe(200);
    expect((await manage(f.token, "GET", `/releases/${stale.body.id}`)).status).toBe(404);
  });

  it("asks the editing-lease guard about every change: another person's lease on one refuses the whole release (423 locked)", async () => {
    const f = await fixture();
    const one = await entry(f);
    const two = await entry(f);
    const other = await member(f.s, "admin");
    const b = await createManagementCredential(f.s.ctx(roleActor(other.id, "admin")), { name: "b", scopes: [...ALL_SCOPES] });
    expect((await manage(b.token, "POST", `/entries/${two.instance_id}/editing`, { body: {}, key: null })).status).toBe(201);
    const release = await manage<Release>(f.token, "POST", "/releases", { body: { name: "Leased", changes: [{ entry_id: one.instance_id, action: "publish" }, { entry_id: two.instance_id, action: "publish" }] } });
    const refused = await manage<Err>(f.token, "POST", `/releases/${release.body.id}/publish`, { body: {} });
    expect(refused.status).toBe(423);
    expect(refused.body.error.code).toBe("locked");
    expect((await publicGet(f.s.host, `/v1/article/${one.slug}`)).status).toBe(404);
    expect((await manage<Release>(f.token, "GET", `/releases/${release.body.id}`)).body.state).toBe("open");
  });

  it("refuses bad changes whole, naming the change: unknown entry, twice the same language, past time, more than 50", async () => {
    const f = await fixture();
    const one = await entry(f);
    const unknown = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", changes: [{ entry_id: one.instance_id, action: "publish" }, { entry_id: "ent_nope", action: "publish" }] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.change).toBe(1);
    const twice = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", changes: [{ entry_id: one.instance_id, action: "publish" }, { entry_id: one.instance_id, action: "publish" }] } });
    expect(twice.status).toBe(400);
    // The same language twice with two actions is the same malformed release, whatever the first change meets.
    const publishAndUnpublish = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", changes: [{ entry_id: one.instance_id, action: "unpublish" }, { entry_id: one.instance_id, action: "publish" }] } });
    expect([publishAndUnpublish.status, publishAndUnpublish.body.error.code, publishAndUnpublish.body.error.change]).toEqual([400, "invalid_request", 1]);
    const unpublishDraft = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", changes: [{ entry_id: one.instance_id, action: "unpublish" }] } });
    expect(unpublishDraft.body.error.code).toBe("transition_unavailable");
    const past = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", at: new Date(Date.now() - HOUR).toISOString(), changes: [{ entry_id: one.instance_id, action: "publish" }] } });
    expect(past.body.error.code).toBe("schedule_time_past");
    const many = await manage<Err>(f.token, "POST", "/releases", { body: { name: "x", changes: Array.from({ length: 51 }, () => ({ entry_id: one.instance_id, action: "publish" })) } });
    expect(many.status).toBe(400);
    const list = await manage<{ data: Release[] }>(f.token, "GET", "/releases");
    expect(list.status).toBe(200);
    const readOnly = await credential(f.s, ["content:read"]);
    expect((await manage<Err>(readOnly, "POST", "/releases", { body: { name: "x", changes: [{ entry_id: one.instance_id, action: "publish" }] } })).body.error.code).toBe("insufficient_scope");
  });
});
