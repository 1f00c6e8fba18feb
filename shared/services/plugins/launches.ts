import type { PluginCapability } from "../../../schema/plugin-manifest";
import { ALL_SCOPES, type Scope } from "../../../schema/scopes";
import type { Caller } from "../../auth/caller";
import { decide } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { newSecret, sha256Hex } from "../../crypto/digest";
import { sql, type CompiledQuery, type Expression, type Kysely } from "kysely";
import { delegateFrom, delegationReads, delegationRowsOf, type DelegationRows } from "../../auth/plugin-delegation";
import { createDb } from "../../db/client";
import { readTogether } from "../../db/read-together";
import type { Database, PluginInstallationsTable } from "../../db/database";
import { guard } from "../../db/batch";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { judgeOutboundUrl, PUBLIC_ONLY, type OutboundPolicy } from "../../net/outbound-address";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";
import { installationGrant, manifestOf } from "./installations";

/**
 * Launches (docs/plugins.md, "Launches and delegations"): a person, directly or through a
 * management credential, opens a plugin's manage view or runs a content action. That never runs
 * plugin code: it creates a single-use launch code (`dwl_…`, 60000 ms) and a delegation, and
 * answers the plugin address carrying the code. The plugin exchanges the code with its own
 * installation token (`exchangeLaunchCode`) and learns the delegation — never a credential of the
 * person. Every use of the delegation re-checks the person (shared/auth/plugin-delegation.ts).
 */

/** Spec: launch code lifetime. */
export const LAUNCH_CODE_LIFETIME_MS = 60_000;
/** Decision: a delegation may be used for one hour after its launch (docs/plugins.md). */
export const DELEGATION_LIFETIME_MS = 3_600_000;

/** Spec 2 rule 11: the plugin capabilities each management scope delegates. */
export const DELEGATED_BY_SCOPE: Readonly<Partial<Record<Scope, readonly PluginCapability[]>>> = {
  "content:read": ["content:read", "workflow:read"],
  "lifecycle:publish": ["workflow:publish", "workflow:unpublish", "workflow:locale"],
  "content:write": ["content:write", "content:create", "draft:write"],
  "content:trash": ["content:delete"],
  "media:write": ["media:write", "media:read", "media:update", "media:source"],
  "content:propose": ["content:propose"],
};

/** The capabilities a caller holding `scopes` may delegate (a person's own launch: every scope). */
export function delegatedCapabilities(scopes: readonly Scope[]): PluginCapability[] {
  const out = new Set<PluginCapability>();
  for (const scope of scopes) for (const capability of DELEGATED_BY_SCOPE[scope] ?? []) out.add(capability);
  return [...out];
}

export type LaunchKind = "manage_view" | "content_action";

/** Who launches: the person (actor), and the credential they launch through, if any. */
export interface Launcher {
  credential: { id: string; scopes: Scope[]; model_ids: string[] | null } | null;
}

/**
 * The launcher of who asks: a person in their own session launches as the person (`credential:
 * null`: the delegation gets every scope and names no credential, as the admin's launch routes
 * do); a credential binds the delegation to itself, its scopes and its models, so revoking it
 * ends the delegation.
 */
export function launcherOf(caller: Caller): Launcher {
  if (caller.kind === "session") return { credential: null };
  const { id, scopes, model_ids } = caller.credential;
  return { credential: { id, scopes, model_ids } };
}

export interface LaunchRequest {
  /** The installation id (`pin_…`) or the plugin's manifest id. */
  plugin: string;
  kind: LaunchKind;
  /** The manage view id or the content action id. */
  target: string;
  /** The entry a content action runs on. */
  instance_id?: string;
}

/** Spec 2: the launch answer (201). */
export interface LaunchAnswer {
  outcome: "launch_created";
  url: string;
  expires_at: string;
  single_use: true;
}

/**
 * Where a launch sends the person: the endpoint plus the entry point's path, under the outbound
 * address policy (a launch code is never handed to a private or local address; 409 plugin_unavailable).
 */
