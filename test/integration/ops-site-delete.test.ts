import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import type { Env } from "../../shared/env";
import type { SiteDatabaseBinding } from "../../shared/db/site-databases";
import { ADMIN, adminCall, signIn, type SessionBody } from "../helpers/admin-api";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { storedKeys } from "../helpers/media-api";
import { createEntry, mediaModel, uploadPng } from "../helpers/media-usage";
import { OPS_TOKEN, ops, opsKey, untilDone } from "../helpers/ops-api";
import { publicGet } from "../helpers/public-api";

/** POST /api/ops/sites/{id}/delete (docs/site-delete.md): refusals, the resumable deletion, its receipt, other sites untouched. */

interface Receipt {
  site_id: string;
  slug: string;
  state: "running" | "done";
  rows: Record<string, number>;
  objects: number;
  bytes: number;
  finished_at: string | null;
  replayed?: true;
}
type ErrorBody = { error: { code: string } };

const DATABASES = () => ({ DB: env.DB, DB_2: env.DB_2 }) as const;

/** Every table of a database with a site_id column (asked of each table, as a future table would be). */
const tablesOf = new Map<D1Database, Promise<string[]>>();
function siteIdTables(db: D1Database): Promise<string[]> {
  // Read once per database per file: the schema does not change while the tests run.
  const known = tablesOf.get(db) ?? readSiteIdTables(db);
  tablesOf.set(db, known);
  return known;
}

async function readSiteIdTables(db: D1Database): Promise<string[]> {
  const tables = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' ORDER BY name").all<{ name: string }>();
  // One batch: a round trip per table made this file's census the slowest part of its tests.
  const columns = await db.batch<{ name: string }>(tables.results.map(({ name }) => db.prepare(`PRAGMA table_info(${name})`)));
  return tables.results.filter((_, i) => columns[i]?.results.some((c) => c.name === "site_id")).map(({ name }) => name);
}

/**
 * What a site holds, per database and table: every table with a site_id column, and those without
 * one that hold site data — its `sites` row (directory row or anchor), OAuth tokens (through its
 * connections), copies naming it (`site_copies`) — plus its R2 objects.
 */
async function census(siteId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, db] of Object.entries(DATABASES())) {
    // site_deletions: the deletion's receipt, kept by design (asserted on its own).
    const counts: [string, string, unknown[]][] = (await siteIdTables(db))
      .filter((t) => t !== "site_deletions")
      .map((table) => [table, `SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`, [siteId]]);
    counts.push(
      ["sites", "SELECT COUNT(*) AS n FROM sites WHERE id = ?", [siteId]],
      ["oauth_tokens", "SELECT COUNT(*) AS n FROM oauth_tokens WHERE connection_id IN (SELECT id FROM oauth_connections WHERE site_id = ?)", [siteId]],
      ["site_copies", "SELECT COUNT(*) AS n FROM site_copies WHERE template_id = ? OR target_id = ?", [siteId, siteId]],
    );
    // Every count of a database in one batch (one round trip, not one per table).
    const answers = await db.batch<{ n: number }>(counts.map(([, sql, params]) => db.prepare(sql).bind(...params)));
    counts.forEach(([table], i) => {
      const n = answers[i]?.results[0]?.n ?? 0;
      if (n > 0) out[`${name}.${table}`] = n;
    });
  }
  const objects = (await storedKeys(siteId)).length;
  if (objects > 0) out.r2 = objects;
  return out;
}

