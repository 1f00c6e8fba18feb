import { AppError } from "../../shared/errors";
import { parse } from "../../shared/services/validation/parse";
import { contentReadiness, generationReadiness } from "../../shared/services/generator/readiness";
import { ContentReadinessQuery } from "../../schema/manage-generated-backend";
import { json } from "../http/respond";
import { queryObject } from "../manage/router";
import type { SiteCall } from "./auth";

/** The path's site must be the one X-Site-Id chose: another site's readiness is a 404, never a read. */
function sameSite(call: SiteCall): void {
  if (call.params[0] !== call.ctx.site.id) throw new AppError("not_found", "No such site.");
}

/** GET /api/sites/{site_id}/generation-readiness (docs/generated-backend.md). */
export async function siteGenerationReadiness(call: SiteCall): Promise<Response> {
  sameSite(call);
  return json(await generationReadiness(call.ctx));
}

/** GET /api/sites/{site_id}/generation-readiness/content?cursor=. */
export async function siteGenerationReadinessContent(call: SiteCall): Promise<Response> {
  sameSite(call);
  const { cursor } = parse(ContentReadinessQuery, queryObject(new URL(call.request.url)));
  return json(await contentReadiness(call.ctx, cursor));
}
