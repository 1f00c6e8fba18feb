import * as v from "valibot";
import type { RouteSpec, Surface } from "./contract";

/**
 * Operators' routes on the admin host (docs/scale.md, "Moving a site"): enabled only when the
 * deployment has an `OPS_TOKEN` secret (absent → every path here is 404), authenticated by
 * `Authorization: Bearer <OPS_TOKEN>` (wrong or missing → 401). Not part of the published contract:
 * `scripts/move-site.mjs` is their client.
 */
export const OPS_BASE = "/api/ops";

const SiteId = v.pipe(v.string(), v.regex(/^site_[A-Za-z0-9_-]{1,64}$/));

export const MoveSitePath = v.strictObject({ id: SiteId });

/** POST /api/ops/sites/{id}/database: the binding to move the site's content to. */
export const MoveSiteBody = v.strictObject({ binding: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

export const MoveSiteAnswer = v.strictObject({
  site_id: v.string(),
  from: v.string(),
  to: v.string(),
  moved: v.boolean(),
  rows: v.record(v.string(), v.number()),
});

export const opsRoutes = [
  {
    operationId: "moveSiteDatabase",
    method: "post",
    path: "/sites/{id}/database",
    summary: "Move a site's content to another site database (copy, verify, flip the map, delete the source)",
    params: MoveSitePath,
    body: MoveSiteBody,
    response: MoveSiteAnswer,
    errors: ["unauthorized", "not_found", "invalid_request", "unknown_database", "temporary_failure"],
  },
] as const satisfies readonly RouteSpec[];

export const opsSurface: Surface = {
  title: "Driftwood operators",
  version: "1",
  description: "Operator routes on the admin host, enabled by the OPS_TOKEN secret.",
  basePath: OPS_BASE,
  routes: opsRoutes,
};