function launchUrl(endpoint: string, path: string, policy: OutboundPolicy): URL {
  const verdict = judgeOutboundUrl(endpoint.replace(/\/+$/, "") + path, policy);
  if (!verdict.ok) throw new AppError("plugin_unavailable", `The plugin's endpoint is refused: ${verdict.reason}.`, { reason: verdict.reason });
  return verdict.url;
}

/** The site's installation named by id or plugin id; another site's or none: 404 not_found. */
export async function findInstallation(ctx: LifecycleContext, plugin: string): Promise<PluginInstallationsTable> {
  const row = await ctx.db
    .selectFrom("plugin_installations")
    .selectAll()
    .where("site_id", "=", ctx.site.id)
    .where(plugin.startsWith("pin_") ? "id" : "plugin_id", "=", plugin)
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such plugin on this site.");
  return row;
}

function capabilityRefused(message: string, details?: Record<string, unknown>): AppError {
  return new AppError("capability_refused", message, details);
}

/**
 * Creates a launch (spec 2 rules 10–11). Re-checks, in this order: the installation is the site's
 * (404 not_found) and active (409 installation_not_active); the view or action exists (404
 * not_found); for a content action, the entry exists and is readable by the person now within the
 * credential's models (else 404 not_found, as GET /entries/{id} answers: authorise first, then
 * reveal), is not in the Trash (404 not_found), its model is one the action applies to (404
 * not_found) and is granted to the installation (403 capability_refused).
 * Writes the delegation, the code's digest and an audit record in one batch.
 */
export async function createLaunch(ctx: LifecycleContext, launcher: Launcher, request: LaunchRequest, policy: OutboundPolicy = PUBLIC_ONLY): Promise<LaunchAnswer> {
  const row = await findInstallation(ctx, request.plugin);
  if (row.state !== "active") {
    throw new AppError("installation_not_active", "The plugin is not active on this site.", { state: row.state });
  }
  const manifest = manifestOf(row);
  const grant = installationGrant(row);
  const entryPoint =
    request.kind === "manage_view" ? manifest.manage_views.find((view) => view.id === request.target) : manifest.content_actions.find((action) => action.id === request.target);
  if (!entryPoint) throw new AppError("not_found", `The plugin has no ${request.kind === "manage_view" ? "manage view" : "content action"} "${request.target}".`);

  let instanceId: string | null = null;
  if (request.kind === "content_action") {
    const entry = await ctx.db
      .selectFrom("entries")
      .select(["instance_id", "model_id", "lang", "trashed_at"])
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", request.instance_id ?? "")
      .executeTakeFirst();
    // Authorise first, then reveal: an entry the person may not read now, or outside the
    // credential's models, is "not found" before its Trash state, models or grant are told.
    const credentialModels = launcher.credential?.model_ids ?? null;
    const readable =
      entry !== undefined &&
      (credentialModels === null || credentialModels.includes(entry.model_id)) &&
      decide(ctx.actor.permissions, { operation: "read", modelId: entry.model_id, lang: entry.lang, actorId: ctx.actor.id }).allowed;
    if (!readable || entry.trashed_at !== null) throw new AppError("not_found", "No such entry.");
    const actionModels: readonly string[] | undefined = "model_ids" in entryPoint ? (entryPoint.model_ids as string[] | undefined) : undefined;
    if (actionModels !== undefined && !actionModels.includes(entry.model_id)) throw new AppError("not_found", "The action does not apply to this entry's model.");
    if (!grant.model_ids.includes(entry.model_id)) throw capabilityRefused("The plugin is not granted this entry's model.", { model_id: entry.model_id });
    instanceId = entry.instance_id;
  } else {
    // A view acts on the plugin's models: the person must read one of them, inside the credential's models.
    const credentialModels = launcher.credential?.model_ids ?? null;
    const reachable = grant.model_ids.filter((id) => (credentialModels === null || credentialModels.includes(id)) && decide(ctx.actor.permissions, { operation: "read", modelId: id, actorId: ctx.actor.id }).allowed);
    if (grant.model_ids.length > 0 && reachable.length === 0) throw capabilityRefused("You may not read any of the models granted to this plugin.");
  }

  const scopes = launcher.credential?.scopes ?? ALL_SCOPES;
  const delegable = new Set(delegatedCapabilities(scopes));
  const capabilities = grant.capabilities.filter((c) => delegable.has(c));
  // Spec 2 rule 11: what the launcher's scopes cannot delegate is refused, not silently granted.
  if (grant.capabilities.length > 0 && capabilities.length === 0) throw capabilityRefused("Your scopes delegate none of the capabilities granted to this plugin.");
  const url = launchUrl(manifest.endpoint, entryPoint.path, policy);
  const issued = await issueCode(ctx, row, launcher, { kind: request.kind, target: request.target, instanceId, capabilities });
  url.searchParams.set("code", issued.code);

  await commitPlan(ctx, {
    statements: issued.statements,
    answer: null,
    events: [],
    purgeTags: [],
    audit: {
      action: "plugin.launch",
      targetKind: "plugin_installation",
      targetId: row.id,
      details: { kind: request.kind, target: request.target, instance_id: instanceId, delegation_id: issued.delegationId, capabilities },
    },
  });
  return { outcome: "launch_created", url: url.toString(), expires_at: isoAt(issued.expiresAt), single_use: true };
}

