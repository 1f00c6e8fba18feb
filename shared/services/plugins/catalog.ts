import type { PluginManifest } from "../../../schema/plugin-manifest";
import { decide } from "../../auth/permissions";
import { createDb } from "../../db/client";
import type { PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { installationGrant, manifestOf } from "./installations";
import { listOperations, type OperationItem, type OperationViewer } from "./operations";
import { omittedBecause, planPluginTools, type OmittedPluginTool, type PluginLaunchTarget, type PluginTool } from "./tools";

/**
 * What a person (admin session) or a management credential (`plugins:use`) may launch: the
 * plugin list, the flat list of manage views and the flat list of content actions (spec 2,
 * "Plugin items"). One module for both surfaces; the launch itself is `createLaunch`
 * (shared/services/plugins/launches.ts), which re-checks everything listed here.
 *
 * Decisions (docs/management-api.md, "Plugins"): listing and launching need no `site:plugins` (that
 * is for installing and granting); `pending` and `revoked` installations are never listed; only
 * `active` installations offer views and actions; `mcp_tool.omitted_because` names the launches
 * that are no MCP tool and why (`tools.ts`), or is null when each is one.
 */

/** Who is looking: the credential's models (null: every model, also for a person's own session). */
export interface CatalogViewer {
  model_ids: readonly string[] | null;
}

export interface PluginPolicyItem {
  id: string;
  label: string;
  kind: "content_policy";
  mode: "validate" | "transform";
}

export interface PluginListEntry {
  /** The installation id (`pin_…`). */
  id: string;
  plugin_id: string;
  name: string;
  version: string;
  state: "active" | "disabled";
  /** Active, with at least one manage view or content action. */
  launchable: boolean;
  manage_views?: { id: string; label: string }[];
  content_actions?: { id: string; label: string; model_ids: string[] }[];
  policies?: PluginPolicyItem[];
  mcp_tool?: { omitted_because: string | null };
}

export interface ManageViewItem {
  installation_id: string;
  plugin_id: string;
  plugin_name: string;
  id: string;
  label: string;
}

export interface ContentActionItem {
  installation_id: string;
  plugin_id: string;
  plugin_name: string;
  id: string;
  label: string;
  /** The models the action can run on: its declared models (all when none) ∩ the granted models. */
  model_ids: string[];
}

async function installations(ctx: LifecycleContext, states: PluginInstallationsTable["state"][]): Promise<PluginInstallationsTable[]> {
  return ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where("state", "in", states)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
}

/** The models a content action runs on: declared (all when none) ∩ granted, in granted order. */
function actionModels(row: PluginInstallationsTable, declared: readonly string[] | undefined): string[] {
  const granted = installationGrant(row).model_ids;
  return declared === undefined ? granted : granted.filter((id) => declared.includes(id));
}

/**
 * Every manage view, content action and (non-automation) operation of the given installations, in
 * list order: the names are planned over all of them, whoever looks, so that a name shared by two
 * is a tool for none, for everyone alike.
 */
function launchTargets(rows: readonly PluginInstallationsTable[]): PluginLaunchTarget[] {
  return rows.flatMap((row) => {
    const manifest = manifestOf(row);
    const base = { installation_id: row.id, plugin_id: row.plugin_id, plugin_name: manifest.name };
    return [
      ...manifest.manage_views.map((view) => ({ ...base, kind: "view" as const, id: view.id, label: view.label })),
      ...manifest.content_actions.map((action) => ({ ...base, kind: "action" as const, id: action.id, label: action.label })),
      ...manifest.operations.filter((op) => !(op.automation ?? false)).map((op) => ({ ...base, kind: "op" as const, id: op.id, label: op.label })),
    ];
  });
}

/** A plugin tool the caller may call now; an operation tool carries the operation as listed. */
export type CallablePluginTool = PluginTool & { operation?: OperationItem };

/**
 * The MCP tools of the site's active plugins and the ones left out. Views and content actions are
 * tools for every `plugins:use` caller (their launch re-checks); an operation only while the
 * caller may run it now (rule 12: `listOperations`), so one it may no longer run is gone on the
 * next message.
 */
export async function pluginToolPlan(ctx: LifecycleContext, viewer: OperationViewer): Promise<{ tools: CallablePluginTool[]; omitted: OmittedPluginTool[] }> {
  const plan = planPluginTools(launchTargets(await installations(ctx, ["active"])));
  const offered = new Map((await listOperations(ctx, viewer)).map((op) => [`${op.item.installation_id}/${op.item.id}`, op.item]));
  const tools = plan.tools.flatMap((tool): CallablePluginTool[] => {
    if (tool.kind !== "op") return [tool];
    const operation = offered.get(`${tool.installation_id}/${tool.id}`);
    return operation ? [{ ...tool, operation }] : [];
  });
  return { tools, omitted: plan.omitted };
}

/** Spec 2 plugin list entries: `active` and `disabled` installations of the site, oldest first. */
export async function listPluginEntries(ctx: LifecycleContext): Promise<PluginListEntry[]> {
  const rows = await installations(ctx, ["active", "disabled"]);
  const { omitted } = planPluginTools(launchTargets(rows.filter((row) => row.state === "active")));
  return rows.map((row) => {
    const manifest = manifestOf(row);
    const base = { id: row.id, plugin_id: row.plugin_id, name: manifest.name, version: manifest.version };
    if (row.state !== "active") return { ...base, state: "disabled", launchable: false };
    return {
      ...base,
      state: "active",
      launchable: manifest.manage_views.length > 0 || manifest.content_actions.length > 0,
      manage_views: manifest.manage_views.map((view) => ({ id: view.id, label: view.label })),
      content_actions: manifest.content_actions.map((action) => ({ id: action.id, label: action.label, model_ids: actionModels(row, action.model_ids) })),
      policies: manifest.content_policies.map((policy) => ({ id: policy.id, label: policy.label, kind: "content_policy", mode: policy.mode })),
      mcp_tool: { omitted_because: omittedBecause(row.id, omitted) },
    };
  });
}

/** Manage views of every active installation. */
export async function listManageViews(ctx: LifecycleContext): Promise<ManageViewItem[]> {
  const rows = await installations(ctx, ["active"]);
  return rows.flatMap((row) => {
    const manifest = manifestOf(row);
    return manifest.manage_views.map((view) => ({ installation_id: row.id, plugin_id: row.plugin_id, plugin_name: manifest.name, id: view.id, label: view.label }));
  });
}

/**
 * Content actions of every active installation. With `instanceId`, only those a launch on that
 * entry would accept: the entry's model is among the action's models, granted to the
 * installation, inside the viewer's models and readable (in the entry's language) by the actor.
 * An unknown or trashed entry is 404 not_found.
 */
export async function listContentActions(ctx: LifecycleContext, viewer: CatalogViewer, instanceId?: string): Promise<ContentActionItem[]> {
  let entry: { model_id: string; lang: string } | undefined;
  if (instanceId !== undefined) {
    const row = await ctx.db
      .selectFrom("entries")
      .select(["model_id", "lang", "trashed_at"])
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", instanceId)
      .executeTakeFirst();
    // Authorise first, then reveal: an entry outside the viewer's models or reading answers like a
    // missing one, before its Trash state is told.
    const readable =
      row !== undefined &&
      (viewer.model_ids === null || viewer.model_ids.includes(row.model_id)) &&
      decide(ctx.actor.permissions, { operation: "read", modelId: row.model_id, lang: row.lang, actorId: ctx.actor.id }).allowed;
    if (!readable || row.trashed_at !== null) throw new AppError("not_found", "No such entry.");
    entry = row;
  }
  const rows = await installations(ctx, ["active"]);
  const items = rows.flatMap((row) => {
    const manifest = manifestOf(row);
    return manifest.content_actions.map((action) => ({
      installation_id: row.id,
      plugin_id: row.plugin_id,
      plugin_name: manifest.name,
      id: action.id,
      label: action.label,
      model_ids: actionModels(row, action.model_ids),
    }));
  });
  if (!entry) return items;
  const { model_id } = entry;
  return items.filter((item) => item.model_ids.includes(model_id));
}

/** A rich-text block of an active plugin, named `<plugin id>/<block name>`. */
export interface RichBlock {
  name: string;
  label: string;
  version: number;
  fields: Record<string, unknown>;
}

/**
 * The rich-text blocks of the site's ACTIVE installations, by plugin id then manifest order: what
 * `GET /v1/_rich-blocks` (public) and `GET /api/manage/v1/rich-blocks` answer.
 */
export async function activeRichBlocks(d1: D1Database, siteId: string): Promise<RichBlock[]> {
  const rows = await createDb(d1)
    .selectFrom("plugin_installations")
    .select(["plugin_id", "manifest"])
    .where("site_id", "=", siteId)
    .where("state", "=", "active")
    .orderBy("plugin_id", "asc")
    .execute();
  return rows.flatMap((row) =>
    (JSON.parse(row.manifest) as PluginManifest).rich_text_blocks.map((block) => ({
      name: `${row.plugin_id}/${block.name}`,
      label: block.label,
      version: block.version,
      fields: block.fields,
    })),
  );
}
