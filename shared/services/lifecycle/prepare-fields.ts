import { AppError } from "../../errors";
import { sanitiseWrittenRichText, type RichMarkupDropped } from "../../content/rich-text-rules";
import {
  mediaIds,
  relationTargets,
  titleField,
  toKeyedValues,
  toStoredValues,
  validateFieldValues,
} from "../../content/validate-fields";
import { entryRepository } from "../../repositories/entry-repository";
import type { FieldDefinition, FieldValue } from "../../../schema/model-definition";
import { componentLeaves } from "../../content/components";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import { mayRead } from "./load";
import type { CompiledQuery } from "kysely";
import { resolveRelationWrites } from "./relation-writes";
import { relationRuleStatements, type RelationSelf } from "./relation-rules";
import { requireWrittenBlocks } from "./rich-text-blocks";

export interface PreparedLink {
  field_id: string;
  position: number;
  target_instance_id: string;
  target_group_id: string;
}

export interface PreparedFields {
  /** Values keyed by field id, as a version stores them. */
  stored: Record<string, FieldValue>;
  /** Field ids the request writes (for field limits). */
  written: string[];
  label: string | null;
  links: PreparedLink[];
  /** Statements the relation rules add to the write's batch (other items' rewrites, guards). */
  relationStatements: CompiledQuery[];
  /** Markup the sanitiser left out of written rich-text values (the answer's `warnings`). */
  warnings: RichMarkupDropped[];
}

/**
 * The field ids a request's values (by key) write. Known before anything is read or checked, so
 * the field limits can be asked first: authorise first, then reveal.
 */
export function writtenFieldIds(model: Pick<Model, "fields">, input: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set(Object.keys(input));
  return model.fields.filter((f) => keys.has(f.key)).map((f) => f.id);
}

/** The relation values of one field (top level, or one nested field across a component's items). */
interface RelationSlot {
  /** `relation_links.field_id`: the field's id, or a nested field's link id (components.ts). */
  linkId: string;
  field: FieldDefinition;
  /** Target instance ids in value order. */
  ids: string[];
  /** Whether the request writes the (top-level) field holding them. */
  writtenNow: boolean;
  /** Targets the base version already linked through the same field. */
  held: Set<string>;
  topLevel: boolean;
}

/**
 * Every relation value of the stored values: top-level relation fields, and relations inside
 * components (one slot per nested field, its ids across the component's items in value order).
 */
function relationSlots(model: Model, stored: Record<string, FieldValue>, base: Record<string, FieldValue>, keys: ReadonlySet<string>): RelationSlot[] {
  const slots: RelationSlot[] = [];
  for (const field of model.fields) {
    if (field.type !== "relation") continue;
    const ids = relationTargets(field, stored[field.id] ?? null);
    // Spec 3, Trash: an item's relation rows are kept while a target is in Trash, and return with it.
    // So a link the base version already held stays — in a field written now too (a connect to a
    // list holding a trashed item) — and only a purged target (gone) drops out.
    if (ids.length > 0) slots.push({ linkId: field.id, field, ids, writtenNow: keys.has(field.key), held: new Set(relationTargets(field, base[field.id] ?? null)), topLevel: true });
  }
  const nested = new Map<string, RelationSlot>();
  const heldNested = new Map<string, Set<string>>();
  for (const leaf of componentLeaves(model.fields, base, "id")) {
    if (leaf.field.type !== "relation") continue;
    const held = heldNested.get(leaf.linkId) ?? new Set<string>();
    for (const id of relationTargets(leaf.field, leaf.value)) held.add(id);
    heldNested.set(leaf.linkId, held);
  }
  for (const leaf of componentLeaves(model.fields, stored, "id")) {
    if (leaf.field.type !== "relation") continue;
    const slot = nested.get(leaf.linkId) ?? { linkId: leaf.linkId, field: leaf.field, ids: [], writtenNow: keys.has(leaf.component.key), held: heldNested.get(leaf.linkId) ?? new Set(), topLevel: false };
    slot.ids.push(...relationTargets(leaf.field, leaf.value));
    nested.set(leaf.linkId, slot);
  }
  return [...slots, ...[...nested.values()].filter((slot) => slot.ids.length > 0)];
}

/**
 * Merges a request's values (by key) over a base version (by id), validates the result and checks that
 * every relation target and media file exists in this site. Throws before anything is written.
 */
