import { editorDashboard } from "../../shared/services/dashboard/editor-dashboard";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/** GET /api/dashboard: the signed-in person's home dashboard on the X-Site-Id site (docs/admin-ui-content.md). */
export async function getDashboard(call: SiteCall): Promise<Response> {
  return json(await editorDashboard(call.ctx));
}
