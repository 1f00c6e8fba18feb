import { pluginSurface } from "../../schema/plugin-api";
import { PLUGIN_RATE_LIMIT, pluginRateLimit, PROTOCOL_BASE, PROTOCOL_VERSIONS, type Context, type ScheduleCommand, type TransitionCommand } from "../../schema/plugin-protocol";
import type { RouteSpec } from "../../schema/contract";
import type { DeferredRate } from "../../objects/site/commands";
import { authenticatePluginWith, type ReadsWithInstallation } from "../../shared/auth/plugin-authority";
import { delegateFrom, resolveDelegation } from "../../shared/auth/plugin-delegation";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import type { PluginInstallationsTable } from "../../shared/db/database";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { findSiteById } from "../../shared/repositories/site-repository";
import { installationGrant } from "../../shared/services/plugins/installations";
import { exchangeLaunchCode } from "../../shared/services/plugins/launches";
import { listContent, readContent, type ContentListInput } from "../../shared/services/plugins/content";
import { parse } from "../../shared/services/validation/parse";
import { siteObject } from "../forward";
import { malformedPath, routeTable } from "../http/route-table";
import { outcomeResponse, renderPluginError } from "./outcome";
import { parseJsonText } from "../http/json-body";
import { readCappedBody, singleValuedQuery } from "./request";
import { runTransition } from "./transitions";
import { runSchedule } from "./schedules";
import { pluginReadPlan, type PluginPreread } from "./request-reads";
import { siteScopedDatabase } from "../../shared/db/site-databases";

export { PROTOCOL_BASE };

/** What every protocol handler gets: the installation the token belongs to and the parsed request. */
export interface PluginCall {
  env: Env;
  request: Request;
  url: URL;
  installation: PluginInstallationsTable;
  /** What the operation needs from the control database, read with the installation (./request-reads.ts). */
  preread: PluginPreread;
  /** The installation's site: directory and content reads, each on its own database (shared/db/site-databases.ts). */
  d1: D1Database;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  now: number;
  /**
   * The installation's rate window when the handler's command spends it in its own site-object
   * call (a transition: one Durable Object request, not two); see handlePlugin.
   */
  rate?: DeferredRate;
}

type Handler = (call: PluginCall) => Promise<Response>;

async function context(call: PluginCall): Promise<Response> {
  const site = "site" in call.preread ? call.preread.site : await findSiteById(createDb(call.d1), call.installation.site_id);
  if (!site) throw new AppError("plugin_unauthorized", "The installation token is missing, unknown, disabled or revoked.");
  const grant = installationGrant(call.installation);
  const data: Context = {
    installation_id: call.installation.id,
    site: { id: site.id, name: site.name, default_lang: site.default_lang },
    protocol_version: PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.length - 1] ?? 1,
    capabilities: grant.capabilities,
    model_ids: grant.model_ids,
  };
  return outcomeResponse("ok", "Installation context.", data);
}

async function contentList(call: PluginCall): Promise<Response> {
  return outcomeResponse("ok", "Content page.", await listContent(createDb(call.d1), call.installation, call.query as unknown as ContentListInput));
}

async function contentItem(call: PluginCall): Promise<Response> {
  const delegationId = call.query.delegation_id;
  const rows = call.preread.delegation;
  const resolve =
    delegationId === undefined
      ? null
      : async () => (rows ? await delegateFrom(createDb(call.d1), call.installation, rows, call.now) : await resolveDelegation(call.d1, call.installation, delegationId, call.now)).actor;
  return outcomeResponse("ok", "Content item.", await readContent(call.d1, call.installation, call.params.instance_id ?? "", resolve));
}

async function transition(call: PluginCall): Promise<Response> {
  return runTransition(call, call.params.instance_id ?? "", call.body as TransitionCommand);
}

async function schedule(call: PluginCall): Promise<Response> {
  return runSchedule(call, call.params.instance_id ?? "", call.body as ScheduleCommand);
}

async function exchange(call: PluginCall): Promise<Response> {
  const { code } = call.body as { code: string };
  return outcomeResponse("ok", "Launch code exchanged.", await exchangeLaunchCode(call.d1, call.installation, code, call.now, call.preread.exchange));
}

/** One handler per operation of schema/plugin-api.ts. */
export const PLUGIN_HANDLERS: Readonly<Record<string, Handler>> = {
  getContext: context,
  listContent: contentList,
  getContent: contentItem,
  transitionContent: transition,
  scheduleContent: schedule,
  exchangeLaunchCode: exchange,
};

const match = routeTable(PROTOCOL_BASE, pluginSurface.routes);

