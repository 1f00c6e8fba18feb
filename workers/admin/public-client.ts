import { generatePublicClient } from "../../shared/public/client-generator";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { SiteCall } from "./auth";

/**
 * GET /api/models/public-client.ts: a dependency-free TypeScript client for the X-Site-Id site,
 * typed by its public models as they are now (so it changes when a model changes).
 */
export async function publicClient(call: SiteCall): Promise<Response> {
  const models = await modelRepository(call.ctx.db, call.ctx.scope).list();
  const newest = models.reduce((latest, m) => (m.updated_at > latest ? m.updated_at : latest), "");
  const source = generatePublicClient(call.ctx.site, models, newest || new Date(0).toISOString());
  return new Response(source, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `inline; filename="${call.ctx.site.slug}-client.ts"`,
      "cache-control": "private, no-store",
    },
  });
}
