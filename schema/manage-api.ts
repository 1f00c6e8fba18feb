import * as v from "valibot";
import type { RouteSpec, Surface } from "./contract";
import { bulkRoutes } from "./manage-bulk";
import { trashRoutes } from "./manage-trash";
import { scheduleRoutes } from "./manage-schedules";
import { releaseRoutes } from "./manage-releases";
import { recoveryRoutes } from "./manage-recovery";
import { redirectRoutes } from "./manage-redirects";
import { editingRoutes } from "./manage-editing";
import { generatedBackendRoutes } from "./manage-generated-backend";
import { entryRoutes } from "./manage-entries";
import { mediaRoutes } from "./manage-media";
import { mediaEditRoutes } from "./manage-media-edits";
import { mediaFolderRoutes } from "./manage-media-folders";
import { mediaReplaceRoutes } from "./manage-media-replace";
import { mediaOriginalRoutes } from "./manage-media-originals";
import { mediaUsageRoutes } from "./manage-media-usage";
import { mediaSourceRoutes } from "./manage-media-sources";
import { importRoutes } from "./manage-imports";
import { exportRoutes } from "./manage-exports";
import { relatedFromRoutes } from "./manage-related-from";
import { modelProposalRoutes } from "./manage-model-proposals";
import { modelRoutes } from "./manage-models";
import { pluginRoutes } from "./manage-plugins";
import { proposalRoutes } from "./manage-proposals";
import { roleRoutes } from "./manage-roles";
import { settingsRoutes } from "./manage-settings";
import { corsRoutes } from "./manage-cors";
import { savedQueryRoutes } from "./manage-saved-queries";
import { menuRoutes } from "./manage-menus";
import { pageRoutes } from "./manage-pages";
import { commentRoutes } from "./manage-comments";
import { siteChromeRoutes } from "./manage-site-chrome";
import { accessRuleRoutes } from "./manage-access-rules";

const siteRoutes: readonly RouteSpec[] = [
  {
    operationId: "getSite",
    method: "get",
    path: "/site",
    summary: "The credential's site, its languages, and the scopes available and held",
    scope: "content:read",
    response: v.object({
      id: v.string(),
      slug: v.string(),
      name: v.string(),
      default_lang: v.string(),
      languages: v.array(v.string()),
      scopes_available: v.array(v.string()),
      credential: v.object({ id: v.string(), name: v.string(), scopes: v.array(v.string()), model_ids: v.nullable(v.array(v.string())) }),
    }),
    errors: ["unauthorized", "creator_unauthorized", "rate_limited"],
  },
];

/** The management API v1: one table, from which the router, OpenAPI file, CLI and MCP tools come. */
export const manageSurface: Surface = {
  title: "Driftwood management API",
  version: "1",
  description:
    "Manage one site's content, models and settings. The site comes from the credential (Authorization: Bearer dwm_…). Every write needs an Idempotency-Key.",
  basePath: "/api/manage/v1",
  // The shared JSON body reader (workers/http/json-body.ts): every write's body is capped.
  bodyErrors: ["payload_too_large"],
  // A site the operators suspended (docs/operations-api.md): every operation, after the credential.
  callerErrors: ["site_suspended"],
  security: { name: "managementCredential", scheme: { type: "http", scheme: "bearer", description: "dwm_… management credential" } },
  routes: [...siteRoutes, ...entryRoutes, ...relatedFromRoutes, ...editingRoutes, ...modelProposalRoutes, ...modelRoutes, ...proposalRoutes, ...roleRoutes, ...settingsRoutes, ...pluginRoutes, ...mediaSourceRoutes, ...mediaRoutes, ...mediaEditRoutes, ...mediaFolderRoutes, ...mediaReplaceRoutes, ...mediaOriginalRoutes, ...mediaUsageRoutes, ...generatedBackendRoutes, ...importRoutes, ...exportRoutes, ...corsRoutes, ...savedQueryRoutes, ...menuRoutes, ...pageRoutes, ...commentRoutes, ...siteChromeRoutes, ...accessRuleRoutes, ...trashRoutes, ...bulkRoutes, ...scheduleRoutes, ...releaseRoutes, ...recoveryRoutes, ...redirectRoutes],
};