/** What a delegation was made for: a launch, or an operation run (docs/plugin-operations.md). */
export type DelegationKind = LaunchKind | "operation";

/** A one-time code and its delegation, as statements for the caller's batch. */
export interface IssuedCode {
  code: string;
  delegationId: string;
  expiresAt: number;
  statements: CompiledQuery[];
}

/**
 * A delegation (`dlg_…`) for `launcher` and its single-use code (`dwl_…`, 60000 ms, stored as a
 * digest), with a guard that the installation is still active and unchanged: a disable, revoke or
 * grant change committed since the caller's reads writes nothing. Shared by launches and
 * operation runs, whose plugin exchanges the code exactly like a launch's.
 */
export async function issueCode(
  ctx: LifecycleContext,
  row: PluginInstallationsTable,
  launcher: Launcher,
  what: { kind: DelegationKind; target: string; instanceId: string | null; capabilities: PluginCapability[] },
): Promise<IssuedCode> {
  const now = ctx.clock.now();
  const code = newSecret("dwl_");
  const delegationId = newId("dlg");
  const expiresAt = now + LAUNCH_CODE_LIFETIME_MS;
  return {
    code,
    delegationId,
    expiresAt,
    statements: [
      guard(ctx.db, "installation_not_active", "EXISTS (SELECT 1 FROM plugin_installations WHERE id = ? AND state = 'active' AND updated_at = ?)", [row.id, row.updated_at]),
      ctx.db
        .insertInto("plugin_delegations")
        .values({
          id: delegationId,
          site_id: ctx.site.id,
          installation_id: row.id,
          person_id: ctx.actor.id,
          credential_id: launcher.credential?.id ?? null,
          scopes: launcher.credential ? JSON.stringify(launcher.credential.scopes) : null,
          model_ids: launcher.credential?.model_ids ? JSON.stringify(launcher.credential.model_ids) : null,
          capabilities: JSON.stringify(what.capabilities),
          launch_kind: what.kind,
          launch_target: what.target,
          instance_id: what.instanceId,
          created_at: isoAt(now),
          expires_at: now + DELEGATION_LIFETIME_MS,
        })
        .compile(),
      ctx.db
        .insertInto("plugin_launch_codes")
        .values({ code_digest: await sha256Hex(code), site_id: ctx.site.id, installation_id: row.id, delegation_id: delegationId, expires_at: expiresAt, consumed_at: null })
        .compile(),
    ],
  };
}

