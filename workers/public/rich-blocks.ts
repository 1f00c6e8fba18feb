import { activeRichBlocks } from "../../shared/services/plugins/catalog";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import type { PublicAnswer } from "./respond";

/**
 * GET /v1/_rich-blocks: definitions of the rich-text blocks of the site's ACTIVE plugin
 * installations, named `<plugin id>/<block name>`, ordered by plugin id then block order in the
 * manifest. A disabled, pending or revoked installation's blocks are not listed; state changes
 * purge the site tag this answer carries.
 */
export async function richBlocks(d1: D1Database, site: Site): Promise<PublicAnswer> {
  const data = await activeRichBlocks(d1, site.id);
  return { body: JSON.stringify({ data }), tags: [cacheTag.site(site.id)], cacheable: true };
}
