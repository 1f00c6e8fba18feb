import { effectivePermissions } from "../../shared/services/people/effective-permissions";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/** GET /api/permissions: the signed-in person's effective permissions on the X-Site-Id site, as re-read now. */
export async function getPermissions(call: SiteCall): Promise<Response> {
  return json({ role: { id: call.role.id, slug: call.role.slug, name: call.role.name }, ...(await effectivePermissions(call.ctx)) });
}
