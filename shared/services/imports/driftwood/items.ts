import type { CompiledQuery } from "kysely";
import type { FieldDefinition } from "../../../../schema/model-definition";
import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { rows, statement } from "../statements";

/**
 * The staged records of a Driftwood export (docs/exports.md, format 1) as its write steps read them:
 * always the next few of one kind in one state, by key (`idx_import_items_kind_state`, migration
 * 0064), never a walk of the job (docs/imports.md, "Driftwood exports").
 */

export interface ItemRow {
  seq: number;
  kind: string;
  source_key: string;
  payload: string;
  instance_id: string | null;
  /** The translation group the entry became (its languages are linked one batch apart). */
  group_id: string | null;
  version_id: string | null;
}

export interface ModelRecord {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  kind: "collection" | "single";
  is_public: boolean;
  i18n: boolean;
  fields: FieldDefinition[];
}

export interface EntryRecord {
  instance_id: string;
  translation_group_id: string;
  model: string;
  lang: string;
  slug: string | null;
  current: { fields: Record<string, unknown> } | null;
  published: { fields: Record<string, unknown> } | null;
  first_published_at: string | null;
}

export type ItemKind = "model" | "entry" | "other";

/** The next `limit` items of one kind in one state, in file order: a range of the kind-and-state index. */
export function nextItems(ctx: StepContext, job: ImportJobRow, kind: ItemKind, state: string, limit: number): Promise<ItemRow[]> {
  return rows<ItemRow>(
    ctx.d1,
    "SELECT seq, kind, source_key, payload, instance_id, group_id, version_id FROM import_items INDEXED BY idx_import_items_kind_state WHERE job_id = ? AND kind = ? AND state = ? AND site_id = ? ORDER BY seq LIMIT ?",
    [job.id, kind, state, ctx.site.id, limit],
  );
}

/**
 * Whether the job holds work after the phase a step just did: a model or entry to create, an
 * entry to link, a record to report — each an existence probe of the kind-and-state index (a row
 * at most), where the step once counted every item left.
 */
export async function workLeft(ctx: StepContext, job: ImportJobRow, after: "models" | "creates" | "links"): Promise<boolean> {
  const phases: [ItemKind, string][] = [
    ["entry", "staged"],
    ["entry", "written"],
    ["other", "staged"],
  ];
  const later = phases.slice(after === "models" ? 0 : after === "creates" ? 1 : 2);
  const probe = later.map(() => "EXISTS (SELECT 1 FROM import_items INDEXED BY idx_import_items_kind_state WHERE job_id = ? AND kind = ? AND state = ?)").join(" OR ");
  const found = await rows<{ more: number }>(ctx.d1, `SELECT (${probe}) AS more`, later.flatMap(([kind, state]) => [job.id, kind, state]));
  return found[0]?.more === 1;
}

/** What an old entry id became: the entry, and the import row that made it (its state, its place in the file). */
export interface CreatedEntry {
  seq: number;
  state: string;
  instance_id: string;
  group_id: string | null;
  /** The exported translation group (its other languages are found by it). */
  source_group: string | null;
}

/** Old entry id → the entry it became, for the ids given (by `idx_import_items_source`, 90 ids a query). */
export async function createdEntries(ctx: StepContext, job: ImportJobRow, oldIds: Iterable<string>): Promise<Map<string, CreatedEntry>> {
  const ids = [...new Set(oldIds)];
  const out = new Map<string, CreatedEntry>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const found = await rows<CreatedEntry & { source_key: string }>(
      ctx.d1,
      `SELECT source_key, seq, state, instance_id, group_id, source_group FROM import_items WHERE job_id = ? AND kind = 'entry' AND source_key IN (${part.map(() => "?").join(",")}) AND site_id = ? AND instance_id IS NOT NULL`,
      [job.id, ...part, ctx.site.id],
    );
    for (const { source_key, ...entry } of found) out.set(source_key, entry);
  }
  return out;
}

/** The seqs of the entries of these exported groups still to link (by `idx_import_items_group`: a group is a few rows). */
export async function groupsToLink(ctx: StepContext, job: ImportJobRow, groups: Iterable<string>): Promise<number[]> {
  const ids = [...new Set(groups)];
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const found = await rows<{ seq: number }>(
      ctx.d1,
      `SELECT seq FROM import_items INDEXED BY idx_import_items_group WHERE job_id = ? AND source_group IN (${part.map(() => "?").join(",")}) AND kind = 'entry' AND state = 'written' AND site_id = ?`,
      [job.id, ...part, ctx.site.id],
    );
    out.push(...found.map((f) => f.seq));
  }
  return out;
}

/** The import rows of these seqs (by the primary key), in file order. */
export function itemsBySeq(ctx: StepContext, job: ImportJobRow, seqs: readonly number[]): Promise<ItemRow[]> {
  if (seqs.length === 0) return Promise.resolve([]);
  return rows<ItemRow>(
    ctx.d1,
    `SELECT seq, kind, source_key, payload, instance_id, group_id, version_id FROM import_items WHERE job_id = ? AND seq IN (${seqs.map(() => "?").join(",")}) AND site_id = ? ORDER BY seq`,
    [job.id, ...seqs, ctx.site.id],
  );
}

/** An item's new state (and, when given, the entry it became). */
export function markItem(ctx: StepContext, job: ImportJobRow, seq: number, state: string, instanceId: string | null = null): CompiledQuery {
  return statement("UPDATE import_items SET state = ?, instance_id = COALESCE(?, instance_id) WHERE site_id = ? AND job_id = ? AND seq = ?", [state, instanceId, ctx.site.id, job.id, seq]);
}

/** Every old entry id a relation value names (strings, lists, `{ id }` objects). */
export function relationIds(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const v of value) relationIds(v, out);
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) if (k !== "model") relationIds(v, out);
  return out;
}

/** Replaces every old entry id inside a relation value by the new one; dropped when a target was not imported. */
export function mapIds(value: unknown, ids: ReadonlyMap<string, { instance_id: string }>): unknown {
  if (typeof value === "string") return ids.get(value)?.instance_id ?? null;
  if (Array.isArray(value)) return value.map((v) => mapIds(v, ids)).filter((v) => v !== null);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === "model" ? v : mapIds(v, ids);
    return out;
  }
  return value;
}
