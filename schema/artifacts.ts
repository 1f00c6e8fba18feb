import { adminSurface } from "./admin-api";
import { buildOpenApi } from "./openapi";
import { manageSurface } from "./manage-api";
import { opsSurface } from "./ops-api";
import { pluginSurface } from "./plugin-api";
import { publicSurface } from "./public-api";
import { buildTypes } from "./typescript";

/**
 * Every generated artefact of the contract, by path relative to the project root. `npm run contract`
 * writes them; `npm run contract:check` (part of `npm test`) fails when a committed one is stale.
 */
export function contractArtifacts(): Record<string, string> {
  return {
    "openapi-v1.json": `${JSON.stringify(buildOpenApi(manageSurface), null, 2)}\n`,
    "openapi/public-v1.json": `${JSON.stringify(buildOpenApi(publicSurface), null, 2)}\n`,
    "openapi/manage-v1.ts": buildTypes(manageSurface, "ManageOperations"),
    "openapi/plugin-v1.json": `${JSON.stringify(buildOpenApi(pluginSurface), null, 2)}\n`,
    "openapi/plugin-v1.ts": buildTypes(pluginSurface, "PluginOperations"),
    "openapi/admin-v1.json": `${JSON.stringify(buildOpenApi(adminSurface), null, 2)}\n`,
    "openapi/admin-v1.ts": buildTypes(adminSurface, "AdminOperations"),
    "openapi/ops-v1.json": `${JSON.stringify(buildOpenApi(opsSurface), null, 2)}\n`,
    "openapi/ops-v1.ts": buildTypes(opsSurface, "OpsOperations"),
  };
}
