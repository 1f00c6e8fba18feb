import { RESULT_BLOCK_KINDS, type PluginCapability, type PluginManifest, type ResultBlockKind } from "../../../schema/plugin-manifest";
import type { Scope } from "../../../schema/scopes";
import { decide, hasSystemPermission } from "../../auth/permissions";
import type { PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { inputIssues, inputMode } from "./input-schema";
import { activeInstallations } from "./active-installations";
import { installationGrant, manifestOf } from "./installations";
import { delegatedCapabilities, findInstallation } from "./launches";

/**
 * Which plugin operations a caller may run now (spec 2 rule 12; docs/plugin-operations.md,
 * "Who may run what"). An operation is offered only while its installation is active and the
 * grant covers every capability the operation declares, inside what the caller's scopes delegate
 * (rule 11). An entry operation needs a granted model the creator reads, inside the credential's
 * models (a destructive one: a model the creator may also update); a site operation needs the
 * creator's `site:plugins`. The same rules decide the list, a run, a replay and the MCP tools.
 */

type ManifestOperation = PluginManifest["operations"][number];

/** Who asks: the caller's scopes and models (a person's own session: every scope, every model). */
export interface OperationViewer {
  scopes: readonly Scope[];
  model_ids: readonly string[] | null;
}

/** An operation entry of `GET /plugins/operations` (spec 2, "Plugin items"). */
export interface OperationItem {
  installation_id: string;
  plugin_id: string;
  plugin_name: string;
  id: string;
  label: string;
  scope: "site" | "entry";
  destructive: boolean;
  automation: boolean;
  /** Whether the operation takes input: `none`, `optional` or `required` (from its schema). */
  input: "none" | "optional" | "required";
  input_schema: Record<string, unknown>;
  /** The block kinds the operation answers with. */
  result: { blocks: ResultBlockKind[] };
  /** Entry operation: the models it runs on for this caller. Site operation: the models it may touch. */
  model_ids: string[];
}

/** An operation found for a run, with the rows the run needs. */
export interface OfferedOperation {
  row: PluginInstallationsTable;
  manifest: PluginManifest;
  operation: ManifestOperation;
  item: OperationItem;
  /** The capabilities the run's delegation carries: the operation's own. */
  capabilities: PluginCapability[];
}

function resultKinds(operation: ManifestOperation): ResultBlockKind[] {
  return operation.result ?? [...RESULT_BLOCK_KINDS];
}

/** The operation as the caller may run it now, or null when it is not offered (rule 12). */
function offer(ctx: LifecycleContext, viewer: OperationViewer, row: PluginInstallationsTable, manifest: PluginManifest, operation: ManifestOperation): OfferedOperation | null {
  if (row.state !== "active") return null;
  const grant = installationGrant(row);
  const delegable = new Set(delegatedCapabilities(viewer.scopes));
  if (!operation.capabilities.every((c) => grant.capabilities.includes(c) && delegable.has(c))) return null;
  const permissions = ctx.actor.permissions;
  const reads = (modelId: string) => decide(permissions, { operation: "read", modelId, actorId: ctx.actor.id }).allowed;
  // update:own counts here: whether this entry is the creator's own is asked when it runs.
  const updates = (modelId: string) => {
    const answer = decide(permissions, { operation: "update", modelId, actorId: ctx.actor.id });
    return answer.allowed || answer.code === "not_owner";
  };
  const models = grant.model_ids.filter((id) => (viewer.model_ids === null || viewer.model_ids.includes(id)) && reads(id));
  let modelIds: string[];
  if (operation.scope === "entry") {
    modelIds = operation.destructive ? models.filter(updates) : models;
    if (modelIds.length === 0) return null;
  } else {
    if (!hasSystemPermission(permissions, "site:plugins")) return null;
    modelIds = models;
  }
  const item: OperationItem = {
    installation_id: row.id,
    plugin_id: row.plugin_id,
    plugin_name: manifest.name,
    id: operation.id,
    label: operation.label,
    scope: operation.scope,
    destructive: operation.destructive,
    automation: operation.automation ?? false,
    input: inputMode(operation.input_schema),
    input_schema: operation.input_schema,
    result: { blocks: resultKinds(operation) },
    model_ids: modelIds,
  };
  return { row, manifest, operation, item, capabilities: [...operation.capabilities] };
}

/** Every operation the caller may run now, by installation age then manifest order. */
export async function listOperations(ctx: LifecycleContext, viewer: OperationViewer): Promise<OfferedOperation[]> {
  const rows = await activeInstallations(ctx.db, ctx.site.id);
  return rows.flatMap((row) => {
    const manifest = manifestOf(row);
    return manifest.operations.map((operation) => offer(ctx, viewer, row, manifest, operation)).filter((x): x is OfferedOperation => x !== null);
  });
}

/** What a run asks for. */
export interface RunRequest {
  /** Installation id (`pin_…`) or plugin id. */
  plugin: string;
  operation: string;
  instance_id?: string | undefined;
  input?: Record<string, unknown> | undefined;
}

/** A run checked and ready to call the plugin. */
export interface CheckedRun extends OfferedOperation {
  instanceId: string | null;
  input: Record<string, unknown>;
}

/**
 * The checks of a run, before anything is written or the plugin called, in this order:
 * installation of this site (404 not_found) → active (409 plugin_unavailable) → the operation
 * offered to the caller (404 operation_unavailable, also for a replay of one no longer offered) →
 * `instance_id` given for an entry operation and only for one (400 invalid_request) → the entry
 * readable by the creator inside the credential's models and outside the Trash (404 not_found,
 * authorise first, then reveal) → its model among the operation's, updatable for a destructive
 * operation (404 operation_unavailable) → the input against `input_schema` (400 input_invalid).
 */
export async function checkRun(ctx: LifecycleContext, viewer: OperationViewer, request: RunRequest): Promise<CheckedRun> {
  const row = await findInstallation(ctx, request.plugin);
  if (row.state !== "active") throw new AppError("plugin_unavailable", "The plugin is not active on this site.", { state: row.state });
  const manifest = manifestOf(row);
  const declared = manifest.operations.find((op) => op.id === request.operation);
  const offered = declared ? offer(ctx, viewer, row, manifest, declared) : null;
  if (!offered) throw new AppError("operation_unavailable", `The plugin offers you no operation "${request.operation}".`);
  let instanceId: string | null = null;
  if (offered.operation.scope === "entry") {
    if (request.instance_id === undefined) throw new AppError("invalid_request", "An entry operation needs instance_id.", { issues: [{ path: "instance_id", message: "Required for an entry operation." }] });
    const entry = await ctx.db
      .selectFrom("entries")
      .select(["instance_id", "model_id", "lang", "owner_id", "trashed_at"])
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", request.instance_id)
      .executeTakeFirst();
    const readable =
      entry !== undefined &&
      (viewer.model_ids === null || viewer.model_ids.includes(entry.model_id)) &&
      decide(ctx.actor.permissions, { operation: "read", modelId: entry.model_id, lang: entry.lang, actorId: ctx.actor.id }).allowed;
    if (!readable || entry.trashed_at !== null) throw new AppError("not_found", "No such entry.");
    if (!offered.item.model_ids.includes(entry.model_id)) throw new AppError("operation_unavailable", "The operation does not run on this entry's model for you.");
    if (offered.operation.destructive && !decide(ctx.actor.permissions, { operation: "update", modelId: entry.model_id, lang: entry.lang, ownerId: entry.owner_id, actorId: ctx.actor.id }).allowed) {
      throw new AppError("operation_unavailable", "A destructive operation needs update on this entry.");
    }
    instanceId = entry.instance_id;
  } else if (request.instance_id !== undefined) {
    throw new AppError("invalid_request", "A site operation takes no instance_id.", { issues: [{ path: "instance_id", message: "Not accepted for a site operation." }] });
  }
  const input = request.input ?? {};
  const issues = inputIssues(offered.operation.input_schema, input);
  if (issues.length > 0) throw new AppError("input_invalid", "The input does not match the operation's input schema.", { issues });
  return { ...offered, instanceId, input };
}
