import type { SiteRow } from "../../db/database";
import { controlDatabase, DEFAULT_SITE_DATABASE, isSiteDatabaseBinding, siteDatabase, type DatabaseBindings } from "../../db/site-databases";
import { AppError, type Failure } from "../../errors";
import { normaliseHost } from "../../repositories/site-repository";
import { findOpsSite } from "../sites/ops-sites";
import { COPY_CONTROL_TABLES, copyTables } from "./tables";

/** A copy's target: a new site made by the copy, or an existing site (`into`). */
export interface NewCopyTarget {
  slug: string;
  name: string;
  hosts: string[];
  languages?: string[] | undefined;
  default_lang?: string | undefined;
  database?: string | undefined;
}

export interface CopyInput {
  to?: NewCopyTarget | undefined;
  into?: string | undefined;
  content: boolean;
  media: boolean;
}

export interface CopyPlan {
  template: SiteRow;
  /** The existing target (`into`), or null for a new site. */
  target: SiteRow | null;
  /** Template model id → the target's model of the same slug (`into` only): content lands there, the model is not copied. */
  matchedModels: Map<string, string>;
  tables: string[];
  rows: Record<string, number>;
  objects: number;
  bytes: number;
  blockers: Failure[];
}

type Env = DatabaseBindings & { ADMIN_HOST?: string };

const SHOWN = 20;

/**
 * What a copy would copy and what blocks it (docs/site-copy.md, "Dry run"), reading only. Every
 * blocker is listed, not just the first: a dry run is how an operator learns all of them at once.
 *
 * - New site: its slug free (`slug_taken`), every host free and not the admin host (`host_taken`),
 *   the database bound (`unknown_database`).
 * - Existing site (`into`): a template model whose slug the target has is reused only when both
 *   define it alike (kind and definition), else `model_conflict` (also for a name the target's
 *   other model uses); with content, a single model whose item the target already holds while the
 *   template holds one too is `single_entry_taken` (spec 3: a single model holds at most one item,
 *   Trash counted); an entry address both hold (model, language, slug) is `entry_slug_taken`; with
 *   the media library, a top-level folder name both hold is `media_folder_exists`.
 */