/** Rows in the site object's own storage (every table but the schema's version). */
async function objectRows(siteId: string): Promise<number> {
  return runInDurableObject(env.SITE.getByName(siteId), (_instance, state) => {
    let total = 0;
    const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'").toArray();
    for (const { name } of tables) total += state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`).one().n;
    return total;
  });
}

/** A site with a model, a published and a draft entry, an uploaded image, a credential and a pending invitation. */
async function populated(database?: SiteDatabaseBinding): Promise<{ s: SeededSite; token: string }> {
  const s = await seedSite({ languages: ["en"], ...(database ? { database } : {}) });
  const post = await mediaModel(s, "post");
  const token = await credential(s);
  const image = await uploadPng(token, `del-${s.site.slug}`);
  const entry = await createEntry(token, post, { title: "To be deleted", cover: image.id });
  expect((await manage(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} })).status).toBe(200);
  await createEntry(token, post, { title: "Draft" });
  expect((await ops("POST", `/sites/${s.site.id}/invitations`, { body: { email: `owner@${s.host}` } })).status).toBe(201);
  return { s, token };
}

describe("deleteSite", () => {
  it("refuses an active site (site_not_suspended), a wrong or missing confirm, an unknown site; removes nothing", async () => {
    const { s } = await populated();
    const active = await census(s.site.id);
    const refused = await ops<ErrorBody>("POST", `/sites/${s.site.id}/delete`, { body: { confirm: s.site.slug } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("site_not_suspended");
    expect(await census(s.site.id)).toEqual(active);
    expect((await ops("POST", `/sites/${s.site.id}/suspend`, { body: {} })).status).toBe(200);
    // The admin's session tells its people the site is suspended (the admin shows a read-only banner).
    const session = await signIn(`${s.site.slug}@example.test`);
    expect((await adminCall<SessionBody>(session, "GET", "/api/session")).body.sites).toEqual([{ id: s.site.id, slug: s.site.slug, name: s.site.name, role: "admin", suspended: true }]);
    const before = await census(s.site.id);
    const wrong = await ops<ErrorBody>("POST", `/sites/${s.site.id}/delete`, { body: { confirm: "not-the-slug" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe("confirm_mismatch");
    const missing = await ops<ErrorBody>("POST", `/sites/${s.site.id}/delete`, { body: {} });
    expect(missing.status).toBe(400);
    expect((await ops<ErrorBody>("POST", `/sites/${s.site.id}/delete`, { body: { confirm: s.site.slug }, key: null })).status).toBe(400);
    expect((await ops<ErrorBody>("POST", "/sites/site_unknown000/delete", { body: { confirm: "x" } })).status).toBe(404);
    expect(await census(s.site.id)).toEqual(before);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM site_deletions WHERE site_id = ?").bind(s.site.id).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it.each(["DB", "DB_2"] as const)("removes every row of a suspended site on %s in every database, its R2 objects and its object's storage; other sites untouched; the key replays the receipt", async (database) => {
    const { s } = await populated(database);
    const { s: other } = await populated(database);
    const { s: elsewhere } = await populated(database === "DB" ? "DB_2" : "DB");
    expect((await ops("POST", `/sites/${s.site.slug}/suspend`, { body: {} })).status).toBe(200);
    const before = await census(s.site.id);
    const others = { other: await census(other.site.id), elsewhere: await census(elsewhere.site.id) };
    expect(before[`${database}.entries`]).toBe(2);
    expect(before.r2).toBe(1);
    expect(before["DB.memberships"]).toBe(1);
    expect(before["DB.invitations"]).toBe(1);
    expect(before["DB.management_credentials"]).toBe(1);
    expect(await objectRows(s.site.id)).toBeGreaterThan(0);

    const key = opsKey();
    const first = await ops<Receipt>("POST", `/sites/${s.site.slug}/delete`, { body: { confirm: s.site.slug }, key });
    // 15 rows per call in tests: a populated site takes more than one.
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.state).toBe("running");
    const done = await untilDone<Receipt>(`/sites/${s.site.slug}/delete`, { confirm: s.site.slug }, key);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const receipt = done.body;
    expect(receipt).toMatchObject({ site_id: s.site.id, slug: s.site.slug, state: "done", objects: 1 });
    expect(receipt.bytes).toBeGreaterThan(0);
    expect(receipt.finished_at).not.toBeNull();
    // The receipt counts what the census saw (every database summed).
    const expected: Record<string, number> = {};
    for (const [at, n] of Object.entries(before)) {
      if (at === "r2") continue;
      const table = at.slice(at.indexOf(".") + 1);
      expected[table] = (expected[table] ?? 0) + n;
    }
    expect(receipt.rows, JSON.stringify(receipt.rows) + " vs " + JSON.stringify(expected)).toMatchObject(expected);

    // Nothing of the site is left: no row in any table of either database, no R2 object, no object storage.
    expect(await census(s.site.id)).toEqual({});
    expect(await objectRows(s.site.id)).toBe(0);
    expect((await publicGet(s.host, "/health")).status).toBe(404);
    // What remains by design: the deletion's receipt row (no content).
    expect(await env.DB.prepare("SELECT state FROM site_deletions WHERE site_id = ?").bind(s.site.id).first()).toEqual({ state: "done" });
    // The other sites, on either database, are untouched.
    expect(await census(other.site.id)).toEqual(others.other);
    expect(await census(elsewhere.site.id)).toEqual(others.elsewhere);

    // The same key replays the receipt; a new key finds no site.
    const replay = await ops<Receipt>("POST", `/sites/${s.site.slug}/delete`, { body: { confirm: s.site.slug }, key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...receipt, replayed: true });
    expect((await ops<ErrorBody>("POST", `/sites/${s.site.id}/delete`, { body: { confirm: s.site.slug } })).status).toBe(404);
    // Its slug and host are free again.
    const again = await ops("POST", "/sites", { body: { slug: s.site.slug, name: "Again", hosts: [s.host], languages: ["en"], default_lang: "en" } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });
});

describe("suspendSite and the edge cache", () => {
  it("purges the site's cache tag when a site is suspended", async () => {
    const s = await seedSite({ languages: ["en"] });
    const zone = `zone-suspend-${Date.now().toString(36)}`;
    const cached: Env = { ...env, PUBLIC_CACHE_MAX_AGE: "60", CF_PURGE_ZONE_ID: zone, CF_PURGE_API_TOKEN: "purge-token" };
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ADMIN}/api/ops/sites/${s.site.id}/suspend`, { method: "POST", headers: { authorization: `Bearer ${OPS_TOKEN}`, "idempotency-key": opsKey(), "content-type": "application/json" }, body: "{}" }),
      cached,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    const calls = (await (await env.CF_PURGE_API!.fetch(`http://fake/calls?zone=${zone}`)).json()) as { tags: string[] }[];
    expect(calls.flatMap((c) => c.tags)).toEqual([`s:${s.site.id}`]);
  });
});
