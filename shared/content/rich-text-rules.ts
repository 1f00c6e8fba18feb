/**
 * The content rules of rich text beyond sanitising (docs/rich-text.md, "Rules"): table size, gallery
 * size, embed origins, block group nesting, and what a write dropped. Pure: the lifecycle service
 * (prepare-fields.ts) runs them on the values a write names, with the site's embed origins; plugin
 * blocks are checked against the site's active installations in rich-blocks.ts.
 */
import type { FieldDefinition } from "../../schema/model-definition";
import { AppError } from "../errors";
import { MEDIA_ID, sanitiseRichText, type SanitisedRichText } from "./rich-text";
import { blockValueIssues } from "./rich-block-values";
import { mapComponentLeaves } from "./components";
import type { BlockFacts } from "./rich-text-facts";
import { RICH_TEXT_MAX_BYTES, utf8Length, type FieldIssue } from "./validate-fields";

export const MAX_TABLE_COLUMNS = 12;
export const MAX_TABLE_ROWS = 200;
export const MIN_GALLERY_IMAGES = 2;
export const MAX_GALLERY_IMAGES = 24;
export const MAX_BLOCK_GROUP_LEVELS = 3;
export const MAX_BLOCK_GROUP_ITEMS = 50;

/** The two built-in video providers: exact origin and the one embed path form each accepts. */
export const EMBED_PROVIDERS: readonly { origin: string; path: RegExp; form: string }[] = [
  { origin: "https://www.youtube.com", path: /^\/embed\/[A-Za-z0-9_-]{11}$/, form: "https://www.youtube.com/embed/<11-character video id>" },
  { origin: "https://player.vimeo.com", path: /^\/video\/[0-9]{1,12}$/, form: "https://player.vimeo.com/video/<numeric id>" },
];

/** The built-in providers' origins, as `GET /v1/_embeds` lists them. */
export const BUILT_IN_EMBED_PROVIDERS: readonly string[] = EMBED_PROVIDERS.map((p) => p.origin);

/**
 * Whether `raw` may be embedded on a site with `origins` (its `embed_origins` setting): an https URL
 * without credentials, either a built-in provider's embed form (query allowed, nothing else on that
 * origin) or any address on one of the site's origins.
 */
export function embedAllowed(raw: string, origins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") return false;
  const provider = EMBED_PROVIDERS.find((p) => p.origin === parsed.origin);
  if (provider) return provider.path.test(parsed.pathname);
  return origins.includes(parsed.origin);
}

/** A plugin block as the rules see it: what the site's active installations declare. */
export interface RegisteredBlock {
  name: string;
  version: number;
  fields: Record<string, unknown>;
}

/** A write's note that markup was left out of a rich-text value (docs/rich-text.md, "Dropped markup"). */
export interface RichMarkupDropped {
  code: "rich_markup_dropped";
  path: string;
  dropped: string[];
}

/** Blocks of one written field, for the check against the site's active installations. */
export interface WrittenBlocks {
  path: string;
  blocks: BlockFacts[];
  /** `data-block` values refused by form: never registered. */
  malformedNames: string[];
  /** `data-version` values refused by form: never declared. */
  malformedVersions: string[];
}

/** The rich-text values a write names, made canonical, with everything the rules need. */
export interface RichTextWrite {
  /** The input by key with each rich_text string replaced by its canonical HTML. */
  values: Record<string, unknown>;
  /** Table, gallery, embed and group issues (refused as field_validation_failed). */
  issues: FieldIssue[];
  /** `data-media` ids (and media values of blocks) that must name media of this site. */
  mediaIds: string[];
  blocks: WrittenBlocks[];
  warnings: RichMarkupDropped[];
}

function issuesOf(path: string, label: string, sanitised: SanitisedRichText, embedOrigins: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { facts } = sanitised;
  for (const table of facts.tables) {
    if (table.columns > MAX_TABLE_COLUMNS || table.rows > MAX_TABLE_ROWS) {
      issues.push({ path, code: "table_too_large", message: `${label}: a table may hold at most ${MAX_TABLE_COLUMNS} columns and ${MAX_TABLE_ROWS} rows (this one: ${table.columns} columns, ${table.rows} rows).` });
    }
  }
  for (const gallery of facts.galleries) {
    if (gallery.libraryImages !== gallery.images) {
      issues.push({ path, code: "gallery_image_invalid", message: `${label}: every image of a gallery must be a library image (data-media="med_…").` });
    } else if (gallery.images < MIN_GALLERY_IMAGES || gallery.images > MAX_GALLERY_IMAGES) {
      issues.push({ path, code: "gallery_size", message: `${label}: a gallery holds ${MIN_GALLERY_IMAGES} to ${MAX_GALLERY_IMAGES} images (this one: ${gallery.images}).` });
    }
  }
  const refusedEmbeds = [...facts.embeds.filter((u) => !embedAllowed(u, embedOrigins)), ...sanitised.rejected.filter((r) => r.attribute === "data-embed").map((r) => r.value)];
  for (const embed of refusedEmbeds) {
    issues.push({ path, code: "embed_not_allowed", message: `${label}: "${embed.slice(0, 200)}" is neither a built-in video provider's embed address nor on one of the site's embed origins.` });
  }
  for (const group of facts.groups) {
    if (group.level > MAX_BLOCK_GROUP_LEVELS) {
      issues.push({ path, code: "block_group_too_deep", message: `${label}: block groups nest at most ${MAX_BLOCK_GROUP_LEVELS} levels.` });
    } else if (group.items > MAX_BLOCK_GROUP_ITEMS) {
      issues.push({ path, code: "block_group_too_large", message: `${label}: a block group holds at most ${MAX_BLOCK_GROUP_ITEMS} items (this one: ${group.items}).` });
    }
  }
  return issues;
}

