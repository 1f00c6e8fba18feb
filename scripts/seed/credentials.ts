/**
 * The demo's credentials. Secrets are shown once and stored only as digests, so the seed keeps the
 * plaintext of the demo's own credentials in a local file beside the dev state (never in git) and
 * passes it back here: a secret whose digest is still live is reused, anything else is minted anew.
 */
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { systemClock } from "../../shared/clock";
import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById } from "../../shared/repositories/site-repository";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { createSiteToken } from "../../shared/services/credentials/site-tokens";
import { ALL_SCOPES } from "../../schema/scopes";
import { ensureDemoPlugin } from "./plugin";

export interface DemoCredentials {
  site_api_token: string;
  /** `dwm_…`: every scope on the demo site, every model, acting as the demo admin. */
  management_token: string;
  /** `dwp_…`: the active `demo-helper` plugin installation (every plugin capability, every demo model). */
  plugin_token: string;
  /** `whsec_…`: signs the demo plugin's event deliveries. */
  plugin_event_secret: string;
  /** `pin_…`: the demo plugin's installation id. */
  plugin_installation_id: string;
}

async function liveSiteToken(d1: D1Database, siteId: string, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const row = await d1
    .prepare("SELECT 1 AS ok FROM site_api_tokens WHERE digest = ? AND site_id = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(token), siteId)
    .first<{ ok: number }>();
  return row !== null;
}

async function liveManagementCredential(d1: D1Database, siteId: string, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const row = await d1
    .prepare("SELECT 1 AS ok FROM management_credentials WHERE digest = ? AND site_id = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(token), siteId)
    .first<{ ok: number }>();
  return row !== null;
}

/** Makes sure the demo has its credentials; returns their plaintext (known ones reused). */
export async function ensureDemoCredentials(d1: D1Database, demoSiteId: string, adminId: string, known: Partial<DemoCredentials>): Promise<DemoCredentials> {
  const db = createDb(d1);
  const site = await findSiteById(db, demoSiteId);
  if (!site) throw new Error("demo site missing");
  const admin = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!admin) throw new Error("no admin role");
  const ctx: LifecycleContext = {
    db,
    d1,
    scope: siteScope(site.id),
    site,
    actor: { kind: "person", id: adminId, permissions: structuredClone(admin.permissions) },
    clock: systemClock,
  };
  let siteToken = known.site_api_token;
  if (!(await liveSiteToken(d1, site.id, siteToken))) {
    const note = await modelRepository(db, ctx.scope).findBySlug("note");
    if (!note) throw new Error("demo model note missing");
    siteToken = (await createSiteToken(ctx, { name: "Demo seed: private notes", model_ids: [note.id] })).token;
  }
  let managementToken = known.management_token;
  if (!(await liveManagementCredential(d1, site.id, managementToken))) {
    managementToken = (await createManagementCredential(ctx, { name: "Demo seed: management (every scope)", scopes: ALL_SCOPES })).token;
  }
  const plugin = await ensureDemoPlugin(ctx, known.plugin_token);
  return {
    site_api_token: siteToken ?? "",
    management_token: managementToken ?? "",
    plugin_token: plugin.token,
    plugin_event_secret: plugin.event_secret,
    plugin_installation_id: plugin.installation_id,
  };
}
