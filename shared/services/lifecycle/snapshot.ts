import type { EntryRow, VersionRow } from "../../db/database";
import { mediaIds } from "../../content/validate-fields";
import { richTextMediaObjects } from "../../content/media-references";
import { canonicalRichText } from "../../content/rich-text";
import { componentLeaves, mapComponentLeaves, publicComponentValue, type ComponentLeaf } from "../../content/components";
import { relationTargets } from "../../content/value-references";
import type { FieldValue } from "../../../schema/model-definition";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import { entryRepository } from "../../repositories/entry-repository";
import { deliveryUrl, mediaUrl } from "../media/media-view";
import { defaultOriginalOf, originalFor, originalsOf, originalUrl } from "../media/originals";
import { objectIdOf } from "../media/object-keys";
import { localeChain } from "../../content/site-settings";
import { linkServed, pickTarget, publishedTargets, servedDisplay, type PendingTargets, type PublishedTarget } from "./relation-targets";

export { pendingKey, type PendingTargets, type PublishedTarget } from "./relation-targets";

/** A relation value as the public API serves it. */
export interface RelationRef {
  instance_id: string;
  model: string;
  slug: string | null;
  display: string | null;
}

/**
 * The original a `MediaRef` serves for the item's language (spec 2 rule 7): the language's override,
 * else the first override along the site's fallback order, else the default original (the item's own
 * file, `lang` null). Resolved when the version is published and pinned with it.
 */
export interface OriginalRef {
  /** The object id (the R2 key's last segment). */
  id: string;
  /** The language of the override served, or null for the default original. */
  lang: string | null;
  url: string;
  mime_type: string;
  byte_length: number;
  width: number | null;
  height: number | null;
}

export interface MediaRef {
  id: string;
  url: string;
  kind: string;
  mime_type: string;
  file_name: string;
  width: number | null;
  height: number | null;
  alt: string;
  focal: { x: number; y: number } | null;
  loading: string;
  fetch_priority: string;
  /** The language's original (absent only in items published before originals were served, until re-rendered). */
  original?: OriginalRef;
}

/** The public item, exactly as /v1 serves it. */
export interface PublicItem {
  id: string;
  slug: string | null;
  model: string;
  locale: string;
  version: string;
  /** When this language was last published. */
  published_at: string;
  /** When the item (its translation group) was first published in any language: the list order. */
  first_published_at: string;
  fields: Record<string, FieldValue>;
  relations: Record<string, RelationRef[]>;
  media: Record<string, MediaRef[]>;
}

/** An object a published item serves (a `published_media` row): public delivery serves only these. */
export interface MediaPin {
  media_id: string;
  /** `<site id>/<media id>/<object id>`, the object as it was when the version was rendered. */
  object_key: string;
  /** The file name its address carries. */
  file_name: string;
}

export interface RenderedSnapshot {
  item: PublicItem;
  mentions: string[];
  relationRows: { field: string; target_group_id: string; target_slug: string | null }[];
  /** Objects the item's `media` serves, pinned with the published row (docs/media.md, "Public delivery"). */
  mediaPins: MediaPin[];
}

/** How one snapshot is rendered. */
export interface RenderOptions {
  /** This language's publication time (`published_at`). */
  publishedAt: string;
  /** The group's first publication (`first_published_at`, the list's sort key). */
  firstPublishedAt: string;
  /** Publication changes of the same batch, not yet committed. */
  pending?: PendingTargets;
  /** Models as the same batch changes them (a model apply), in place of their stored state. */
  changedModels?: readonly Model[];
  /** Field ids the reader may read (a preview shows what its minter may read); default every field. */
  readableFieldIds?: ReadonlySet<string>;
  /**
   * A re-render of the published version (a relation target or the model changed, not a publish):
   * media the item already pins keep that object and its file facts (url, type, name, size), so a
   * replaced file is served only once the item is published again (spec 2 rule 6).
   */
  keepPinned?: boolean;
  /** The version's links, their targets' published rows and those rows' models, already read in one batch (lifecycle/publish-reads.ts). */
  reads?: SnapshotReads;
}

/** A version's relation link, as a snapshot resolves it. */
export interface VersionLink {
  field_id: string;
  position: number;
  target_group_id: string;
}

/**
 * What `renderSnapshot` would read about a version's relations, read beforehand: its links, the
 * published rows of the groups they target (before pending changes) and the models of those rows.
 */
export interface SnapshotReads {
  links: VersionLink[];
  targets: PublishedTarget[];
  targetModels: Model[];
}