/** What the plugin learns by exchanging a launch code: the delegation, never a credential. */
export interface ExchangeAnswer {
  delegation_id: string;
  expires_at: string;
  person: { id: string; name: string };
  launch: { kind: DelegationKind; id: string; instance_id: string | null };
  capabilities: PluginCapability[];
  model_ids: string[];
}

/** What an exchange reads before it consumes the code: the code, its delegation's rows, the person. */
export interface ExchangeRows {
  code: { delegation_id: string } | undefined;
  delegation: DelegationRows;
  person: { id: string; name: string } | undefined;
}

type Key = string | Expression<string>;

/**
 * The reads of an exchange, for one D1 batch: the live code of this installation, the
 * delegation's rows (`delegationReads`) and its person, keyed through subqueries on the code. The
 * installation's keys may themselves be subqueries (the plugin router reads them with the token's).
 */
export function exchangeReads(db: Kysely<Database>, codeDigest: string, installationId: Key, siteId: Key, now: number) {
  const code = db
    .selectFrom("plugin_launch_codes")
    .where("code_digest", "=", codeDigest)
    .where("installation_id", "=", installationId)
    .where("site_id", "=", siteId)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now);
  const delegationId = sql<string>`(${code.select("delegation_id")})`;
  return [
    code.select("delegation_id").compile(),
    ...delegationReads(db, delegationId, installationId, siteId),
    db
      .selectFrom("persons")
      .select(["id", "name"])
      .where("id", "=", sql<string>`(${db.selectFrom("plugin_delegations").select("person_id").where("id", "=", delegationId)})`)
      .compile(),
  ] as const;
}

/** The answers of an `exchangeReads` batch, in its order. */
export function exchangeRowsOf(answers: readonly unknown[][]): ExchangeRows {
  const [code, delegation, authority, credential, connection, person] = answers;
  return {
    code: code?.[0] as ExchangeRows["code"],
    delegation: delegationRowsOf([delegation ?? [], authority ?? [], credential ?? [], connection ?? []]),
    person: person?.[0] as ExchangeRows["person"],
  };
}

/**
 * Exchanges a launch code of `installation`: the person is re-checked first (a refusal leaves the
 * code unused), then the code is consumed by one conditional UPDATE (unused, unexpired, this
 * installation's), so two exchanges racing get one success. Unknown, used, expired or another
 * installation's code: one answer, 400 invalid_request. `read`: the `exchangeReads` rows when the
 * caller read them already (with the token's installation), else read here in one batch.
 */
export async function exchangeLaunchCode(d1: D1Database, installation: PluginInstallationsTable, code: string, now: number, read?: ExchangeRows): Promise<ExchangeAnswer> {
  const db = createDb(d1);
  const digest = await sha256Hex(code);
  const unknown = () => new AppError("invalid_request", "The launch code is unknown, already used or expired.");
  const rows = read ?? exchangeRowsOf(await readTogether(d1, exchangeReads(db, digest, installation.id, installation.site_id, now)));
  if (!rows.code) throw unknown();
  const delegate = await delegateFrom(db, installation, rows.delegation, now);
  const consumed = await db
    .updateTable("plugin_launch_codes")
    .set({ consumed_at: now })
    .where("code_digest", "=", digest)
    .where("installation_id", "=", installation.id)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  if (Number(consumed.numUpdatedRows) !== 1) throw unknown();
  const person = rows.person;
  if (!person) throw new Error(`person ${delegate.delegation.person_id} of delegation ${delegate.delegation.id} is gone`);
  return {
    delegation_id: delegate.delegation.id,
    expires_at: isoAt(delegate.delegation.expires_at),
    person: { id: person.id, name: person.name },
    launch: { kind: delegate.delegation.launch_kind, id: delegate.delegation.launch_target, instance_id: delegate.delegation.instance_id },
    capabilities: delegate.capabilities,
    model_ids: delegate.modelIds,
  };
}