export async function planCopy(env: Env, templateRef: string, input: CopyInput): Promise<CopyPlan> {
  const template = await findOpsSite(env, templateRef);
  const blockers: Failure[] = [];
  let target: SiteRow | null = null;
  const matchedModels = new Map<string, string>();
  const source = await siteDatabase(env, template.id);
  const content = input.content;
  const media = input.media || input.content;

  // Exactly one target (docs/site-copy.md): with both, `to` was silently ignored (probe finding, session 17).
  if (input.into !== undefined && input.to !== undefined) throw new AppError("invalid_request", "Name one target: `to` (a new site) or `into` (an existing site), not both.");
  if (input.into !== undefined) {
    target = await findOpsSite(env, input.into);
    if (target.id === template.id) throw new AppError("invalid_request", "A site cannot be copied into itself.");
    await intoBlockers(env, template, target, source, { content, media }, matchedModels, blockers);
  } else if (input.to !== undefined) {
    await newSiteBlockers(env, input.to, blockers);
  } else {
    throw new AppError("invalid_request", "Name the copy's target: `to` (a new site) or `into` (an existing site).");
  }

  const tables = copyTables({ createdTarget: target === null, content, media });
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const db = COPY_CONTROL_TABLES.has(table) ? controlDatabase(env) : source;
    const skip = table === "models" ? [...matchedModels.keys()] : [];
    const n = await db
      .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?${skip.length > 0 ? ` AND id NOT IN (${skip.map(() => "?").join(", ")})` : ""}`)
      .bind(template.id, ...skip)
      .first<{ n: number }>();
    rows[table] = n?.n ?? 0;
  }
  let objects = 0;
  let bytes = 0;
  if (media) {
    const sum = await source.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(byte_length), 0) AS bytes FROM media_objects WHERE site_id = ?").bind(template.id).first<{ n: number; bytes: number }>();
    objects = sum?.n ?? 0;
    bytes = sum?.bytes ?? 0;
  }
  return { template, target, matchedModels, tables, rows, objects, bytes, blockers };
}

async function newSiteBlockers(env: Env, to: NewCopyTarget, blockers: Failure[]): Promise<void> {
  const control = controlDatabase(env);
  if (to.database !== undefined && !isSiteDatabaseBinding(to.database)) {
    blockers.push({ code: "unknown_database", message: `No site database is bound as "${to.database}".`, details: { binding: to.database } });
  }
  const bySlug = await control.prepare("SELECT id FROM sites WHERE slug = ?").bind(to.slug).first<{ id: string }>();
  if (bySlug) blockers.push({ code: "slug_taken", message: "Another site already uses this slug.", details: { slug: to.slug } });
  const admin = normaliseHost(env.ADMIN_HOST ?? null);
  for (const host of new Set(to.hosts)) {
    if (host === admin) {
      blockers.push({ code: "host_taken", message: `The host "${host}" is the admin host.`, details: { host } });
      continue;
    }
    const taken = await control.prepare("SELECT site_id FROM site_hosts WHERE host = ?").bind(host).first<{ site_id: string }>();
    if (taken) blockers.push({ code: "host_taken", message: `The host "${host}" is already served by another site.`, details: { host, site_id: taken.site_id } });
  }
}

interface ModelRow {
  id: string;
  slug: string;
  name: string;
  kind: string;
  definition: string;
}

async function intoBlockers(
  env: Env,
  template: SiteRow,
  target: SiteRow,
  source: D1Database,
  scope: { content: boolean; media: boolean },
  matched: Map<string, string>,
  blockers: Failure[],
): Promise<void> {
  const destination = await siteDatabase(env, target.id);
  const models = (d1: D1Database, siteId: string) => d1.prepare("SELECT id, slug, name, kind, definition FROM models WHERE site_id = ? ORDER BY slug").bind(siteId).all<ModelRow>();
  const [theirs, ours] = [(await models(source, template.id)).results, (await models(destination, target.id)).results];
  const bySlug = new Map(ours.map((m) => [m.slug, m]));
  const byName = new Map(ours.map((m) => [m.name, m]));
  for (const model of theirs) {
    const same = bySlug.get(model.slug);
    if (same) {
      if (same.kind !== model.kind || same.definition !== model.definition) {
        blockers.push({ code: "model_conflict", message: `The target's model "${model.slug}" is defined otherwise than the template's.`, details: { model: model.slug } });
      } else matched.set(model.id, same.id);
    } else if (byName.has(model.name)) {
      blockers.push({ code: "model_conflict", message: `The target has another model named "${model.name}".`, details: { model: model.slug, name: model.name } });
    }
  }
  if (scope.content) {
    for (const [fromId, toId] of matched) {
      const model = theirs.find((m) => m.id === fromId);
      if (!model) continue;
      const items = async (d1: D1Database, siteId: string, modelId: string) =>
        (await d1.prepare("SELECT COUNT(DISTINCT translation_group_id) AS n FROM entries WHERE site_id = ? AND model_id = ?").bind(siteId, modelId).first<{ n: number }>())?.n ?? 0;
      if (model.kind === "single" && (await items(source, template.id, fromId)) > 0 && (await items(destination, target.id, toId)) > 0) {
        blockers.push({ code: "single_entry_taken", message: `The single model "${model.slug}" already holds its item in the target; the template's cannot join it.`, details: { model: model.slug } });
        continue;
      }
      const addresses = async (d1: D1Database, siteId: string, modelId: string) =>
        (await d1.prepare("SELECT lang, slug FROM entries WHERE site_id = ? AND model_id = ? AND slug IS NOT NULL AND trashed_at IS NULL").bind(siteId, modelId).all<{ lang: string; slug: string }>()).results;
      const held = new Set((await addresses(destination, target.id, toId)).map((e) => `${e.lang}/${e.slug}`));
      const both = (await addresses(source, template.id, fromId)).map((e) => `${e.lang}/${e.slug}`).filter((a) => held.has(a));
      if (both.length > 0) {
        blockers.push({ code: "entry_slug_taken", message: `Entries of "${model.slug}" in the target already use ${both.length} of the template's addresses.`, details: { model: model.slug, addresses: both.slice(0, SHOWN) } });
      }
    }
  }
  if (scope.media) {
    const roots = async (d1: D1Database, siteId: string) => (await d1.prepare("SELECT name_key FROM media_folders WHERE site_id = ? AND parent_id IS NULL").bind(siteId).all<{ name_key: string }>()).results.map((r) => r.name_key);
    const held = new Set(await roots(destination, target.id));
    const both = (await roots(source, template.id)).filter((n) => held.has(n));
    if (both.length > 0) blockers.push({ code: "media_folder_exists", message: "The target already has top-level media folders of these names.", details: { folders: both.slice(0, SHOWN) } });
  }
}

/** The target's database binding for a new site. */
export function newTargetDatabase(to: NewCopyTarget): string {
  return to.database ?? DEFAULT_SITE_DATABASE;
}

