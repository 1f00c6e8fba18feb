import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";

type Entry = { instance_id: string; current_version_id: string | null };
type Err = { error: { code: string; retry_after?: number } };

/** MANAGE_RATE_LIMIT is 40 a minute per credential in tests (vitest.config.ts). */
const LIMIT = 40;

const entryCount = (siteId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>().then((r) => r?.n ?? 0);

/**
 * A route that only runs a command spends the credential's rate window inside the command's own
 * call to the site object (issue #14: one Durable Object request per write instead of two). The
 * window must count exactly as before: every request once — a write, a refusal before the
 * command, a replay, a read — and past the limit 429 with Retry-After comes first and does nothing.
 */
describe("management rate window spent by the command", () => {
  it("counts every kind of request once and refuses the 41st, whatever it is, with nothing written", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const replayKey = newKey();
    const body = { model_id: article.id, fields: { title: "Counted" } };
    let sent = 0;
    const first = await manage<Entry>(token, "POST", "/entries", { key: replayKey, body });
    sent++;
    expect(first.status).toBe(201);
    // 39 more, of every kind: writes, refusals before the command (bad body, no key), a refusal by
    // the command (version conflict), replays, reads.
    const kinds = [
      () => manage(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: `W${sent}` } } }),
      () => manage(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "x" }, extra: true } }),
      () => manage(token, "POST", "/entries", { key: null, body }),
      () => manage(token, "PUT", `/entries/${first.body.instance_id}`, { body: { expected_version_id: "ver_stale", fields: { title: "Stale" } } }),
      () => manage(token, "POST", "/entries", { key: replayKey, body }),
      () => manage(token, "GET", `/entries/${first.body.instance_id}`),
    ];
    const statuses: number[] = [];
    while (sent < LIMIT) {
      const res = await kinds[sent % kinds.length]!();
      statuses.push(res.status);
      sent++;
    }
    expect(statuses).not.toContain(429);
    expect(new Set(statuses)).toEqual(new Set([201, 400, 409, 200]));

    const before = await entryCount(s.site.id);
    const past = [
      await manage<Err>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Over" } } }),
      await manage<Err>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "x" }, extra: true } }),
      await manage<Err>(token, "POST", "/entries", { key: replayKey, body }),
      await manage<Err>(token, "POST", `/entries/${first.body.instance_id}/publish`, { body: {} }),
      await manage<Err>(token, "GET", "/entries"),
    ];
    for (const res of past) {
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe("rate_limited");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.body.error.retry_after).toBeGreaterThan(0);
    }
    expect(await entryCount(s.site.id)).toBe(before);
    const still = await manage<{ workflow: { state: string } }>(await credential(s), "GET", `/entries/${first.body.instance_id}`);
    expect(still.body.workflow.state).toBe("draft");
  });

  it("keeps each credential's window its own", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const busy = await credential(s);
    const other = await credential(s);
    for (let i = 0; i < LIMIT; i++) {
      expect((await manage(busy, "POST", "/entries", { body: { model_id: article.id, fields: { title: `B${i}` } } })).status).toBe(201);
    }
    expect((await manage(busy, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Over" } } })).status).toBe(429);
    expect((await manage(other, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Other" } } })).status).toBe(201);
  });
});