export async function prepareFields(
  ctx: LifecycleContext,
  model: Model,
  base: Record<string, FieldValue>,
  request: Readonly<Record<string, unknown>>,
  slug: string | null,
  self?: RelationSelf,
): Promise<PreparedFields> {
  // Relation writes (set / connect / disconnect / move, { model, id }) become plain values first.
  const relations = await resolveRelationWrites(ctx, model, base, request);
  const input = relations.input;
  // Only the values written now are canonicalised: base values were when they were stored, and
  // re-parsing an unchanged 256 KiB body on every title save would cost the site's object for
  // nothing (a version stored before the sanitiser existed is cleaned when it is rendered).
  // Rich text also meets its content rules (tables, galleries, embeds, blocks: rich-text-rules.ts).
  const rich = sanitiseWrittenRichText(model.fields, input, ctx.site.settings.embed_origins);
  const byKey = { ...toKeyedValues(model.fields, base), ...rich.values };
  const mode = ctx.site.settings.validation_mode === "strict" ? "strict" : "draft";
  const issues = [...validateFieldValues(model.fields, byKey, mode), ...rich.issues];
  if (issues.length > 0) {
    throw new AppError("field_validation_failed", "Some field values are not valid.", { issues });
  }
  const blockMedia = await requireWrittenBlocks(ctx, rich);
  const stored = toStoredValues(model.fields, byKey);
  const keys = new Set(Object.keys(input));
  const written = writtenFieldIds(model, input);

  const links: PreparedLink[] = [];
  const slots = relationSlots(model, stored, base, keys);
  const allTargets = [...new Set(slots.flatMap((slot) => slot.ids))];
  if (allTargets.length > 0) {
    const found = await entryRepository(ctx.db, ctx.scope).findMany(allTargets);
    const byId = new Map(found.map((e) => [e.instance_id, e]));
    const refused: string[] = [];
    for (const { linkId: fieldId, field, ids, writtenNow, held, topLevel } of slots) {
      const kept: string[] = [];
      for (const [ordinal, id] of ids.entries()) {
        const target = byId.get(id);
        const named = relations.expectedModel.get(id);
        let linkable: boolean;
        if (target === undefined) {
          linkable = false;
        } else if (!writtenNow) {
          linkable = true;
        } else if (held.has(id)) {
          linkable = named === undefined || named === target.model_id;
        } else {
          // A target written now must be one the actor may read: linking is not a way to learn
          // whether content it cannot see exists (authorise first, then reveal).
          linkable =
            mayRead(ctx, target.model_id, target.lang) &&
            target.trashed_at === null &&
            (field?.targets ?? []).includes(target.model_id) &&
            (named === undefined || named === target.model_id);
        }
        if (linkable && target) {
          // A top-level field's positions are its list's; a nested field's are the value's ordinal
          // among every id of that nested field (renderSnapshot finds each value's link by it).
          links.push({ field_id: fieldId, position: topLevel ? kept.length : ordinal, target_instance_id: id, target_group_id: target.translation_group_id });
          kept.push(id);
        } else if (writtenNow) {
          refused.push(id);
        }
      }
      if (topLevel && !writtenNow && kept.length !== ids.length) stored[fieldId] = field.multiple ? kept : (kept[0] ?? null);
    }
    if (refused.length > 0) {
      throw new AppError("relation_target_not_found", "Some linked items do not exist or may not be linked here.", { ids: refused });
    }
  }

  // Library images of written rich text (galleries, data-media) and blocks' media values too.
  const wantedMedia = new Set<string>([...rich.mediaIds, ...blockMedia]);
  for (const field of model.fields) {
    if (field.type === "media") for (const id of mediaIds(field, stored[field.id] ?? null)) wantedMedia.add(id);
  }
  for (const leaf of componentLeaves(model.fields, stored, "id")) for (const id of mediaIds(leaf.field, leaf.value)) wantedMedia.add(id);
  if (wantedMedia.size > 0) {
    const rows = await ctx.db
      .selectFrom("media")
      .select("id")
      .where("site_id", "=", ctx.site.id)
      .where("id", "in", [...wantedMedia])
      .execute();
    const present = new Set(rows.map((r) => r.id));
    const missing = [...wantedMedia].filter((id) => !present.has(id));
    if (missing.length > 0) throw new AppError("media_not_found", "Some media files do not exist in this site.", { ids: missing });
  }

  const title = titleField(model.fields);
  const titleValue = title ? stored[title.id] : undefined;
  const label = typeof titleValue === "string" && titleValue.length > 0 ? titleValue.slice(0, 200) : slug;
  const relationStatements = self === undefined ? [] : await relationRuleStatements(ctx, model, self, keys, base, stored, links, relations.replace);
  return { stored, written, label, links, relationStatements, warnings: rich.warnings };
}
