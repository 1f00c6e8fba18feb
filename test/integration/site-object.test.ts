import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { settle } from "../../workers/forward";
import { RETENTION_DEFAULT_MS, RETENTION_LIFECYCLE_MS } from "../../objects/site/idempotency";
import { blogModels, seedSite } from "../helpers/fixtures";

async function value<T>(call: Promise<{ ok: true; value: T } | { ok: false }>): Promise<T> {
  const outcome = await settle(call);
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}`);
  return outcome.value;
}

async function codeOf(call: Promise<{ ok: true; value: unknown } | { ok: false }>): Promise<string | null> {
  const outcome = await settle(call);
  return outcome.ok ? null : outcome.error.code;
}

async function countRows(table: string, siteId: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = ?`).bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("SiteObject writes", () => {
  it("gives one success and one conflict for two concurrent saves of the same version", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const created = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "A" } } }));
    expect(created.status).toBe(201);
    const save = (bio: string) =>
      settle(stub.saveDraft({ siteId: s.site.id, actor: s.admin, input: { instance_id: created.body.instance_id, expected_version_id: created.body.current_version_id ?? "", fields: { bio } } }));
    const results = await Promise.all([save("one"), save("two")]);
    const ok = results.filter((r) => r.ok);
    expect(ok).toHaveLength(1);
    expect(results.map((r) => (r.ok ? null : r.error.code)).filter(Boolean)).toEqual(["version_conflict"]);
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(created.body.instance_id).first<{ n: number }>();
    expect(versions?.n).toBe(2);
  });

  it("runs a command once for concurrent identical idempotent requests and replays the first answer", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const request = {
      siteId: s.site.id,
      actor: s.admin,
      input: { model_id: author.id, fields: { name: "Once" } },
      idempotency: { scope: "cred_1", key: "key-1", fingerprint: "fp-1", retentionMs: RETENTION_DEFAULT_MS },
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => settle(stub.createEntry(request))));
    const succeeded = results.filter((r) => r.ok).map((r) => (r.ok ? r.value : null));
    const inProgress = results.filter((r) => !r.ok && r.error.code === "idempotency_in_progress");
    expect(succeeded.length + inProgress.length).toBe(5);
    expect(succeeded.filter((v) => v && !v.replayed)).toHaveLength(1);
    const again = await value(stub.createEntry(request));
    expect(again.replayed).toBe(true);
    const first = succeeded.find((v) => v && !v.replayed);
    expect(again.body).toEqual(first?.body);
    expect(await countRows("entries", s.site.id)).toBe(1);

    expect(await codeOf(stub.createEntry({ ...request, idempotency: { ...request.idempotency, fingerprint: "fp-other" } }))).toBe("idempotency_key_reused");
    const otherScope = await value(stub.createEntry({ ...request, idempotency: { ...request.idempotency, scope: "cred_2" }, input: { model_id: author.id, fields: { name: "Other" }, slug: "other" } }));
    expect(otherScope.replayed).toBe(false);
  });

  it("frees the key of a refused command so a corrected retry runs", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const idempotency = { scope: "cred_1", key: "k", fingerprint: "fp", retentionMs: RETENTION_LIFECYCLE_MS };
    expect(await codeOf(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: "ent_missing" }, idempotency }))).toBe("not_found");
    const created = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "A" } } }));
    const published = await value(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: created.body.instance_id }, idempotency }));
    expect(published.body.workflow.state).toBe("published");
    const stored = await env.DB.prepare("SELECT status, expires_at, created_at FROM idempotency_results WHERE site_id = ? AND key = 'k'").bind(s.site.id).first<{ status: number; expires_at: string; created_at: string }>();
    expect(stored?.status).toBe(200);
    expect(Date.parse(stored?.expires_at ?? "") - Date.parse(stored?.created_at ?? "")).toBe(RETENTION_LIFECYCLE_MS);
  });

  it("answers from what a committed write stored when the object stopped before answering", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const idempotency = { scope: "cred_1", key: "lost", fingerprint: "fp", retentionMs: RETENTION_DEFAULT_MS };
    const first = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "Kept" } }, idempotency }));
    // Simulate a lost answer: the claim is pending again (as if the object died between commit and complete).
    await evictDurableObject(stub);
    await runSql(s.site.id, "UPDATE ledger_claims SET state = 'pending', status = NULL, body = NULL WHERE key = 'lost'");
    await evictDurableObject(stub);
    const retry = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "Kept" } }, idempotency }));
    expect(retry.replayed).toBe(true);
    expect(retry.body).toEqual(first.body);
    expect(await countRows("entries", s.site.id)).toBe(1);
  });

  it("runs the retry when the object stopped after claiming and before committing", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const idempotency = { scope: "cred_1", key: "never", fingerprint: "fp", retentionMs: RETENTION_DEFAULT_MS };
    await runSql(s.site.id, `INSERT INTO ledger_claims (scope, key, fingerprint, state, status, body, retention_ms, claimed_at, completed_at, expires_at) VALUES ('cred_1', 'never', 'fp', 'pending', NULL, NULL, ${RETENTION_DEFAULT_MS}, ${Date.now()}, NULL, ${Date.now() + 3_600_000})`);
    await evictDurableObject(stub);
    const retry = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "Once" } }, idempotency }));
    expect(retry.replayed).toBe(false);
    expect(await countRows("entries", s.site.id)).toBe(1);
  });

  it("runs a stale-pending claim's retry once when identical retries arrive together; the others wait (Retry-After) or replay", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const stub = env.SITE.getByName(s.site.id);
    const idempotency = { scope: "cred_1", key: "stale-burst", fingerprint: "fp", retentionMs: RETENTION_DEFAULT_MS };
    await runSql(s.site.id, `INSERT INTO ledger_claims (scope, key, fingerprint, state, status, body, retention_ms, claimed_at, completed_at, expires_at) VALUES ('cred_1', 'stale-burst', 'fp', 'pending', NULL, NULL, ${RETENTION_DEFAULT_MS}, ${Date.now()}, NULL, ${Date.now() + 3_600_000})`);
    await evictDurableObject(stub);
    const request = { siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "Once" } }, idempotency };
    const results = await Promise.all(Array.from({ length: 4 }, () => settle(stub.createEntry(request))));
    expect(await countRows("entries", s.site.id)).toBe(1);
    const ran = results.filter((r) => r.ok && !r.value.replayed);
    expect(ran).toHaveLength(1);
    for (const r of results) {
      if (r.ok) continue;
      expect(r.error.code).toBe("idempotency_in_progress");
      expect(r.error.details?.retry_after).toBe(1);
    }
    expect((await value(stub.createEntry(request))).replayed).toBe(true);
  });

  it("refuses another person's write while a lease is held, and lock_lost after a take-over", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const editor = await s.person("editor");
    const stub = env.SITE.getByName(s.site.id);
    const created = await value(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: author.id, fields: { name: "A" } } }));
    const id = created.body.instance_id;
    const lease = await stub.acquireLease(id, s.admin.id);
    if (!lease.ok) throw new Error("lease refused");
    const blocked = await codeOf(stub.saveDraft({ siteId: s.site.id, actor: editor, input: { instance_id: id, expected_version_id: created.body.current_version_id ?? "", fields: { bio: "x" } } }));
    expect(blocked).toBe("locked");
    await stub.takeOverLease(id, editor.id);
    const lost = await codeOf(stub.saveDraft({ siteId: s.site.id, actor: s.admin, leaseToken: lease.lease.token, input: { instance_id: id, expected_version_id: created.body.current_version_id ?? "", fields: { bio: "y" } } }));
    expect(lost).toBe("lock_lost");
  });

  it("counts a rate-limit window in the object so exactly the limit passes", async () => {
    const stub = env.SITE.getByName("site_ratelimit");
    const results = await Promise.all(Array.from({ length: 50 }, () => stub.takeRate("install:1", 20, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
  });
});

/** Runs SQL in a site's object storage (test-only back door through runInDurableObject). */
async function runSql(siteId: string, sql: string): Promise<void> {
  const { runInDurableObject } = await import("cloudflare:test");
  await runInDurableObject(env.SITE.getByName(siteId), (_instance, state) => {
    state.storage.sql.exec(sql);
  });
}