/**
 * Sanitises the rich_text values of `valuesByKey` (the request's values, by key) and judges them.
 * A value over RICH_TEXT_MAX_BYTES is left unparsed, as canonicalFieldValues leaves it: validation
 * refuses it. Values of other fields pass through as given.
 */
export function sanitiseWrittenRichText(
  fields: readonly FieldDefinition[],
  valuesByKey: Readonly<Record<string, unknown>>,
  embedOrigins: readonly string[],
): RichTextWrite {
  const write: RichTextWrite = { values: { ...valuesByKey }, issues: [], mediaIds: [], blocks: [], warnings: [] };
  /** One rich-text value at `path`: its canonical HTML, its rules' issues, media, blocks and drops noted. */
  const judge = (path: string, label: string, value: unknown): unknown => {
    if (typeof value !== "string" || utf8Length(value) > RICH_TEXT_MAX_BYTES) return value;
    const sanitised = sanitiseRichText(value);
    write.issues.push(...issuesOf(path, label, sanitised, embedOrigins));
    write.mediaIds.push(...sanitised.facts.mediaIds, ...sanitised.rejected.filter((r) => r.attribute === "data-media").map((r) => r.value));
    const malformedNames = sanitised.rejected.filter((r) => r.attribute === "data-block").map((r) => r.value);
    const malformedVersions = sanitised.rejected.filter((r) => r.attribute === "data-version").map((r) => r.value);
    if (sanitised.facts.blocks.length > 0 || malformedNames.length > 0 || malformedVersions.length > 0) {
      write.blocks.push({ path, blocks: sanitised.facts.blocks, malformedNames, malformedVersions });
    }
    if (sanitised.dropped.length > 0) write.warnings.push({ code: "rich_markup_dropped", path, dropped: sanitised.dropped });
    return sanitised.html;
  };
  for (const field of fields) {
    if (!Object.hasOwn(valuesByKey, field.key)) continue;
    if (field.type === "rich_text") write.values[field.key] = judge(field.key, field.label, valuesByKey[field.key]);
    // Rich text inside a component meets the same rules, at its full path (`faq[1].answer`).
    if (field.type === "component") {
      write.values[field.key] = mapComponentLeaves(field, valuesByKey[field.key], field.key, field.id, (leaf) => (leaf.field.type === "rich_text" ? judge(leaf.path, leaf.field.label, leaf.value) : leaf.value));
    }
  }
  return write;
}

/**
 * Checks written blocks against the blocks the site's ACTIVE installations declare; the first
 * refusal is thrown: `rich_block_unregistered`, `rich_block_version_unknown`, `rich_block_values_invalid`.
 * Returns the media ids named by blocks' `media` values, to be checked with the others.
 */
export function requireRegisteredBlocks(written: readonly WrittenBlocks[], registered: readonly RegisteredBlock[]): string[] {
  const byName = new Map(registered.map((b) => [b.name, b]));
  const mediaIds: string[] = [];
  for (const { path, blocks, malformedNames, malformedVersions } of written) {
    const unknownName = malformedNames[0] ?? blocks.find((b) => !byName.has(b.name))?.name;
    if (unknownName !== undefined) {
      throw new AppError("rich_block_unregistered", `"${unknownName.slice(0, 200)}" is not a block of an active plugin of this site.`, { path, block: unknownName.slice(0, 200) });
    }
    for (const block of blocks) {
      const declared = byName.get(block.name) as RegisteredBlock;
      // A malformed data-version was left out by the sanitiser: the block has none, and is refused here.
      if (block.version !== String(declared.version)) {
        const version = (block.version ?? malformedVersions[0] ?? null)?.slice(0, 20) ?? null;
        throw new AppError("rich_block_version_unknown", `Block "${block.name}" declares version ${declared.version}, not ${version ?? "(none)"}.`, {
          path,
          block: block.name,
          version,
          declared_version: declared.version,
        });
      }
      const result = blockValueIssues(declared.fields, block.values);
      if (result.issues.length > 0) {
        throw new AppError("rich_block_values_invalid", `The values of block "${block.name}" do not match its fields.`, { path, block: block.name, issues: result.issues });
      }
      mediaIds.push(...result.mediaIds);
    }
  }
  return mediaIds;
}

/** Whether a string is shaped like a media id (the rest is checked against the site's library). */
export function isMediaId(value: unknown): value is string {
  return typeof value === "string" && MEDIA_ID.test(value);
}
