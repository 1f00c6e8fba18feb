/**
 * The demo plugin: an ACTIVE installation of `demo-helper` on the demo site, granted every plugin
 * capability on every demo model, whose endpoint is the example plugin
 * (`examples/plugin/server.mjs`, run on 127.0.0.1:8789). Idempotent like the other demo
 * credentials: the token is shown once and stored as a digest, so the caller passes back the one it
 * kept; a live one is reused, otherwise the token is rotated (which also issues a new event secret).
 */
import * as v from "valibot";
import { PLUGIN_CAPABILITIES, PluginManifestSchema, type PluginManifest } from "../../schema/plugin-manifest";
import { sha256Hex } from "../../shared/crypto/digest";
import type { PluginInstallationsTable } from "../../shared/db/database";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { OutboundPolicy } from "../../shared/net/outbound-address";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { grantInstallation, installationGrant, installPlugin, rotateInstallationToken, transitionInstallation, uninstallPlugin } from "../../shared/services/plugins/installations";

/**
 * The seed writes only the local development state (`.wrangler/state` or an end-to-end test's
 * folder), where the demo plugin runs on loopback: docs/outbound-addresses.md.
 */
const LOCAL_DEVELOPMENT: OutboundPolicy = { allowLoopback: true };

/** Where `node examples/plugin/server.mjs` listens by default. */
export const DEMO_PLUGIN_PORT = 8789;

export const DEMO_PLUGIN_MANIFEST = {
  id: "demo-helper",
  name: "Demo helper",
  version: "1.0.0",
  endpoint: `http://127.0.0.1:${DEMO_PLUGIN_PORT}`,
  capabilities: [...PLUGIN_CAPABILITIES],
  // A block for rich text (docs/content-rules-rich-text.md): `demo-helper/callout`, version 1.
  rich_text_blocks: [
    { name: "callout", label: "Callout", version: 1, fields: { text: { type: "text", required: true, max_length: 280 }, tone: { type: "select", options: ["info", "warning"] } } },
  ],
  manage_views: [{ id: "dashboard", label: "Helper dashboard", path: "/views/dashboard" }],
  content_actions: [{ id: "review", label: "Review and publish", path: "/actions/review" }],
  // docs/plugin-operations.md: a site operation, an entry operation with input, a destructive one,
  // an automation (never an MCP tool) and one slower than the 5000 ms timeout (to show 504).
  operations: [
    { id: "word-count", label: "Word count", scope: "site", destructive: false, automation: false, input_schema: { type: "object" }, result: ["text", "rows"], capabilities: ["content:read"] },
    {
      id: "summarize",
      label: "Summarize",
      scope: "entry",
      destructive: false,
      automation: false,
      input_schema: { type: "object", properties: { max_words: { type: "integer", minimum: 1, maximum: 100 } } },
      result: ["text", "json"],
      capabilities: ["content:read"],
    },
    { id: "archive", label: "Archive (unpublish)", scope: "entry", destructive: true, automation: false, input_schema: { type: "object" }, result: ["text", "rows"], capabilities: ["content:read", "workflow:read", "workflow:unpublish"] },
    { id: "nightly-digest", label: "Nightly digest", scope: "site", destructive: false, automation: true, input_schema: { type: "object" }, result: ["json"], capabilities: ["content:read"] },
    { id: "slow", label: "Slow (answers after 6 s)", scope: "site", destructive: false, automation: false, input_schema: { type: "object" }, result: ["text"], capabilities: ["content:read"] },
  ],
  // docs/plugin-policies.md: asked before every write of the demo's content; both enforcing, which
  // is why `npm start` runs the plugin beside the service.
  content_policies: [
    { id: "no-forbidden-words", label: "No forbidden words", mode: "validate", advisory: false },
    { id: "trim-title", label: "Trim the title", mode: "transform", advisory: false },
  ],
  // docs/media.md, "Media sources": 30 generated images, imported by copy or linked by reference.
  media_sources: [{ id: "sample-images", label: "Sample images", modes: ["copy", "reference"] }],
  events: ["entry.published"],
} satisfies PluginManifest;

export interface DemoPlugin {
  installation_id: string;
  token: string;
  event_secret: string;
}

async function findRow(ctx: LifecycleContext): Promise<PluginInstallationsTable | undefined> {
  return ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where("plugin_id", "=", DEMO_PLUGIN_MANIFEST.id)
    .executeTakeFirst();
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/**
 * Makes sure `demo-helper` is installed, granted every capability on every model of the site and
 * active; answers its token and event secret (the known token reused while it is the current one).
 * `ctx.actor` must hold `site:plugins` (the demo admin does).
 */
export async function ensureDemoPlugin(ctx: LifecycleContext, knownToken: string | undefined): Promise<DemoPlugin> {
  let row = await findRow(ctx);
  // Revoked is final: the only way back is uninstalling and installing again. A manifest of an
  // older seed (other operations, policies or port) is replaced the same way.
  if (row?.state === "revoked" || (row && row.manifest !== JSON.stringify(v.parse(PluginManifestSchema, DEMO_PLUGIN_MANIFEST)))) {
    await uninstallPlugin(ctx, row.id);
    row = undefined;
  }
  let fresh: { token: string; event_secret: string } | null = null;
  if (!row) {
    const installed = await installPlugin(ctx, JSON.stringify(DEMO_PLUGIN_MANIFEST), LOCAL_DEVELOPMENT);
    fresh = { token: installed.token, event_secret: installed.event_secret };
    row = await findRow(ctx);
    if (!row) throw new Error("demo plugin missing after install");
  }
  const modelIds = (await modelRepository(ctx.db, ctx.scope).list()).map((m) => m.id);
  const grant = installationGrant(row);
  if (!sameSet(grant.capabilities, PLUGIN_CAPABILITIES) || !sameSet(grant.model_ids, modelIds)) {
    await grantInstallation(ctx, row.id, { capabilities: [...PLUGIN_CAPABILITIES], model_ids: modelIds });
  }
  if (row.state !== "active") await transitionInstallation(ctx, row.id, "activate");
  if (!fresh) {
    const current = await findRow(ctx);
    const live = knownToken !== undefined && current !== undefined && current.token_digest === (await sha256Hex(knownToken));
    if (live && current.event_secret) {
      fresh = { token: knownToken, event_secret: current.event_secret };
    } else {
      const rotated = await rotateInstallationToken(ctx, row.id);
      fresh = { token: rotated.token, event_secret: rotated.event_secret };
    }
  }
  return { installation_id: row.id, ...fresh };
}
