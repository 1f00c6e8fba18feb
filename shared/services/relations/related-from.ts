/**
 * "Related from" in the management API (docs/content-rules-reverse-single-unique.md): which entry
 * languages' current drafts link to an item, read from the `relation_heads` index in key order
 * (source instance id, then field id) — never by scanning content. A page reads at most limit + 1
 * index rows; sources the caller may not read (model, language or field limits) are counted in
 * `hidden`, never named.
 */
import { sha256Hex } from "../../crypto/digest";
import { decide, readableFieldIds } from "../../auth/permissions";
import { AppError } from "../../errors";
import { decodeCursor, encodeCursor } from "../../public/cursor";
import { signingSecret } from "../../public/signing-keys";
import { modelRepository } from "../../repositories/model-repository";
import { readableLabel } from "../lifecycle/entry-view";
import type { LifecycleContext } from "../lifecycle/context";

export const RELATED_FROM_DEFAULT_LIMIT = 20;
export const RELATED_FROM_MAX_LIMIT = 100;

export interface RelatedFromSource {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  model_slug: string;
  lang: string;
  field_id: string;
  field_key: string;
  /** Null when the caller may not read the source's title field. */
  label: string | null;
  in_trash: boolean;
}

export interface RelatedFromPage {
  data: RelatedFromSource[];
  /** Links on this page from sources the caller may not read. */
  hidden: number;
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}

export interface RelatedFromQuery {
  /** The target item (any language of it names the whole item). */
  target: { instance_id: string; translation_group_id: string };
  /** Only links through fields with this key. */
  field?: string;
  /** Only sources of this model. */
  model_id?: string;
  limit: number;
  cursor?: string;
}

interface HeadRow {
  source_instance_id: string;
  field_id: string;
  model_id: string;
  lang: string;
  label: string | null;
  translation_group_id: string;
  trashed_at: string | null;
}

export async function readRelatedFrom(ctx: Pick<LifecycleContext, "db" | "d1" | "scope" | "site" | "actor">, q: RelatedFromQuery): Promise<RelatedFromPage> {
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const byId = new Map(models.map((m) => [m.id, m]));
  const shape = (await sha256Hex(JSON.stringify(["related-from", ctx.site.id, q.target.translation_group_id, q.field ?? null, q.model_id ?? null]))).slice(0, 16);
  const secret = await signingSecret(ctx.d1, "cursor");
  let from: { instance: string; field: string } | undefined;
  if (q.cursor !== undefined) {
    const state = await decodeCursor(secret, q.cursor);
    if (!state || state.q !== shape) throw new AppError("invalid_request", "This cursor is not valid for this list.", { parameter: "cursor" });
    from = { instance: state.s, field: state.g };
  }
  // A field filter names keys; the index holds ids, so it becomes the ids of fields with that key.
  const fieldIds = q.field === undefined ? undefined : models.flatMap((m) => m.fields.filter((f) => f.key === q.field && f.type === "relation").map((f) => f.id));
  const empty: RelatedFromPage = { data: [], hidden: 0, page: { limit: q.limit, has_more: false, next_cursor: null } };
  if (fieldIds !== undefined && fieldIds.length === 0) return empty;

  let query = ctx.db
    .selectFrom("relation_heads as h")
    .innerJoin("entries as e", (join) => join.onRef("e.site_id", "=", "h.site_id").onRef("e.instance_id", "=", "h.source_instance_id"))
    .select(["h.source_instance_id", "h.field_id", "e.model_id", "e.lang", "e.label", "e.translation_group_id", "e.trashed_at"])
    .where("h.site_id", "=", ctx.site.id)
    .where("h.target_group_id", "=", q.target.translation_group_id)
    // Languages of the item itself are not "other items".
    .where("e.translation_group_id", "<>", q.target.translation_group_id);
  if (fieldIds !== undefined) query = query.where("h.field_id", "in", fieldIds);
  if (q.model_id !== undefined) query = query.where("e.model_id", "=", q.model_id);
  if (from) {
    const f = from;
    query = query.where((eb) => eb.or([eb("h.source_instance_id", ">", f.instance), eb.and([eb("h.source_instance_id", "=", f.instance), eb("h.field_id", ">=", f.field)])]));
  }
  const rows: HeadRow[] = await query.orderBy("h.source_instance_id").orderBy("h.field_id").limit(q.limit + 1).execute();
  const next = rows[q.limit];
  const data: RelatedFromSource[] = [];
  let hidden = 0;
  for (const row of rows.slice(0, q.limit)) {
    const model = byId.get(row.model_id);
    // A relation inside a component links under `<component id>.<nested keys>` (components.ts).
    const field = model?.fields.find((f) => f.id === row.field_id || row.field_id.startsWith(`${f.id}.`));
    // A link through a field removed from the model since is no link any more.
    if (!model || !field) continue;
    const mayRead =
      decide(ctx.actor.permissions, { operation: "read", modelId: model.id, lang: row.lang }).allowed &&
      readableFieldIds(ctx.actor.permissions, model.id, [field.id]).length > 0;
    if (!mayRead) {
      hidden++;
      continue;
    }
    data.push({
      instance_id: row.source_instance_id,
      translation_group_id: row.translation_group_id,
      model_id: model.id,
      model_slug: model.slug,
      lang: row.lang,
      field_id: field.id,
      field_key: field.id === row.field_id ? field.key : `${field.key}${row.field_id.slice(field.id.length)}`,
      label: readableLabel(row.label, model, ctx.actor.permissions),
      in_trash: row.trashed_at !== null,
    });
  }
  const nextCursor = next ? await encodeCursor(secret, { q: shape, s: next.source_instance_id, g: next.field_id }) : null;
  return { data, hidden, page: { limit: q.limit, has_more: next !== undefined, next_cursor: nextCursor } };
}
