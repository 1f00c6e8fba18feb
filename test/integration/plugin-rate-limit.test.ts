import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PLUGIN_RATE_LIMIT, pluginRateLimit } from "../../schema/plugin-protocol";
import { rotateInstallationToken, transitionInstallation } from "../../shared/services/plugins/installations";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";
import { delegationFor, draft, eventCount, expectEnvelope, setup } from "../helpers/plugin-protocol";
import { inSiteStorage } from "../helpers/site-storage";

/**
 * The spec's limit is 120 requests a minute per installation; the workerd tests run with
 * PLUGIN_RATE_LIMIT 50 (vitest.config.ts), so crossing it costs 150 requests rather than 500 —
 * the same code path, a smaller window (docs/testing.md).
 */
const LIMIT = pluginRateLimit(env);

describe("plugin protocol: rate limit per installation", () => {
  it("is the spec's 120 a minute unless PLUGIN_RATE_LIMIT sets a positive whole number", () => {
    expect(PLUGIN_RATE_LIMIT).toEqual({ requests: 120, windowMs: 60_000 });
    expect(pluginRateLimit({})).toBe(120);
    for (const bad of ["0", "-5", "1.5", "many", ""]) expect(pluginRateLimit({ PLUGIN_RATE_LIMIT: bad })).toBe(120);
    expect(LIMIT).toBe(50);
  });

  it("lets exactly the limit of three times as many concurrent requests through, then 429 with Retry-After", async () => {
    const { s, models, plugin } = await setup();
    const results = await Promise.all(Array.from({ length: LIMIT * 3 }, () => pluginCall(plugin.token, "GET", "/context")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(LIMIT * 2);
    const one = limited[0];
    if (!one) throw new Error("no 429");
    expectEnvelope(one, "rate_limited");
    expect(Number(one.headers.get("retry-after"))).toBeGreaterThan(0);

    // The rotated-away token and the new one share the installation's bucket.
    const rotated = await rotateInstallationToken(s.ctx(), plugin.id);
    expectEnvelope(await pluginCall(rotated.token, "GET", "/context"), "rate_limited");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "rate_limited");
    // Another installation of the same site has its own bucket.
    const other = await installTestPlugin(s, { manifest: testManifest({ id: "other-bucket" }), modelIds: [models.article.id] });
    expectEnvelope(await pluginCall(other.token, "GET", "/context"), "ok");
  }, 180_000);

  it("spends nothing for unknown tokens and keys the bucket by installation only", async () => {
    const { s, plugin } = await setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => pluginCall(`dwp_${String(i).padStart(43, "x")}`, "GET", "/context")));
    const before = await inSiteStorage(s.site.id, (storage) => storage.sql.exec("SELECT bucket, count FROM limit_windows WHERE bucket LIKE 'plugin:%'").toArray());
    expect(before).toEqual([]);
    await pluginCall(plugin.token, "GET", "/context", { headers: { "x-installation-id": "pin_other", "idempotency-key": "anything" } });
    const after = await inSiteStorage(s.site.id, (storage) => storage.sql.exec("SELECT bucket, count FROM limit_windows WHERE bucket LIKE 'plugin:%'").toArray());
    expect(after).toEqual([{ bucket: `plugin:${plugin.id}`, count: 1 }]);
    await transitionInstallation(s.ctx(), plugin.id, "disable");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "plugin_unauthorized");
  }, 60_000);

  it("counts a transition once whether its command or a refusal before it answers, and refuses the one past the limit with nothing done", async () => {
    const { s, models, plugin } = await setup();
    const window = () =>
      inSiteStorage(s.site.id, (storage) => storage.sql.exec<{ count: number }>("SELECT count FROM limit_windows WHERE bucket = ?", `plugin:${plugin.id}`).toArray()[0]?.count ?? 0);
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push(await draft(s, models.article.id, { title: `Rated ${i}` }));
    const [first, second, third] = posts;
    if (!first || !second || !third) throw new Error("no drafts");
    const delegations = new Map<string, string>();
    for (const post of posts) delegations.set(post.instance_id, await delegationFor(s, plugin, post.instance_id));
    const delegation = delegations.get(first.instance_id);
    // The window is 60 s of real time and the set-up above can take that long on a loaded machine:
    // restart the window's clock here (its count kept) so only the requests below must fit in it.
    await inSiteStorage(s.site.id, (storage) => storage.sql.exec("UPDATE limit_windows SET window_start = ? WHERE bucket = ?", Date.now(), `plugin:${plugin.id}`));
    const start = await window(); // the launch exchanges above spent the window too
    const publish = (post: typeof first, key: string | null, extra: Record<string, unknown> = {}) =>
      pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, {
        body: { kind: "publish", expected_current_version_id: post.current_version_id, expected_workflow_revision: 0, delegation_id: delegations.get(post.instance_id), ...extra },
        ...(key === null ? {} : { key }),
      });
    // Each kind once: applied, replayed, refused by the command (stale revision), refused before it
    // (no key, unknown body key, unknown entry), a read.
    expectEnvelope(await publish(first, "r-1"), "transition_applied");
    expectEnvelope(await publish(first, "r-1"), "idempotent_replay");
    expectEnvelope(await publish(second, "r-2", { expected_workflow_revision: 7 }), "workflow_conflict");
    expect((await publish(second, "x".repeat(129))).status).toBe(400);
    expect((await publish(second, "r-3", { surprise: true })).status).toBe(400);
    expect((await pluginCall(plugin.token, "POST", "/content/ent_unknown/transitions", { key: "r-4", body: { kind: "publish", expected_current_version_id: "ver_x", expected_workflow_revision: 0, delegation_id: delegation } })).status).toBe(404);
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "ok");
    expect(await window()).toBe(start + 7);

    // Spend the rest of the window, then every kind is 429 first and nothing is published.
    await Promise.all(Array.from({ length: LIMIT - start - 7 }, () => pluginCall(plugin.token, "GET", "/context")));
    expect(await window()).toBe(LIMIT);
    const published = await eventCount(s.site.id, "entry.published");
    for (const res of [await publish(third, "r-5"), await publish(third, null), await publish(first, "r-1")]) {
      expectEnvelope(res, "rate_limited");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await eventCount(s.site.id, "entry.published")).toBe(published);
  }, 120_000);
});