/** A version's relation links in field and position order. */
export function versionLinksQuery(ctx: LifecycleContext, versionId: string) {
  return ctx.db
    .selectFrom("relation_links")
    .select(["field_id", "position", "target_group_id"])
    .where("site_id", "=", ctx.site.id)
    .where("version_id", "=", versionId)
    .orderBy("field_id")
    .orderBy("position");
}

/** Longest file-name segment public delivery accepts (workers/public/media-file.ts). */
const MAX_PINNED_FILE_NAME = 1024;

/**
 * Pins for the images of shown rich-text fields: an `<img src>` naming `/media/{media}/{object}/{file}`
 * is served while the item is published when the object is one this site's item has had (the object
 * ledger: its file now or before a replace, or an original) — the address the editor pasted keeps
 * working, whatever was replaced since. The pin carries the object's **stored** name from the ledger,
 * never the address's last segment: an address cannot choose the download name (`…/invoice.exe`
 * for a PNG is simply another name, 404). An object whose stored name is unknown (a superseded
 * object from before the ledger kept names, 0030) is not pinned. Hidden (private) fields never get here.
 */
async function richTextImagePins(ctx: LifecycleContext, values: readonly unknown[]): Promise<MediaPin[]> {
  const wanted = new Map<string, string>();
  for (const value of values) {
    for (const address of richTextMediaObjects(value)) {
      if (address.fileName.length > MAX_PINNED_FILE_NAME) continue;
      wanted.set(`${ctx.site.id}/${address.mediaId}/${address.objectId}`, address.mediaId);
    }
  }
  if (wanted.size === 0) return [];
  const known = await ctx.db
    .selectFrom("media_objects")
    .select(["object_key", "media_id", "file_name"])
    .where("site_id", "=", ctx.site.id)
    .where("object_key", "in", [...wanted.keys()])
    .execute();
  return known
    .filter((row) => wanted.get(row.object_key) === row.media_id && row.file_name !== "")
    .map((row) => ({ media_id: row.media_id, object_key: row.object_key, file_name: row.file_name }));
}

/** What a published item already serves of one media value: the file and the original, each with its pin. */
interface KeptMedia {
  file?: { pin: MediaPin; ref: MediaRef };
  original?: { pin: MediaPin; ref: OriginalRef };
}

/** The media an instance's published row serves, by media id (its pins, matched with its body's refs). */
async function pinnedMedia(ctx: LifecycleContext, instanceId: string): Promise<Map<string, KeptMedia>> {
  const kept = new Map<string, KeptMedia>();
  const pins = await ctx.db
    .selectFrom("published_media")
    .select(["media_id", "object_key", "file_name"])
    .where("site_id", "=", ctx.site.id)
    .where("instance_id", "=", instanceId)
    .execute();
  if (pins.length === 0) return kept;
  const row = await ctx.db.selectFrom("published_items").select("body").where("site_id", "=", ctx.site.id).where("instance_id", "=", instanceId).executeTakeFirst();
  if (!row) return kept;
  const refs = Object.values((JSON.parse(row.body) as PublicItem).media ?? {}).flat();
  for (const pin of pins) {
    const url = deliveryUrl(pin.media_id, pin.object_key, pin.file_name);
    const entry = kept.get(pin.media_id) ?? {};
    // One object may be both (the default original is the file): it is kept as each.
    const ref = refs.find((r) => r.id === pin.media_id && r.url === url);
    if (ref) entry.file = { pin, ref };
    const original = refs.find((r) => r.id === pin.media_id && r.original?.url === url)?.original;
    if (original) entry.original = { pin, ref: original };
    if (entry.file || entry.original) kept.set(pin.media_id, entry);
  }
  return kept;
}

/** When a group was first published in any language (`now` when it never was): lists order by it. */
export async function groupFirstPublishedAt(ctx: LifecycleContext, groupId: string, now: string): Promise<string> {
  return firstPublishedOf(await entryRepository(ctx.db, ctx.scope).findGroup(groupId), now);
}

/** `groupFirstPublishedAt` of a group's entries already read. */
export function firstPublishedOf(group: readonly Pick<EntryRow, "first_published_at">[], now: string): string {
  const times = group.map((e) => e.first_published_at).filter((t): t is string => t !== null).sort();
  return times[0] ?? now;
}

/**
 * Renders the public item of a published version: private fields dropped, relations and media
 * resolved, links to what the model's readers may not read left out (docs/private-data.md).
 */
