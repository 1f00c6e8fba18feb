import { env } from "cloudflare:test";
import { blogModels, seedSite } from "./fixtures";
import { freshEndpoint } from "./fake-plugin";
import { credential, manage } from "./manage-api";
import { installTestPlugin, testManifest } from "./plugins";

/** Site, plugin and credential set-up shared by the content-policy test files (plugin-policies*.test.ts). */
export type Err = { error: { code: string; [k: string]: unknown } };
export type Entry = { instance_id: string; current_version_id: string; fields: Record<string, unknown>; policy_results?: Record<string, unknown>[] };

/**
 * A site whose plugin "guard" (endpoint: the fake plugin) declares `policies` on the article
 * model only; answers the site, models, the plugin and a credential with every scope.
 */
export async function setup(policies: { id: string; mode: "validate" | "transform"; advisory?: boolean }[], name = "Guard") {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({ id: "guard", name, endpoint, content_policies: policies.map((p) => ({ label: `Policy ${p.id}`, ...p })) });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id] });
  const token = await credential(s);
  return { s, models, plugin, path, token };
}

export async function createArticle(token: string, modelId: string, title: string) {
  return manage<Entry & Err>(token, "POST", "/entries", { body: { model_id: modelId, fields: { title } } });
}

export async function articleCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}
