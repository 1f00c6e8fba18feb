import * as v from "valibot";
import { GrantBody } from "../../../schema/admin-bodies";
import { MAX_MANIFEST_BYTES, PluginManifestSchema, type PluginCapability, type PluginManifest } from "../../../schema/plugin-manifest";
import { pluginGrantProblems } from "../../auth/grant-bounds";
import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { newSecret, sha256Hex } from "../../crypto/digest";
import { guard } from "../../db/batch";
import type { PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { parseJsonWithinDepth } from "../../json/parse-json";
import { judgeOutboundUrl, PUBLIC_ONLY, type OutboundPolicy } from "../../net/outbound-address";
import { modelRepository } from "../../repositories/model-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { parse } from "../validation/parse";

/**
 * Plugin installations (docs/plugins.md): install from a manifest, grant, activate, disable,
 * revoke, uninstall, rotate the installation token. Every call needs `site:plugins`; every write
 * is audited through `commitPlan`. The `dwp_` token is returned once (install, rotation) and
 * stored only as its SHA-256 digest; `shared/auth/plugin-authority.ts` checks it.
 */

export type InstallationState = PluginInstallationsTable["state"];

/** How long the token replaced by a rotation keeps working (spec: token rotation overlap). */
export const TOKEN_ROTATION_OVERLAP_MS = 600_000;

/** The transitions of an installation: action → states it may start from, and the state it ends in. */
export const INSTALLATION_TRANSITIONS = {
  activate: { from: ["pending", "disabled"], to: "active" },
  disable: { from: ["active"], to: "disabled" },
  revoke: { from: ["pending", "active", "disabled"], to: "revoked" },
} as const satisfies Record<string, { from: readonly InstallationState[]; to: InstallationState }>;

export type InstallationAction = keyof typeof INSTALLATION_TRANSITIONS;

/** An installation as the admin sees it: never a token or a digest. */
export interface InstallationView {
  id: string;
  plugin_id: string;
  name: string;
  version: string;
  state: InstallationState;
  manifest: PluginManifest;
  granted_capabilities: PluginCapability[];
  granted_model_ids: string[];
  /** Until when the token replaced by the last rotation is still accepted (ISO), or null. */
  previous_token_expires_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** An installation or a rotation: the only time the token and the event secret are shown. */
export interface InstallationWithToken {
  installation: InstallationView;
  token: string;
  /** `whsec_…`: signs the plugin's event deliveries (docs/events.md); stored as is, never listed. */
  event_secret: string;
}

/** The grant body is declared with the admin route that takes it. */
export { GrantBody };

export type GrantInput = v.InferOutput<typeof GrantBody>;

function requirePlugins(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:plugins")) {
    throw new AppError("missing_permission", 'Missing permission "site:plugins".');
  }
}

/** The stored manifest of a row (validated when it was installed). */
export function manifestOf(row: PluginInstallationsTable): PluginManifest {
  return JSON.parse(row.manifest) as PluginManifest;
}

/** The granted capabilities and model ids of an installation row. */
export function installationGrant(row: PluginInstallationsTable): { capabilities: PluginCapability[]; model_ids: string[] } {
  return {
    capabilities: JSON.parse(row.granted_capabilities) as PluginCapability[],
    model_ids: JSON.parse(row.granted_model_ids) as string[],
  };
}

export function toInstallationView(row: PluginInstallationsTable): InstallationView {
  const manifest = manifestOf(row);
  return {
    id: row.id,
    plugin_id: row.plugin_id,
    name: manifest.name,
    version: manifest.version,
    state: row.state,
    manifest,
    granted_capabilities: JSON.parse(row.granted_capabilities) as PluginCapability[],
    granted_model_ids: JSON.parse(row.granted_model_ids) as string[],
    previous_token_expires_at: row.previous_token_expires_at === null ? null : isoAt(row.previous_token_expires_at),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * A manifest from the raw JSON text: more than 32768 bytes is 400 manifest_too_large (checked on
 * the bytes, before parsing), nesting deeper than MAX_JSON_DEPTH or invalid JSON is 400
 * invalid_request, an invalid shape 400 invalid_request with `issues`.
 */
export function readManifest(text: string): PluginManifest {
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > MAX_MANIFEST_BYTES) {
    throw new AppError("manifest_too_large", `The manifest is larger than ${MAX_MANIFEST_BYTES} bytes.`, { max: MAX_MANIFEST_BYTES, size: bytes });
  }
  return parse(PluginManifestSchema, parseJsonWithinDepth(text));
}

/** The manifest's endpoint under the outbound address policy; refused: 400 invalid_request on `endpoint`. */
function checkEndpoint(manifest: PluginManifest, policy: OutboundPolicy): void {
  const verdict = judgeOutboundUrl(manifest.endpoint, policy);
  if (!verdict.ok) throw new AppError("invalid_request", "The request is not valid.", { issues: [{ path: "endpoint", message: `endpoint is refused: ${verdict.reason}` }] });
}

async function findRow(ctx: LifecycleContext, installationId: string): Promise<PluginInstallationsTable> {
  const row = await ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", installationId)
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such plugin installation.");
  return row;
}

/** A guard that aborts the batch when the row changed since it was read (state or update time). */
function unchanged(ctx: LifecycleContext, row: PluginInstallationsTable) {
  return guard(
    ctx.db,
    "installation_state_conflict",
    "EXISTS (SELECT 1 FROM plugin_installations WHERE id = ? AND state = ? AND updated_at = ?)",
    [row.id, row.state, row.updated_at],
  );
}

/** A new `updated_at`, always after the row's (so the optimistic guard sees every write). */
function nextUpdatedAt(ctx: LifecycleContext, row: PluginInstallationsTable): string {
  const now = ctx.clock.now();
  const previous = Date.parse(row.updated_at);
  return isoAt(Number.isFinite(previous) && now <= previous ? previous + 1 : now);
}

async function run<T>(ctx: LifecycleContext, plan: WritePlan<T>): Promise<T> {
  return (await commitPlan(ctx, plan)).answer;
}

/** The tags of public answers that show an installation's rich-text blocks. */
function blockTags(ctx: LifecycleContext, manifest: PluginManifest): string[] {
  return manifest.rich_text_blocks.length > 0 ? [cacheTag.site(ctx.site.id)] : [];
}

/**
 * Installs a plugin from its manifest (raw JSON text): state `pending`, nothing granted. A plugin
 * id already installed on the site is 409 plugin_already_installed.
 */
export async function installPlugin(ctx: LifecycleContext, manifestText: string, policy: OutboundPolicy = PUBLIC_ONLY): Promise<InstallationWithToken> {
  requirePlugins(ctx);
  const manifest = readManifest(manifestText);
  checkEndpoint(manifest, policy);
  const existing = await ctx.db
    .selectFrom("plugin_installations")
    .select("id")
    .where("site_id", "=", ctx.site.id)
    .where("plugin_id", "=", manifest.id)
    .executeTakeFirst();
  if (existing) throw new AppError("plugin_already_installed", `The plugin "${manifest.id}" is already installed on this site.`, { installation_id: existing.id });
  const token = newSecret("dwp_");
  const eventSecret = newSecret("whsec_");
  const at = isoAt(ctx.clock.now());
  const row: PluginInstallationsTable = {
    id: newId("pin"),
    site_id: ctx.site.id,
    plugin_id: manifest.id,
    manifest: JSON.stringify(manifest),
    state: "pending",
    granted_capabilities: "[]",
    granted_model_ids: "[]",
    token_digest: await sha256Hex(token),
    previous_token_digest: null,
    previous_token_expires_at: null,
    event_secret: eventSecret,
    created_by: ctx.actor.id,
    created_at: at,
    updated_at: at,
  };
  const installation = toInstallationView(row);
  await run(ctx, {
    statements: [
      guard(ctx.db, "plugin_already_installed", "NOT EXISTS (SELECT 1 FROM plugin_installations WHERE site_id = ? AND plugin_id = ?)", [ctx.site.id, manifest.id]),
      ctx.db.insertInto("plugin_installations").values(row).compile(),
    ],
    answer: null,
    events: [],
    purgeTags: [],
    audit: { action: "plugin.install", targetKind: "plugin_installation", targetId: row.id, details: { plugin_id: manifest.id, version: manifest.version, capabilities: manifest.capabilities } },
  });
  return { installation, token, event_secret: eventSecret };
}

/** Every installation of the site, oldest first. */
export async function listInstallations(ctx: LifecycleContext): Promise<InstallationView[]> {
  requirePlugins(ctx);
  const rows = await ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(toInstallationView);
}

/** One installation of the site; another site's or none is 404 not_found. */
export async function getInstallation(ctx: LifecycleContext, installationId: string): Promise<InstallationView> {
  requirePlugins(ctx);
  return toInstallationView(await findRow(ctx, installationId));
}

/**
 * Replaces the grant. Capabilities must be among those the manifest requests (422
 * grant_not_requested, naming them); model ids must be models of this site (422 unknown_model);
 * capabilities and models the granting person does not hold now are 422 grant_not_held.
 * A revoked installation cannot be granted anything (409 installation_state_conflict).
 */
export async function grantInstallation(ctx: LifecycleContext, installationId: string, input: GrantInput): Promise<InstallationView> {
  requirePlugins(ctx);
  const row = await findRow(ctx, installationId);
  if (row.state === "revoked") throw new AppError("installation_state_conflict", "A revoked installation cannot be granted anything.", { state: row.state });
  const manifest = manifestOf(row);
  const capabilities = [...new Set(input.capabilities)];
  const notRequested = capabilities.filter((c) => !manifest.capabilities.includes(c));
  if (notRequested.length > 0) {
    throw new AppError("grant_not_requested", "Only capabilities the manifest requests can be granted.", { capabilities: notRequested });
  }
  const modelIds = [...new Set(input.model_ids)];
  const found = new Set((await modelRepository(ctx.db, ctx.scope).findMany(modelIds)).map((m) => m.id));
  const unknown = modelIds.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new AppError("unknown_model", "Some model ids are not models of this site.", { model_ids: unknown });
  // The plugin acts without the granter: only what the granter holds now can be handed to it.
  const siteModelIds = modelIds.length > 0 ? [] : (await modelRepository(ctx.db, ctx.scope).list()).map((m) => m.id);
  const notHeld = pluginGrantProblems(ctx.actor.permissions, capabilities, modelIds, siteModelIds);
  if (notHeld.capabilities.length > 0 || notHeld.model_ids.length > 0) {
    throw new AppError("grant_not_held", "Only what you hold now can be granted.", {
      ...(notHeld.capabilities.length > 0 ? { capabilities: notHeld.capabilities } : {}),
      ...(notHeld.model_ids.length > 0 ? { model_ids: notHeld.model_ids } : {}),
    });
  }
  const updatedAt = nextUpdatedAt(ctx, row);
  const next: PluginInstallationsTable = { ...row, granted_capabilities: JSON.stringify(capabilities), granted_model_ids: JSON.stringify(modelIds), updated_at: updatedAt };
  return run(ctx, {
    statements: [
      unchanged(ctx, row),
      ctx.db
        .updateTable("plugin_installations")
        .set({ granted_capabilities: next.granted_capabilities, granted_model_ids: next.granted_model_ids, updated_at: updatedAt })
        .where("site_id", "=", ctx.site.id)
        .where("id", "=", row.id)
        .compile(),
    ],
    answer: toInstallationView(next),
    events: [],
    purgeTags: [],
    audit: { action: "plugin.grant", targetKind: "plugin_installation", targetId: row.id, details: { plugin_id: row.plugin_id, capabilities, model_ids: modelIds } },
  });
}

/** activate / disable / revoke; a move the table does not allow is 409 installation_state_conflict. */
export async function transitionInstallation(ctx: LifecycleContext, installationId: string, action: InstallationAction): Promise<InstallationView> {
  requirePlugins(ctx);
  const row = await findRow(ctx, installationId);
  const transition = INSTALLATION_TRANSITIONS[action];
  const allowed: readonly InstallationState[] = transition.from;
  if (!allowed.includes(row.state)) {
    throw new AppError("installation_state_conflict", `Cannot ${action} an installation that is ${row.state}.`, { state: row.state, action });
  }
  const updatedAt = nextUpdatedAt(ctx, row);
  const next: PluginInstallationsTable = { ...row, state: transition.to, updated_at: updatedAt };
  return run(ctx, {
    statements: [
      unchanged(ctx, row),
      ctx.db
        .updateTable("plugin_installations")
        .set({ state: transition.to, updated_at: updatedAt })
        .where("site_id", "=", ctx.site.id)
        .where("id", "=", row.id)
        .compile(),
    ],
    answer: toInstallationView(next),
    events: [],
    purgeTags: blockTags(ctx, manifestOf(row)),
    audit: { action: `plugin.${action}`, targetKind: "plugin_installation", targetId: row.id, details: { plugin_id: row.plugin_id, from: row.state, to: transition.to } },
  });
}

/** Uninstalls: the row is deleted, whatever its state; its tokens stop working at once. */
export async function uninstallPlugin(ctx: LifecycleContext, installationId: string): Promise<{ id: string; uninstalled: true }> {
  requirePlugins(ctx);
  const row = await findRow(ctx, installationId);
  return run(ctx, {
    statements: [ctx.db.deleteFrom("plugin_installations").where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile()],
    answer: { id: row.id, uninstalled: true },
    events: [],
    purgeTags: row.state === "active" ? blockTags(ctx, manifestOf(row)) : [],
    audit: { action: "plugin.uninstall", targetKind: "plugin_installation", targetId: row.id, details: { plugin_id: row.plugin_id, state: row.state } },
  });
}

/**
 * A new installation token, shown once. The replaced token keeps working for 600000 ms from now;
 * a token replaced by an earlier rotation stops at once. A new event secret too, shown once: it
 * replaces the old one at once (every later delivery attempt, retries included, is signed with
 * it). A revoked installation: 409.
 */
export async function rotateInstallationToken(ctx: LifecycleContext, installationId: string): Promise<InstallationWithToken> {
  requirePlugins(ctx);
  const row = await findRow(ctx, installationId);
  if (row.state === "revoked") throw new AppError("installation_state_conflict", "A revoked installation has no token to rotate.", { state: row.state });
  const token = newSecret("dwp_");
  const eventSecret = newSecret("whsec_");
  const now = ctx.clock.now();
  const updatedAt = nextUpdatedAt(ctx, row);
  const next: PluginInstallationsTable = {
    ...row,
    token_digest: await sha256Hex(token),
    previous_token_digest: row.token_digest,
    previous_token_expires_at: now + TOKEN_ROTATION_OVERLAP_MS,
    event_secret: eventSecret,
    updated_at: updatedAt,
  };
  const installation = await run(ctx, {
    statements: [
      unchanged(ctx, row),
      ctx.db
        .updateTable("plugin_installations")
        .set({
          token_digest: next.token_digest,
          previous_token_digest: next.previous_token_digest,
          previous_token_expires_at: next.previous_token_expires_at,
          event_secret: eventSecret,
          updated_at: updatedAt,
        })
        .where("site_id", "=", ctx.site.id)
        .where("id", "=", row.id)
        .compile(),
    ],
    answer: toInstallationView(next),
    events: [],
    purgeTags: [],
    audit: { action: "plugin.rotate_token", targetKind: "plugin_installation", targetId: row.id, details: { plugin_id: row.plugin_id, previous_token_expires_at: next.previous_token_expires_at } },
  });
  return { installation, token, event_secret: eventSecret };
}
