import { requireRegisteredBlocks, type RichTextWrite } from "../../content/rich-text-rules";
import { activeRichBlocks } from "../plugins/catalog";
import type { LifecycleContext } from "./context";

/**
 * Checks the plugin blocks of a write's rich-text values against the blocks of the site's ACTIVE
 * plugin installations (read only when a written value holds a block). Throws
 * rich_block_unregistered, rich_block_version_unknown or rich_block_values_invalid (422); returns
 * the media ids named by blocks' `media` values.
 */
export async function requireWrittenBlocks(ctx: LifecycleContext, write: RichTextWrite): Promise<string[]> {
  if (write.blocks.length === 0) return [];
  return requireRegisteredBlocks(write.blocks, await activeRichBlocks(ctx.d1, ctx.site.id));
}
