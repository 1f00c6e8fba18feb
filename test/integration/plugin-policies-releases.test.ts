import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { answerWith, clearAnswer, pluginCalls } from "../helpers/fake-plugin";
import { apply, seedSite } from "../helpers/fixtures";
import { manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { setup, type Err } from "../helpers/policy-plugin";

/**
 * Content policies on releases and on what the site object's alarm fires (spec 2 rule 14: asked
 * before every publication and unpublication, through every surface; docs/plugin-policies.md,
 * "Releases and schedules"). A release is asked about every change at once and stays all or
 * nothing; a schedule is asked about every language it moves before the first moves; a refusal at
 * the alarm ends the release or schedule `failed` with the policy's code, visible and audited.
 */

type Problem = { index: number; instance_id: string; lang: string; action: string; code: string; details?: Record<string, unknown> };
type Release = { id: string; state: string; outcome_code: string | null; outcome_message: string | null; problems: Problem[]; policy_results?: { policy_id: string; outcome: string; failure?: string }[] };
type Schedule = { id: string; state: string; outcome_code: string | null; outcome_message: string | null };
type Entry = { instance_id: string; workflow: { state: string } };
type Asked = { operation: string; entry: { instance_id: string; lang: string }; caller: { via: string; person_id: string }; fields: Record<string, unknown> };

let n = 0;
/** An article written directly (no request, so no policy is asked), optionally with a French language. */
async function directArticle(s: Awaited<ReturnType<typeof seedSite>>, modelId: string, title: string, fr?: string): Promise<{ en: string; fr?: string; slug: string }> {
  const ctx = s.ctx();
  const slug = `pol-rel-${n++}`;
  const en = await apply(ctx, lifecycle.createEntry(ctx, { model_id: modelId, lang: "en", slug, fields: { title } }));
  if (fr === undefined) return { en: en.instance_id, slug };
  const other = await apply(ctx, lifecycle.addLanguage(ctx, { instance_id: en.instance_id, lang: "fr", slug: `pol-rel-fr-${n++}`, fields: { title: fr } }));
  return { en: en.instance_id, fr: other.instance_id, slug };
}

const asked = async (path: string, policy: string) => (await pluginCalls(`${path}/policies/${policy}`)).map((c) => JSON.parse(c.body) as Asked);
const audit = async (siteId: string, targetId: string) =>
  (await env.DB.prepare("SELECT action, details FROM audit_log WHERE site_id = ? AND target_id = ? ORDER BY at, rowid").bind(siteId, targetId).all<{ action: string; details: string }>()).results;
const published = async (ids: string[]) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM entries WHERE instance_id IN (${ids.map(() => "?").join(",")}) AND published_version_id IS NOT NULL`).bind(...ids).first<{ n: number }>())?.n ?? 0;

/** Makes a pending schedule or open release due now and rings the site object's own alarm (the path production takes). */
async function ringAlarm(siteId: string, table: "schedules" | "releases", id: string, poke: () => Promise<unknown>): Promise<void> {
  await env.DB.prepare(`UPDATE ${table} SET at = ? WHERE id = ?`).bind(new Date(Date.now() - 1000).toISOString(), id).run();
  // A schedule or release made tells the object to look at D1 again.
  await poke();
  await runDurableObjectAlarm(env.SITE.getByName(siteId));
}

/** Polls until `read` answers something `done` accepts (an alarm the object rang on its own may still be finishing). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 40 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

const HOUR = 60 * 60 * 1000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

describe("content policies on releases", () => {
  it("publishRelease asks every change at once; one refused change refuses the whole release with the policy's code, nothing published; allowed, it publishes", async () => {
    const { s, models, plugin, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const good = await directArticle(s, models.article.id, "A fine story");
    const bad = await directArticle(s, models.article.id, "A FORBIDDEN story");
    const live = await directArticle(s, models.article.id, "Served now");
    expect((await manage(token, "POST", `/entries/${live.en}/publish`, { body: {} })).status).toBe(200);
    const changes = [
      { entry_id: good.en, action: "publish" },
      { entry_id: live.en, action: "unpublish" },
      { entry_id: bad.en, action: "publish" },
    ];
    const release = await manage<Release>(token, "POST", "/releases", { body: { name: "Mixed", changes } });
    expect(release.status).toBe(201);

    const refused = await manage<Err>(token, "POST", `/releases/${release.body.id}/publish`, { body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "plugin_policy_refused",
      installation_id: plugin.id,
      policy_id: "forbid",
      locale: "en",
      refusal: { code: "forbidden_word" },
      change: 2,
      instance_id: bad.en,
      problems: [expect.objectContaining({ index: 2, instance_id: bad.en, action: "publish", code: "plugin_policy_refused" })],
    });
    // All or nothing: the good change is not published, the live one still served.
    expect(await published([good.en, bad.en])).toBe(0);
    expect((await publicGet(s.host, `/v1/article/${live.slug}`)).status).toBe(200);
    expect((await manage<Release>(token, "GET", `/releases/${release.body.id}`)).body.state).toBe("open");
    // Each change asked as its single route asks: publish / unpublish, with the entry's values.
    // (The first call was the single publish of the live one above.)
    const calls = (await asked(path, "forbid")).slice(1);
    expect(calls.map((c) => [c.entry.instance_id, c.operation]).sort()).toEqual(
      [
        [good.en, "publish"],
        [live.en, "unpublish"],
        [bad.en, "publish"],
      ].sort(),
    );
    expect(calls.find((c) => c.entry.instance_id === bad.en)?.fields).toMatchObject({ title: "A FORBIDDEN story" });
    expect(calls.every((c) => c.caller.via === "management_credential")).toBe(true);

    // The plugin now allows: the release publishes whole.
    await answerWith(`${path}/policies/forbid`, { status: 200, body: { outcome: "allowed" } });
    try {
      const done = await manage<Release>(token, "POST", `/releases/${release.body.id}/publish`, { body: {} });
      expect(done.status).toBe(200);
      expect(done.body.state).toBe("published");
      expect(await published([good.en, bad.en])).toBe(2);
      expect((await publicGet(s.host, `/v1/article/${live.slug}`)).status).toBe(404);
    } finally {
      await clearAnswer(`${path}/policies/forbid`);
    }
  });

  it("an enforcing policy that cannot be asked refuses the release 503; an advisory one lets it publish with policy_results", async () => {
    const enforcing = await setup([{ id: "down", mode: "validate" }]);
    const one = await directArticle(enforcing.s, enforcing.models.article.id, "Story one");
    const rel = await manage<Release>(enforcing.token, "POST", "/releases", { body: { name: "Down", changes: [{ entry_id: one.en, action: "publish" }] } });
    const refused = await manage<Err>(enforcing.token, "POST", `/releases/${rel.body.id}/publish`, { body: {} });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "plugin_policy_unavailable", policy_id: "down", failure: "unreachable", change: 0 });
    expect(await published([one.en])).toBe(0);

    const advisory = await setup([{ id: "down", mode: "validate", advisory: true }]);
    const two = await directArticle(advisory.s, advisory.models.article.id, "Story two");
    const rel2 = await manage<Release>(advisory.token, "POST", "/releases", { body: { name: "Advisory", changes: [{ entry_id: two.en, action: "publish" }] } });
    const done = await manage<Release>(advisory.token, "POST", `/releases/${rel2.body.id}/publish`, { body: {} });
    expect(done.status).toBe(200);
    expect(done.body.state).toBe("published");
    expect(done.body.policy_results).toEqual([expect.objectContaining({ policy_id: "down", outcome: "unavailable", failure: "unreachable" })]);
  });

  it("at its time, the site object's alarm asks the policies: a refused release ends failed with the policy's code and problems, audited, nothing published", async () => {
    const { s, models, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const good = await directArticle(s, models.article.id, "On time");
    const bad = await directArticle(s, models.article.id, "FORBIDDEN at nine");
    const release = await manage<Release>(token, "POST", "/releases", { body: { name: "Nine o'clock", at: inHours(1), changes: [{ entry_id: good.en, action: "publish" }, { entry_id: bad.en, action: "publish" }] } });
    expect(release.status).toBe(201);
    await ringAlarm(s.site.id, "releases", release.body.id, () => manage(token, "POST", "/releases", { body: { name: "Later", at: inHours(5), changes: [{ entry_id: good.en, action: "publish" }] } }));
    const ended = await until(
      async () => (await manage<Release>(token, "GET", `/releases/${release.body.id}`)).body,
      (r) => r.state !== "open",
    );
    expect(ended).toMatchObject({ state: "failed", outcome_code: "plugin_policy_refused", outcome_message: "Remove the word FORBIDDEN." });
    expect(ended.problems).toEqual([expect.objectContaining({ index: 1, instance_id: bad.en, code: "plugin_policy_refused", details: expect.objectContaining({ policy_id: "forbid", refusal: { code: "forbidden_word", message: "Remove the word FORBIDDEN." } }) })]);
    expect(await published([good.en, bad.en])).toBe(0);
    const rows = await audit(s.site.id, release.body.id);
    expect(rows.map((r) => r.action)).toEqual(["release.create", "release.failed"]);
    // (Audit details keep digests of values: the keys say what was recorded.)
    expect(Object.keys(JSON.parse(rows[1]?.details ?? "{}") as object)).toEqual(expect.arrayContaining(["code", "problems"]));
    // The alarm's write reaches the plugin as the site's own (caller.via system).
    const calls = await asked(path, "forbid");
    expect(calls.filter((c) => c.caller.via === "system" && c.operation === "publish")).toHaveLength(2);
  });
});

describe("content policies on scheduled publishing", () => {
  it("the alarm asks every language of a schedule before moving any: one refused, nothing published, the schedule ends failed with the code, listed and audited", async () => {
    const { s, models, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const item = await directArticle(s, models.article.id, "Bonjour in English", "FORBIDDEN en français");
    const other = await directArticle(s, models.article.id, "Another one");
    const created = await manage<Schedule>(token, "POST", "/schedules", { body: { entry_id: item.en, action: "publish", at: inHours(1) } });
    expect(created.status).toBe(201);
    await ringAlarm(s.site.id, "schedules", created.body.id, () => manage(token, "POST", "/schedules", { body: { entry_id: other.en, action: "publish", at: inHours(5) } }));
    const listed = await until(
      async () => (await manage<{ data: Schedule[] }>(token, "GET", `/schedules?entry_id=${item.en}`)).body.data[0],
      (one) => one?.state !== "scheduled",
    );
    expect(listed).toMatchObject({ id: created.body.id, state: "failed", outcome_code: "plugin_policy_refused", outcome_message: "Remove the word FORBIDDEN." });
    // Neither language moved (the English one was allowed, but the schedule is one decision).
    expect(await published([item.en, item.fr ?? ""])).toBe(0);
    const calls = (await asked(path, "forbid")).filter((c) => c.caller.via === "system");
    expect(new Set(calls.map((c) => c.entry.lang))).toEqual(new Set(["en", "fr"]));
    const rows = await audit(s.site.id, created.body.id);
    expect(rows.map((r) => r.action)).toEqual(["schedule.create", "schedule.failed"]);
    expect(Object.keys(JSON.parse(rows[1]?.details ?? "{}") as object)).toEqual(expect.arrayContaining(["code", "refusal"]));
    const event = await env.DB.prepare("SELECT payload FROM outbox_events WHERE site_id = ? AND name = 'schedule.failed'").bind(s.site.id).first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "{}")).toMatchObject({ schedule_id: created.body.id, code: "plugin_policy_refused", details: { policy_id: "forbid", locale: "fr", refusal: { code: "forbidden_word" } } });
  });

  it("an unreachable enforcing policy at the alarm ends an unpublish schedule failed with plugin_policy_unavailable; the item stays served", async () => {
    const { s, models, path, token } = await setup([{ id: "gate", mode: "validate" }]);
    const item = await directArticle(s, models.article.id, "Served until unpublished");
    expect((await manage(token, "POST", `/entries/${item.en}/publish`, { body: {} })).status).toBe(200);
    const other = await directArticle(s, models.article.id, "Poke");
    const created = await manage<Schedule>(token, "POST", "/schedules", { body: { entry_id: item.en, action: "unpublish", at: inHours(1) } });
    expect(created.status).toBe(201);
    await answerWith(`${path}/policies/gate`, { status: 500, body: { oops: true } });
    try {
      await ringAlarm(s.site.id, "schedules", created.body.id, () => manage(token, "POST", "/schedules", { body: { entry_id: other.en, action: "publish", at: inHours(5) } }));
      const ended = await until(
        async () => (await manage<{ data: Schedule[] }>(token, "GET", `/schedules?entry_id=${item.en}`)).body.data.find((one) => one.id === created.body.id),
        (one) => one?.state !== "scheduled",
      );
      expect(ended).toMatchObject({ state: "failed", outcome_code: "plugin_policy_unavailable" });
    } finally {
      await clearAnswer(`${path}/policies/gate`);
    }
    expect((await publicGet(s.host, `/v1/article/${item.slug}`)).status).toBe(200);
    expect((await manage<Entry>(token, "GET", `/entries/${item.en}`)).body.workflow.state).toBe("published");
    const calls = (await asked(path, "gate")).filter((c) => c.operation === "unpublish");
    expect(calls).toEqual([expect.objectContaining({ caller: { via: "system", person_id: "schedule" }, entry: expect.objectContaining({ instance_id: item.en, lang: "en" }) })]);
  });
});
