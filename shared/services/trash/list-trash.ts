import { decide, readableLanguages } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { modelRepository } from "../../repositories/model-repository";
import { surfaceOf, type AuditSurface } from "../audit/audit-log";
import type { LifecycleContext } from "../lifecycle/context";
import { trashWindowMs } from "../lifecycle/trash-retention";

/** Rows of one Trash page by default, and at most. */
export const TRASH_PAGE = { default: 50, max: 100 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface TrashItem {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  model_name: string;
  lang: string;
  label: string | null;
  slug: string | null;
  trashed_at: string;
  purge_at: string;
  trashed_by: { surface: AuditSurface; person_id: string | null } | null;
  can_delete: boolean;
  refusal: string | null;
}

export interface TrashPage {
  retention_days: number;
  models: { id: string; name: string }[];
  data: TrashItem[];
  next_cursor: string | null;
}

interface Row {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  lang: string;
  label: string | null;
  slug: string | null;
  owner_id: string | null;
  trashed_at: string;
}

/** `trashed_at|instance_id` of the last row shown: the next page starts strictly after it. */
function parseCursor(text: string): { at: string; id: string } {
  const bar = text.indexOf("|");
  if (bar <= 0 || bar === text.length - 1) throw new AppError("invalid_request", "cursor is not a cursor this list gave.", { field: "cursor" });
  return { at: text.slice(0, bar), id: text.slice(bar + 1) };
}

/**
 * The site's Trash for the admin's Trash screen (docs/admin-ui-trash.md): every language in Trash of
 * the models the person may read, in the languages they may read (what `listEntries?state=trash`
 * would show them, across models), newest first. Each row says when retention deletes it (spec 3:
 * 30 days, `trash_days` may shorten it), who moved it there (the newest `entry.trash` audit row
 * naming it) and whether the person may restore or delete it (delete on the model, spec 3 States).
 */
export async function listTrash(ctx: LifecycleContext, query: { model_id?: string; cursor?: string; limit?: number }): Promise<TrashPage> {
  const set = ctx.actor.permissions;
  const windowMs = trashWindowMs(ctx.site.settings);
  const readable = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => decide(set, { operation: "read", modelId: m.id }).allowed);
  const models = readable.map((m) => ({ id: m.id, name: m.name }));
  const page: TrashPage = { retention_days: Math.round(windowMs / DAY_MS), models, data: [], next_cursor: null };
  const listed = query.model_id === undefined ? readable : readable.filter((m) => m.id === query.model_id);
  const languages = readableLanguages(set, ctx.site.languages);
  if (listed.length === 0 || languages.length === 0) return page;
  const limit = query.limit ?? TRASH_PAGE.default;
  const where = ["e.site_id = ?", "e.trashed_at IS NOT NULL", "e.model_id IN (SELECT value FROM json_each(?))", "e.lang IN (SELECT value FROM json_each(?))"];
  const binds: unknown[] = [ctx.site.id, JSON.stringify(listed.map((m) => m.id)), JSON.stringify(languages)];
  if (query.cursor) {
    const after = parseCursor(query.cursor);
    where.push("(e.trashed_at < ? OR (e.trashed_at = ? AND e.instance_id > ?))");
    binds.push(after.at, after.at, after.id);
  }
  const rows = (
    await ctx.d1
      .prepare(
        `SELECT e.instance_id, e.translation_group_id, e.model_id, e.lang, e.label, e.slug, e.owner_id, e.trashed_at FROM entries e
         WHERE ${where.join(" AND ")} ORDER BY e.trashed_at DESC, e.instance_id ASC LIMIT ?`,
      )
      .bind(...binds, limit + 1)
      .all<Row>()
  ).results;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  page.next_cursor = rows.length > limit && last ? `${last.trashed_at}|${last.instance_id}` : null;
  const who = await trashedBy(ctx, shown.map((r) => r.instance_id));
  const names = new Map(readable.map((m) => [m.id, m.name]));
  page.data = shown.map((row) => {
    const answer = decide(set, { operation: "delete", modelId: row.model_id, lang: row.lang, ownerId: row.owner_id, actorId: ctx.actor.id });
    return {
      instance_id: row.instance_id,
      translation_group_id: row.translation_group_id,
      model_id: row.model_id,
      model_name: names.get(row.model_id) ?? row.model_id,
      lang: row.lang,
      label: row.label,
      slug: row.slug,
      trashed_at: row.trashed_at,
      purge_at: isoAt(Date.parse(row.trashed_at) + windowMs),
      trashed_by: who.get(row.instance_id) ?? null,
      can_delete: answer.allowed,
      refusal: answer.allowed ? null : refusalWords(answer.code),
    };
  });
  return page;
}

/** The refusal of a restore or delete, in words for the screen (the routes answer the same codes). */
function refusalWords(code: string): string {
  if (code === "not_owner") return "You may delete only entries you own.";
  if (code === "locale_denied") return "Your role may not delete content in this language.";
  return "Restoring or deleting needs delete permission on this model.";
}

/**
 * Who moved each language to Trash: the `entry.trash` audit row that set its `trashed_at` — the
 * first one naming a language of the same item at or after that moment (a move of the whole item
 * is audited once, on the language it was asked for; the audit's details are digests, so the item's
 * languages are found through the entries, not the details). One read for the page.
 */
async function trashedBy(ctx: LifecycleContext, instanceIds: string[]): Promise<Map<string, TrashItem["trashed_by"]>> {
  const found = new Map<string, TrashItem["trashed_by"]>();
  if (instanceIds.length === 0) return found;
  const rows = (
    await ctx.d1
      .prepare(
        `SELECT e.instance_id, a.actor_kind, a.actor_id, a.credential_id FROM entries e
         JOIN entries g ON g.site_id = e.site_id AND g.translation_group_id = e.translation_group_id
         JOIN audit_log a ON a.site_id = e.site_id AND a.target_kind = 'entry' AND a.target_id = g.instance_id AND a.action = 'entry.trash' AND a.at >= e.trashed_at
         WHERE e.site_id = ? AND e.instance_id IN (SELECT value FROM json_each(?))
         ORDER BY a.at ASC, a.id ASC`,
      )
      .bind(ctx.site.id, JSON.stringify(instanceIds))
      .all<{ instance_id: string; actor_kind: string; actor_id: string | null; credential_id: string | null }>()
  ).results;
  for (const row of rows) {
    if (found.has(row.instance_id)) continue;
    const surface = surfaceOf(row);
    found.set(row.instance_id, { surface, person_id: surface === "plugin" || surface === "system" ? null : row.actor_id });
  }
  return found;
}
