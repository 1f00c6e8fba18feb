import { listSiteHosts } from "../../shared/repositories/site-host-repository";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/**
 * GET /api/site-hosts: the site's public hosts, so the admin UI can open a preview link (the
 * preview answer's `url` is a path on the site's public host). Any member may read them: they are
 * the site's public addresses.
 */
export async function siteHosts(call: SiteCall): Promise<Response> {
  return json({ data: await listSiteHosts(call.ctx.db, call.ctx.scope) });
}
