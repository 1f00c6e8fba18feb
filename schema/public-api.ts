import * as v from "valibot";
import type { Surface } from "./contract";
import { publicContentRoutes } from "./public-content-routes";
import { publicSiteRoutes } from "./public-site-routes";

/** The public read API (spec 1). The router's own parsers live in workers/public/params.ts. */
export const publicSurface: Surface = {
  title: "Driftwood public read API",
  version: "1",
  description: "Published content of the site that owns the Host. Every refusal of a thing is the same 404.",
  basePath: "",
  security: { name: "siteToken", scheme: { type: "http", scheme: "bearer", description: "dw_site_… token for private models" } },
  routes: [
    {
      operationId: "health",
      method: "get",
      path: "/health",
      summary: "Whether the host serves a site",
      response: v.strictObject({ ok: v.literal(true), site: v.string() }),
      errors: ["not_found"],
    },
    ...publicContentRoutes,
    ...publicSiteRoutes,
  ],
};
