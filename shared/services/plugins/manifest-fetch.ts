import { MAX_MANIFEST_BYTES } from "../../../schema/plugin-manifest";
import type { PluginManifest } from "../../../schema/plugin-manifest";
import { hasSystemPermission } from "../../auth/permissions";
import { AppError } from "../../errors";
import { readCappedBytes } from "../../net/capped-body";
import { judgeOutboundUrl, outboundPolicy } from "../../net/outbound-address";
import type { LifecycleContext } from "../lifecycle/context";
import { readManifest } from "./installations";
import type { RemoteEnv } from "./remote-call";

/**
 * A plugin's manifest read from its address, for the admin's "Install from a manifest address"
 * (issue #30 item 5, docs/admin-ui-settings.md). The admin page may only talk to this service
 * (its page policy), so the service fetches: under the outbound address policy, no redirects,
 * 5 s, at most 32768 bytes (read while streaming), then the same checks as an install
 * (`readManifest`). Nothing is written; when the plugin is installed on the site already, the
 * answer says which capabilities the new manifest adds and drops against the installed one — the
 * grant an update would need.
 */

export const MANIFEST_FETCH_TIMEOUT_MS = 5000;

export interface FetchedManifest {
  manifest: PluginManifest;
  installed: { installation_id: string; version: string; added_capabilities: string[]; removed_capabilities: string[]; granted_capabilities: string[] } | null;
}

async function cappedText(response: Response): Promise<string> {
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_MANIFEST_BYTES) tooLarge();
  const bytes = await readCappedBytes(response.body, MAX_MANIFEST_BYTES);
  if (bytes === null) tooLarge();
  return new TextDecoder().decode(bytes);
}

function tooLarge(): never {
  throw new AppError("manifest_too_large", `The manifest is larger than ${MAX_MANIFEST_BYTES} bytes.`, { max: MAX_MANIFEST_BYTES });
}

/** POST /api/plugin-manifests/fetch `{ url }`: the manifest at that address, checked, and its difference to an installed one. */
export async function fetchPluginManifest(ctx: LifecycleContext, env: RemoteEnv, url: string): Promise<FetchedManifest> {
  if (!hasSystemPermission(ctx.actor.permissions, "site:plugins")) {
    throw new AppError("missing_permission", 'Missing permission "site:plugins".', { permission: "site:plugins" });
  }
  const verdict = judgeOutboundUrl(url, outboundPolicy(env));
  if (!verdict.ok) throw new AppError("invalid_request", `url is refused: ${verdict.reason}.`, { field: "url", reason: verdict.reason });
  const signal = AbortSignal.timeout(MANIFEST_FETCH_TIMEOUT_MS);
  const request = new Request(verdict.url, { method: "GET", headers: { accept: "application/json", "user-agent": "Driftwood-Plugins/1" }, redirect: "manual", signal });
  let response: Response;
  try {
    response = await (env.PLUGIN_FETCH ? env.PLUGIN_FETCH.fetch(request) : fetch(request));
  } catch (error) {
    if (signal.aborted) throw new AppError("plugin_timeout", `The manifest did not arrive within ${MANIFEST_FETCH_TIMEOUT_MS} ms.`, { timeout_ms: MANIFEST_FETCH_TIMEOUT_MS });
    throw new AppError("plugin_unreachable", "The manifest address could not be reached.", { detail: error instanceof Error ? error.message.slice(0, 200) : "unreachable" });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new AppError("plugin_response_invalid", `The manifest address answered HTTP ${response.status}.`, { status: response.status });
  }
  const manifest = readManifest(await cappedText(response));
  const row = await ctx.db
    .selectFrom("plugin_installations")
    .select(["id", "manifest", "granted_capabilities"])
    .where("site_id", "=", ctx.site.id)
    .where("plugin_id", "=", manifest.id)
    .executeTakeFirst();
  if (!row) return { manifest, installed: null };
  const before = JSON.parse(row.manifest) as PluginManifest;
  const had = new Set<string>(before.capabilities);
  const wants = new Set<string>(manifest.capabilities);
  return {
    manifest,
    installed: {
      installation_id: row.id,
      version: before.version,
      added_capabilities: manifest.capabilities.filter((c) => !had.has(c)),
      removed_capabilities: before.capabilities.filter((c) => !wants.has(c)),
      granted_capabilities: JSON.parse(row.granted_capabilities) as string[],
    },
  };
}
