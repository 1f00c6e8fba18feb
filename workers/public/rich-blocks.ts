import type { PluginManifest } from "../../schema/plugin-manifest";
import { createDb } from "../../shared/db/client";
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
  const rows = await createDb(d1)
    .selectFrom("plugin_installations")
    .select(["plugin_id", "manifest"])
    .where("site_id", "=", site.id)
    .where("state", "=", "active")
    .orderBy("plugin_id", "asc")
    .execute();
  const data = rows.flatMap((row) =>
    (JSON.parse(row.manifest) as PluginManifest).rich_text_blocks.map((block) => ({
      name: `${row.plugin_id}/${block.name}`,
      label: block.label,
      version: block.version,
      fields: block.fields,
    })),
  );
  return { body: JSON.stringify({ data }), tags: [cacheTag.site(site.id)], cacheable: true };
}
