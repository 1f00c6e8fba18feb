import { AuditLogQuery, FetchManifestBody } from "../../schema/admin-siteadmin";
import { fetchPluginManifest } from "../../shared/services/plugins/manifest-fetch";
import { readBody } from "./body";
import { listWebhookDeliveries, testWebhook } from "../../shared/events/webhook-test";
import { listAuditLog } from "../../shared/services/audit/audit-log";
import { parse } from "../../shared/services/validation/parse";
import { json } from "../http/respond";
import { queryObject } from "../manage/router";
import type { SiteCall } from "./auth";

/** GET /api/audit-log: one page of the site's audit log, filtered (docs/admin-ui-settings.md, "Audit log"). */
export async function auditLog(call: SiteCall): Promise<Response> {
  const { limit, ...filter } = parse(AuditLogQuery, queryObject(new URL(call.request.url)));
  return json(await listAuditLog(call.ctx, call.env, { ...filter, ...(limit ? { limit: Number(limit) } : {}) }));
}

/** POST /api/webhooks/{id}/test: a signed ping now, answered with how it went. */
export async function webhookTest(call: SiteCall): Promise<Response> {
  return json(await testWebhook(call.ctx, call.env, call.ctx.clock, call.params[0] ?? ""));
}

/** GET /api/webhooks/{id}/deliveries: the webhook's recent deliveries. */
export async function webhookDeliveries(call: SiteCall): Promise<Response> {
  return json({ data: await listWebhookDeliveries(call.ctx, call.params[0] ?? "") });
}

/** POST /api/plugin-manifests/fetch: a manifest read from its address, and what it changes for an installed plugin. */
export async function pluginManifest(call: SiteCall): Promise<Response> {
  const { url } = await readBody(call.request, FetchManifestBody);
  return json(await fetchPluginManifest(call.ctx, call.env, url));
}
