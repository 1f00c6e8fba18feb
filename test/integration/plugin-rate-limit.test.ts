import { describe, expect, it } from "vitest";
import { rotateInstallationToken, transitionInstallation } from "../../shared/services/plugins";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";
import { expectEnvelope, setup } from "../helpers/plugin-protocol";
import { inSiteStorage } from "../helpers/site-storage";

describe("plugin protocol: rate limit per installation", () => {
  it("lets exactly 120 of 500 concurrent requests through, then 429 with Retry-After", async () => {
    const { s, models, plugin } = await setup();
    const results = await Promise.all(Array.from({ length: 500 }, () => pluginCall(plugin.token, "GET", "/context")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(380);
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
});