function parseOptional(schema: RouteSpec["query"], input: unknown): unknown {
  return schema ? parse(schema, input) : input;
}

/** A matched route's operation and parsed input, or the protocol's refusal of the request's shape. */
function parseRoute(matched: Awaited<ReturnType<typeof match>>, request: Request, url: URL, body: string) {
  // The protocol's codes are closed: an unknown route or method and a path that is not valid
  // percent-encoding are all requests not valid for protocol v1 (never a retryable failure).
  if (matched.kind === "malformed") throw malformedPath();
  if (matched.kind !== "matched") throw new AppError("invalid_request", "No such route in plugin protocol v1.");
  const { route, params } = matched;
  const handler = PLUGIN_HANDLERS[route.operationId];
  if (!handler) throw new AppError("invalid_request", "No such route in plugin protocol v1.");
  return {
    operationId: route.operationId,
    handler,
    params: parseOptional(route.params, params) as Record<string, string>,
    query: parseOptional(route.query, singleValuedQuery(url)) as Record<string, string | undefined>,
    body: route.body ? parse(route.body, parseJsonText(request, body)) : undefined,
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settled<T>(run: () => T): Settled<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Plugin protocol v1 (docs/plugins.md): size limit before parsing → installation token → rate limit
 * (per installation, in the site's object) → route → closed-schema parsing → handler. Every answer
 * is the outcome envelope; the site comes from the token. The route and its input are parsed
 * before the token is checked only so that the ids they name key the reads sent with the
 * installation's (one D1 batch, ./request-reads.ts); their refusals still come after the token's
 * and the rate limit's.
 */
const RATE_MESSAGE = "Too many requests for this installation.";

export async function handlePlugin(request: Request, env: Env): Promise<Response> {
  const requestId = crypto.randomUUID();
  try {
    // Every method: a GET carrying a body is held to the same limit.
    const body = await readCappedBody(request);
    const now = systemClock.now();
    const url = new URL(request.url);
    const parsed = settled(parseRoute.bind(null, await match(request), request, url, body));
    const plan = parsed.ok ? await pluginReadPlan(parsed.value, now) : undefined;
    // The site's suspension is read in the installation's batch, before the plan's reads.
    const reads: ReadsWithInstallation = (db, keys) => [db.selectFrom("sites").select("suspended_at").where("id", "=", keys.siteId).compile(), ...(plan?.reads(db, keys) ?? [])];
    const { installation, answers: [siteRows, ...answers] } = await authenticatePluginWith(env.DB, request, now, reads);
    // A suspended site (docs/operations-api.md) takes no plugin request. Spec 1: an envelope's code is
    // one of the protocol's outcome codes, so the refusal is 403 capability_refused (nothing is granted
    // while the site is suspended), its message saying why; other surfaces answer 403 site_suspended.
    const suspendedAt = (siteRows?.[0] as { suspended_at: string | null } | undefined)?.suspended_at ?? null;
    if (suspendedAt !== null) throw new AppError("capability_refused", "This site is suspended by the operators: no capability is granted until it is resumed.", { suspended_at: suspendedAt });
    const spendRate = async (): Promise<void> => {
      const rate = await siteObject(env, installation.site_id).takeRate(`plugin:${installation.id}`, pluginRateLimit(env), PLUGIN_RATE_LIMIT.windowMs);
      if (!rate.allowed) throw new AppError("rate_limited", RATE_MESSAGE, { retry_after: Math.ceil(rate.retryAfterMs / 1000) });
    };
    // A transition's command spends the window in its own site-object call; whatever answers
    // before that command spends it here first, so every request counts once and 429 comes first.
    const deferred: DeferredRate | undefined =
      parsed.ok && parsed.value.handler === transition
        ? { bucket: `plugin:${installation.id}`, limit: pluginRateLimit(env), windowMs: PLUGIN_RATE_LIMIT.windowMs, message: RATE_MESSAGE, spent: false }
        : undefined;
    if (!deferred) await spendRate();
    if (!parsed.ok) throw parsed.error;
    const d1 = await siteScopedDatabase(env, installation.site_id);
    const { handler, params, query } = parsed.value;
    const call: PluginCall = {
      env,
      request,
      url,
      installation,
      preread: plan ? plan.decode(answers) : {},
      d1,
      params,
      query,
      body: parsed.value.body,
      now,
      ...(deferred ? { rate: deferred } : {}),
    };
    try {
      return await handler(call);
    } finally {
      if (deferred && !deferred.spent) await spendRate();
    }
  } catch (thrown) {
    return renderPluginError(thrown, requestId);
  }
}
