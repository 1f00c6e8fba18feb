import { listConnections, revokeConnection } from "../../shared/services/oauth";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/** GET /api/oauth-connections: the site's app connections the person may see (docs/oauth.md). */
export async function listAppConnections(call: SiteCall): Promise<Response> {
  return json({ data: await listConnections(call.ctx) });
}

/** DELETE /api/oauth-connections/{id}: revokes; the connection's tokens are refused from the next request. */
export async function revokeAppConnection(call: SiteCall): Promise<Response> {
  return json(await revokeConnection(call.ctx, call.params[0] ?? ""));
}
