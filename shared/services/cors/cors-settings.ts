import type { CorsOrigin } from "../../content/site-settings";
import { AppError } from "../../errors";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { checkRevision, requireSettings, settingsUpdate } from "../settings/settings-revision";
import { ANY_ORIGIN, isExactHttpsOrigin, isLocalOriginPattern } from "./origins";

/**
 * Per-site CORS settings (spec 3, "Browser access … per-site CORS settings"; docs/cors.md):
 * GET/PUT /settings/cors. Stored in `sites.settings.cors`, versioned by the settings revision like
 * every other site setting. Needs `site:settings` (scope `settings:write`).
 */

export const MAX_CORS_ORIGINS = 32;

export interface CorsSettingsView {
  cors: { origins: CorsOrigin[] };
  revision: number;
  /** Whether `http://localhost:…` origins are honoured by this deployment (local development). */
  local_origins_honoured: boolean;
}

export interface PutCorsSettingsInput {
  origins: { origin: string; tokens?: boolean }[];
  expected_revision?: number;
  /** Set by the surface from the deployment (never from the body): whether localhost origins may be stored. */
  local_development: boolean;
}

export function corsSettingsView(origins: CorsOrigin[], revision: number, localDevelopment: boolean): CorsSettingsView {
  return { cors: { origins }, revision, local_origins_honoured: localDevelopment };
}

/** Every problem of a list of origins, by path (`origins[2].origin`). */
function originIssues(input: PutCorsSettingsInput): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  input.origins.forEach(({ origin, tokens }, i) => {
    const path = `origins[${i}].origin`;
    if (seen.has(origin)) issues.push({ path, message: `"${origin}" is named twice` });
    seen.add(origin);
    if (origin === ANY_ORIGIN) {
      if (tokens === true) issues.push({ path: `origins[${i}].tokens`, message: "any origin (*) may never send tokens: name each origin that may" });
      return;
    }
    if (isExactHttpsOrigin(origin)) return;
    if (isLocalOriginPattern(origin)) {
      if (!input.local_development) issues.push({ path, message: `"${origin}" is a local development origin; this deployment honours only https origins` });
      return;
    }
    issues.push({ path, message: `"${origin}" is not an exact https origin (https://host[:port], lower case, no path), "*" or, in local development, http://localhost:<port|*>` });
  });
  if (input.origins.length > MAX_CORS_ORIGINS) issues.push({ path: "origins", message: `at most ${MAX_CORS_ORIGINS} origins` });
  return issues;
}

/** PUT /settings/cors: replaces the list of allowed origins. */
export async function putCorsSettings(ctx: LifecycleContext, input: PutCorsSettingsInput): Promise<WritePlan<CorsSettingsView>> {
  requireSettings(ctx, "CORS settings");
  const site = ctx.site;
  checkRevision(ctx, input.expected_revision);
  const issues = originIssues(input);
  if (issues.length > 0) throw new AppError("invalid_request", "Some origins are not valid.", { issues });

  const origins: CorsOrigin[] = input.origins.map(({ origin, tokens }) => ({ origin, tokens: tokens === true }));
  const after = { ...site.settings, cors: { origins } };
  const revision = site.settings_revision + 1;
  return {
    statements: [
      settingsUpdate(ctx, after),
    ],
    answer: corsSettingsView(origins, revision, input.local_development),
    events: [{ name: "site.settings_updated", payload: { revision, changed: ["cors"] } }],
    // CORS headers are added after the edge cache (workers/public/cors.ts): no cached body changes.
    purgeTags: [],
    audit: { action: "site.cors_update", targetKind: "site", targetId: site.id, details: { origins } },
  };
}
