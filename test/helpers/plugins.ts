import type { PluginCapability } from "../../schema/plugin-manifest";
import { grantInstallation, installPlugin, transitionInstallation } from "../../shared/services/plugins/installations";
import type { SeededSite } from "./fixtures";
import { workerFetch } from "./worker";

/** A manifest for tests; every capability requested unless narrowed. */
export function testManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "helper",
    name: "Helper",
    version: "1.0.0",
    endpoint: "https://plugins.example.test/plugin",
    capabilities: ["content:read", "workflow:read", "workflow:publish", "workflow:unpublish", "content:write", "content:propose"],
    manage_views: [{ id: "dashboard", label: "Dashboard", path: "/views/dashboard" }],
    content_actions: [{ id: "review", label: "Review", path: "/actions/review" }],
    events: ["entry.published"],
    ...overrides,
  };
}

export interface TestInstallation {
  id: string;
  token: string;
  eventSecret: string | null;
}

/**
 * Installs a plugin on the site through the services (as the site's admin), grants it
 * `capabilities` on `modelIds` and activates it unless `state` says otherwise.
 */
export async function installTestPlugin(
  s: SeededSite,
  options: {
    manifest?: Record<string, unknown>;
    capabilities?: PluginCapability[];
    modelIds: string[];
    state?: "pending" | "active" | "disabled" | "revoked";
  },
): Promise<TestInstallation> {
  const manifest = options.manifest ?? testManifest();
  const installed = await installPlugin(s.ctx(), JSON.stringify(manifest));
  const capabilities = options.capabilities ?? (manifest.capabilities as PluginCapability[]);
  await grantInstallation(s.ctx(), installed.installation.id, { capabilities, model_ids: options.modelIds });
  const state = options.state ?? "active";
  if (state !== "pending") await transitionInstallation(s.ctx(), installed.installation.id, "activate");
  if (state === "disabled") await transitionInstallation(s.ctx(), installed.installation.id, "disable");
  if (state === "revoked") await transitionInstallation(s.ctx(), installed.installation.id, "revoke");
  return { id: installed.installation.id, token: installed.token, eventSecret: installed.event_secret };
}

export interface PluginResult<T = unknown> {
  status: number;
  body: { outcome: { code: string; message: string; retry: boolean }; data?: T };
  headers: Headers;
}

/** A call to the plugin protocol (`/api/plugin/v1`); any host — the site comes from the token. */
export async function pluginCall<T = unknown>(
  token: string | null,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> } = {},
): Promise<PluginResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.key !== undefined) headers["idempotency-key"] = options.key;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined || options.rawBody !== undefined) {
    headers["content-type"] = "application/json";
    init.body = options.rawBody ?? JSON.stringify(options.body);
  }
  const response = await workerFetch(`http://plugins.example.test/api/plugin/v1${path}`, init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as PluginResult<T>["body"], headers: response.headers };
}
