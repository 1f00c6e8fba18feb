import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { ALL, delegationFor, expectEnvelope } from "../helpers/plugin-protocol";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";

/**
 * Issue #27 item 2, spec 2 rule 11 and spec 3 "Publication by language" (docs/scheduled-publishing.md,
 * "Plugins"): a plugin schedules a publish or unpublish through the protocol with
 * `workflow:publish` / `workflow:unpublish`; one language alone also needs `workflow:locale`.
 */

type Schedule = { id: string; action: string; lang: string | null; pins: { instance_id: string; lang: string }[]; state: string };

async function setup(granted: ("workflow:locale" | (typeof ALL)[number])[]) {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const plugin = await installTestPlugin(s, { manifest: testManifest({ capabilities: [...ALL, "workflow:locale"] }), capabilities: granted, modelIds: [models.article.id] });
  const ctx = s.ctx();
  const en = await apply(ctx, lifecycle.createEntry(ctx, { model_id: models.article.id, lang: "en", slug: `ps-${Date.now()}`, fields: { title: "Plugin scheduled" } }));
  await apply(ctx, lifecycle.addLanguage(ctx, { instance_id: en.instance_id, lang: "fr", slug: `ps-fr-${Date.now()}`, fields: { title: "Programmé" } }));
  return { s, plugin, en, delegation: await delegationFor(s, plugin, en.instance_id) };
}

const at = () => new Date(Date.now() + 3600_000).toISOString();

describe("plugin protocol: scheduling", () => {
  it("schedules every language with workflow:publish; one language alone needs workflow:locale", async () => {
    const { s, plugin, en, delegation } = await setup(ALL);
    const all = await pluginCall<Schedule>(plugin.token, "POST", `/content/${en.instance_id}/schedules`, { body: { kind: "publish", at: at(), delegation_id: delegation } });
    expectEnvelope(all, "ok");
    expect(all.body.data).toMatchObject({ action: "publish", lang: null, state: "scheduled" });
    expect(all.body.data?.pins.map((p) => p.lang).sort()).toEqual(["en", "fr"]);

    const one = await pluginCall(plugin.token, "POST", `/content/${en.instance_id}/schedules`, { body: { kind: "publish", at: at(), language_only: true, delegation_id: delegation } });
    expectEnvelope(one, "capability_refused");
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("schedules one language with workflow:locale, refuses without the transition's capability, and maps refusals to outcomes", async () => {
    const withLocale = await setup([...ALL, "workflow:locale"]);
    const one = await pluginCall<Schedule>(withLocale.plugin.token, "POST", `/content/${withLocale.en.instance_id}/schedules`, { body: { kind: "publish", at: at(), language_only: true, delegation_id: withLocale.delegation } });
    expectEnvelope(one, "ok");
    expect(one.body.data).toMatchObject({ lang: "en", pins: [{ instance_id: withLocale.en.instance_id, lang: "en" }] });
    const stale = await pluginCall(withLocale.plugin.token, "POST", `/content/${withLocale.en.instance_id}/schedules`, { body: { kind: "publish", at: at(), language_only: true, expected_version_id: "ver_old", delegation_id: withLocale.delegation } });
    expectEnvelope(stale, "scheduled_target_stale");
    const nothing = await pluginCall(withLocale.plugin.token, "POST", `/content/${withLocale.en.instance_id}/schedules`, { body: { kind: "unpublish", at: at(), delegation_id: withLocale.delegation } });
    expectEnvelope(nothing, "transition_unavailable");

    const publishOnly = await setup(["content:read", "workflow:publish"]);
    const refused = await pluginCall(publishOnly.plugin.token, "POST", `/content/${publishOnly.en.instance_id}/schedules`, { body: { kind: "unpublish", at: at(), delegation_id: publishOnly.delegation } });
    expectEnvelope(refused, "capability_refused");
  });
});
