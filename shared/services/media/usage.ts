import { decide, readableFieldIds } from "../../auth/permissions";
import { mediaUsageRepository, type MediaUseRow } from "../../repositories/media-usage-repository";
import { modelRepository, type Model } from "../../repositories/model-repository";
import { readableLabel } from "../lifecycle/entry-view";
import type { LifecycleContext } from "../lifecycle/context";

/** Most entries a usage answer lists (spec 2, Limits: usage `used_by`). */
export const USAGE_LIST_MAX = 50;
/**
 * Most index rows one usage read looks at (one per entry, field and version kind). Beyond it the
 * answer is capped: `more: true`, `total: null`, `at_least` what was counted.
 */
export const USAGE_SCAN_MAX = 1000;

/** An entry that uses the file, as the caller may see it. */
export interface MediaUser {
  instance_id: string;
  model_id: string;
  lang: string;
  /** The entry's label, null when its title field is not readable to the caller. */
  label: string | null;
  /** The fields (ids) of the entry that reference the file, those the caller may read. */
  field_ids: string[];
  /** The entry's current (working) version references the file. */
  current: boolean;
  /** Its published version references the file. */
  published: boolean;
  /** The entry is in Trash (a restore would bring the reference back). */
  in_trash: boolean;
}

/** The usage answer of a file (spec 2, "Usage answer of a file"; docs/media.md, "Usage"). */
export interface MediaUsage {
  used_by: MediaUser[];
  hidden: number;
  at_least: number;
  total: number | null;
  more: boolean;
  unreadable: boolean;
}

/** The usage answer with what a removal needs besides: whether any use exists at all. */
export interface MediaUsageRead {
  usage: MediaUsage;
  in_use: boolean;
}

/**
 * Which entries use a media file (docs/media.md, "Usage"): entries whose current or published
 * version references it (media field or rich-text image), in or out of Trash, read from the
 * `media_usage` index. An entry the caller may read (model and language) through at least one of
 * the referencing fields (field limits) is listed; any other is counted in `hidden`. A caller who
 * may read no model of the site at all is told nothing: `unreadable: true`. A reference stays in
 * the index as its version wrote it, so a field removed from the model since still counts until the
 * entry is saved again (its version's values are still there; a removal must not guess).
 */
export async function readMediaUsage(ctx: Pick<LifecycleContext, "db" | "scope" | "actor">, mediaId: string): Promise<MediaUsageRead> {
  const rows = await mediaUsageRepository(ctx.db, ctx.scope).liveUses(mediaId, USAGE_SCAN_MAX + 1);
  const capped = rows.length > USAGE_SCAN_MAX;
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const byId = new Map(models.map((m) => [m.id, m]));
  const permissions = ctx.actor.permissions;
  const counted = groupByEntry(capped ? withoutLastEntry(rows.slice(0, USAGE_SCAN_MAX)) : rows, byId);
  const inUse = rows.length > 0;

  if (!models.some((m) => decide(permissions, { operation: "read", modelId: m.id }).allowed)) {
    return { usage: { used_by: [], hidden: 0, at_least: 0, total: null, more: false, unreadable: true }, in_use: inUse };
  }
  const readable: MediaUser[] = [];
  let hidden = 0;
  for (const use of counted) {
    const model = use.model;
    const mayRead = decide(permissions, { operation: "read", modelId: model.id, lang: use.row.lang }).allowed;
    const fieldIds = mayRead ? readableFieldIds(permissions, model.id, [...use.fields]) : [];
    if (fieldIds.length === 0) {
      hidden++;
      continue;
    }
    readable.push({
      instance_id: use.row.instance_id,
      model_id: model.id,
      lang: use.row.lang,
      label: readableLabel(use.row.label, model, permissions),
      field_ids: fieldIds,
      current: use.current,
      published: use.published,
      in_trash: use.row.trashed_at !== null,
    });
  }
  const more = capped || readable.length > USAGE_SCAN_MAX || readable.length > USAGE_LIST_MAX;
  const atLeast = readable.length + hidden;
  return {
    usage: { used_by: readable.slice(0, USAGE_LIST_MAX), hidden, at_least: atLeast, total: more ? null : atLeast, more, unreadable: false },
    in_use: inUse,
  };
}

interface EntryUse {
  row: MediaUseRow;
  model: Model;
  fields: Set<string>;
  current: boolean;
  published: boolean;
}

/** Rows by entry, in index order; an entry of a model that no longer exists (none can) is skipped. */
function groupByEntry(rows: readonly MediaUseRow[], models: ReadonlyMap<string, Model>): EntryUse[] {
  const uses = new Map<string, EntryUse>();
  for (const row of rows) {
    const model = models.get(row.model_id);
    if (!model) continue;
    const use = uses.get(row.instance_id) ?? { row, model, fields: new Set<string>(), current: false, published: false };
    use.fields.add(row.field_id);
    use.current ||= Boolean(row.in_current);
    use.published ||= Boolean(row.in_published);
    uses.set(row.instance_id, use);
  }
  return [...uses.values()];
}

/** A scan cut at its row limit may hold part of its last entry's rows: that entry is left out. */
function withoutLastEntry(rows: readonly MediaUseRow[]): MediaUseRow[] {
  const last = rows.at(-1)?.instance_id;
  return rows.filter((r) => r.instance_id !== last);
}
