/** Shared set-up and assertions of the plugin protocol tests (test/integration/plugin-*.test.ts). */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { OUTCOMES } from "../../schema/plugin-protocol";
import type { PluginCapability } from "../../schema/plugin-manifest";
import * as lifecycle from "../../shared/services/lifecycle";
import type { Actor } from "../../shared/services/lifecycle";
import { createLaunch } from "../../shared/services/plugins/launches";
import { apply, blogModels, seedSite, type SeededSite } from "./fixtures";
import { installTestPlugin, pluginCall, testManifest, type PluginResult, type TestInstallation } from "./plugins";

export const ALL: PluginCapability[] = ["content:read", "workflow:read", "workflow:publish", "workflow:unpublish"];

export interface Summary {
  instance_id: string;
  model_id: string;
  current_version_id: string | null;
  published_version_id: string | null;
  workflow?: { state: string; revision: number; transitions: { to: string; kind: string }[] };
}
export interface Page {
  data: Summary[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}
export interface Exchanged {
  delegation_id: string;
  person: { id: string; name: string };
  launch: { kind: string; id: string; instance_id: string | null };
  capabilities: string[];
  model_ids: string[];
}

export async function setup(capabilities: PluginCapability[] = ALL) {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const plugin = await installTestPlugin(s, {
    manifest: testManifest({ capabilities: ALL }),
    capabilities,
    modelIds: [models.article.id, models.author.id],
  });
  return { s, models, plugin };
}

/** A person's launch of the content action on an entry, exchanged by the plugin: the delegation id. */
export async function delegationFor(s: SeededSite, plugin: TestInstallation, instanceId: string, actor: Actor = s.admin): Promise<string> {
  const launch = await createLaunch(s.ctx(actor), { credential: null }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: instanceId });
  const code = new URL(launch.url).searchParams.get("code");
  const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code } });
  expect(exchanged.status).toBe(200);
  return exchanged.body.data?.delegation_id ?? "";
}

export async function draft(s: SeededSite, modelId: string, fields: Record<string, unknown>) {
  return apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields: fields as never }));
}

export async function eventCount(siteId: string, name: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE site_id = ? AND name = ?").bind(siteId, name).first<{ n: number }>();
  return row?.n ?? 0;
}

export function expectEnvelope(result: PluginResult, code: keyof typeof OUTCOMES): void {
  expect(result.body.outcome.code).toBe(code);
  expect(result.status).toBe(OUTCOMES[code].status);
  expect(result.body.outcome.retry).toBe(OUTCOMES[code].retry);
  expect(Object.keys(result.body.outcome).sort()).toEqual(["code", "message", "retry"]);
  expect(typeof result.body.outcome.message).toBe("string");
}