export async function renderSnapshot(ctx: LifecycleContext, entry: EntryRow, version: VersionRow, model: Model, options: RenderOptions): Promise<RenderedSnapshot> {
  const pending = options.pending ?? new Map();
  const stored = JSON.parse(version.fields) as Record<string, FieldValue>;
  const reads = options.reads;
  const links = reads ? reads.links : await versionLinksQuery(ctx, version.id).execute();
  const groupIds = [...new Set(links.map((l) => l.target_group_id))];
  const targets = await publishedTargets(ctx, groupIds, pending, reads?.targets);
  const targetModels = await modelsOfTargets(ctx, targets, reads?.targetModels);
  for (const changed of options.changedModels ?? []) targetModels.set(changed.id, changed);
  const shown = (field: { id: string; private?: boolean | undefined }) => !field.private && (options.readableFieldIds?.has(field.id) ?? true);

  // Components as served (private and removed nested fields dropped), so only what is shown counts.
  const servedComponents = new Map<string, unknown>();
  for (const field of model.fields) {
    if (field.type === "component" && shown(field)) servedComponents.set(field.id, publicComponentValue(field, stored[field.id] ?? null));
  }
  const nestedLeaves = componentLeaves(model.fields, Object.fromEntries(servedComponents), "id");
  const mediaWanted = new Set<string>();
  for (const field of model.fields) {
    if (field.type === "media" && shown(field)) for (const id of mediaIds(field, stored[field.id] ?? null)) mediaWanted.add(id);
  }
  for (const leaf of nestedLeaves) for (const id of mediaIds(leaf.field, leaf.value)) mediaWanted.add(id);
  const mediaRows =
    mediaWanted.size === 0
      ? []
      : await ctx.db.selectFrom("media").selectAll().where("site_id", "=", ctx.site.id).where("id", "in", [...mediaWanted]).execute();
  const mediaById = new Map(mediaRows.map((m) => [m.id, m]));
  const kept = options.keepPinned && mediaRows.length > 0 ? await pinnedMedia(ctx, entry.instance_id) : new Map<string, KeptMedia>();
  // Originals by language (spec 2 rule 7): the item's language, then the site's fallback order, then the default.
  const overrides = await originalsOf(ctx, mediaRows.map((m) => m.id));
  const chain = localeChain(ctx.site, entry.lang);
  const richTextPins = await richTextImagePins(ctx, [
    ...model.fields.filter((f) => f.type === "rich_text" && shown(f)).map((f) => stored[f.id] ?? null),
    ...nestedLeaves.filter((leaf) => leaf.field.type === "rich_text").map((leaf) => leaf.value),
  ]);

  const item: PublicItem = {
    id: entry.instance_id,
    slug: version.slug,
    model: model.slug,
    locale: entry.lang,
    version: version.id,
    published_at: options.publishedAt,
    first_published_at: options.firstPublishedAt,
    fields: {},
    relations: {},
    media: {},
  };
  const mentions = new Set<string>([entry.translation_group_id]);
  const relationRows: RenderedSnapshot["relationRows"] = [];
  const mediaPins: MediaPin[] = [];
  /** The served reference of one link, or undefined when its target is not served. */
  const relationRef = (link: VersionLink): RelationRef | undefined => {
    const target = pickTarget(targets, link.target_group_id, entry.lang, ctx.site.default_lang);
    const targetModel = target && targetModels.get(target.model_id);
    // An unpublished target is not served, nor one the model's readers may not read.
    if (!target || !targetModel || !linkServed(model, targetModel)) return undefined;
    mentions.add(target.group_id);
    return { instance_id: target.instance_id, model: targetModel.slug, slug: target.slug, display: servedDisplay(targetModel, target.label) };
  };
  /** The served references of media ids (pins noted), those of unknown media left out. */
  const mediaRefs = (ids: readonly string[]): MediaRef[] => {
    const refs: MediaRef[] = [];
    for (const id of ids) {
      const m = mediaById.get(id);
      if (!m) continue;
        const alts = JSON.parse(m.alt_texts) as Record<string, string>;
        // Only fields the item shows get here (`shown`), so a private field's media is never pinned.
        // A publish pins the current file; a re-render keeps the object the item already serves.
        const keep = kept.get(m.id);
        const file = keep?.file
          ? { url: keep.file.ref.url, kind: keep.file.ref.kind, mime_type: keep.file.ref.mime_type, file_name: keep.file.ref.file_name, width: keep.file.ref.width, height: keep.file.ref.height }
          : { url: mediaUrl(m), kind: m.kind, mime_type: m.mime_type, file_name: m.file_name, width: m.width, height: m.height };
        mediaPins.push(keep?.file ? keep.file.pin : { media_id: m.id, object_key: m.object_key, file_name: m.file_name });
        // The language's original, pinned like the file: a re-render keeps the one the item serves, so
        // an override set or removed later changes the item only once it is published again.
        let original: OriginalRef;
        if (keep?.original) {
          original = keep.original.ref;
          mediaPins.push(keep.original.pin);
        } else {
          const resolved = originalFor(chain, overrides.get(m.id) ?? new Map(), defaultOriginalOf(m)).original;
          original = {
            id: objectIdOf(resolved.object_key),
            lang: resolved.lang,
            url: originalUrl(m.id, resolved),
            mime_type: resolved.mime_type,
            byte_length: resolved.byte_length,
            width: resolved.width,
            height: resolved.height,
          };
          mediaPins.push({ media_id: m.id, object_key: resolved.object_key, file_name: resolved.file_name });
        }
        refs.push({
          id: m.id,
          ...file,
          alt: alts[entry.lang] ?? alts[ctx.site.default_lang] ?? "",
          focal: m.default_focal ? (JSON.parse(m.default_focal) as { x: number; y: number }) : null,
          loading: m.loading,
          fetch_priority: m.fetch_priority,
          original,
        });
    }
    return refs;
  };
  // A nested relation's links are found by the value's ordinal among its field's ids (prepare-fields.ts).
  const linkAt = new Map(links.map((l) => [`${l.field_id}|${l.position}`, l]));
  const ordinals = new Map<string, number>();
  /** A relation, media or rich-text value inside a component, served as its top-level form is. */
  const servedLeaf = (leaf: ComponentLeaf): unknown => {
    if (leaf.field.type === "relation") {
      const refs: RelationRef[] = [];
      for (const _id of relationTargets(leaf.field, leaf.value)) {
        const ordinal = ordinals.get(leaf.linkId) ?? 0;
        ordinals.set(leaf.linkId, ordinal + 1);
        const link = linkAt.get(`${leaf.linkId}|${ordinal}`);
        const ref = link && relationRef(link);
        if (ref) refs.push(ref);
      }
      return refs;
    }
    if (leaf.field.type === "media") return mediaRefs(mediaIds(leaf.field, leaf.value));
    return typeof leaf.value === "string" ? canonicalRichText(leaf.value) : leaf.value;
  };
  for (const field of model.fields) {
    if (!shown(field)) continue;
    const value = stored[field.id] ?? null;
    if (field.type === "relation") {
      const refs: RelationRef[] = [];
      for (const link of links.filter((l) => l.field_id === field.id)) {
        const ref = relationRef(link);
        if (!ref) continue;
        refs.push(ref);
        relationRows.push({ field: field.key, target_group_id: link.target_group_id, target_slug: ref.slug });
      }
      item.relations[field.key] = refs;
    } else if (field.type === "media") {
      item.media[field.key] = mediaRefs(mediaIds(field, value));
    } else if (field.type === "rich_text" && typeof value === "string") {
      // Stored values are canonical already (one parse to confirm); a version stored before the
      // sanitiser existed is served cleaned all the same.
      item.fields[field.key] = canonicalRichText(value);
    } else if (field.type === "component") {
      // Private nested fields are never served, nor values of nested fields since removed; relations
      // and media inside are served in place as lists of references, rich text canonical.
      item.fields[field.key] = mapComponentLeaves(field, servedComponents.get(field.id) ?? null, field.key, field.id, servedLeaf) as FieldValue;
    } else {
      item.fields[field.key] = value;
    }
  }
  mediaPins.push(...richTextPins);
  return { item, mentions: [...mentions], relationRows, mediaPins };
}

/**
 * The stored models of the targets, by id. `known`: models already read (those of the targets'
 * stored rows); only a model a pending target brings and `known` lacks is read.
 */
async function modelsOfTargets(ctx: LifecycleContext, targets: readonly PublishedTarget[], known?: readonly Model[]): Promise<Map<string, Model>> {
  const ids = [...new Set(targets.map((t) => t.model_id))];
  const byId = new Map((known ?? []).map((m) => [m.id, m]));
  const missing = known ? ids.filter((id) => !byId.has(id)) : ids;
  for (const m of await modelRepository(ctx.db, ctx.scope).findMany(missing)) byId.set(m.id, m);
  const out = new Map<string, Model>();
  for (const id of ids) {
    const model = byId.get(id);
    if (model) out.set(id, model);
  }
  return out;
}

export { manualPosition, snapshotStatements, UNPLACED, withdrawStatements } from "./snapshot-statements";
