import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import type { PublicAnswer } from "./respond";

/**
 * GET /v1/_rich-blocks: definitions of the rich-text blocks of active plugins, named
 * `<plugin id>/<block name>`. Empty until a plugin is installed and active.
 */
export async function richBlocks(_d1: D1Database, site: Site): Promise<PublicAnswer> {
  return { body: JSON.stringify({ data: [] }), tags: [cacheTag.site(site.id)], cacheable: true };
}
