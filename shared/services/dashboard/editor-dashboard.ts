import { isoAt } from "../../clock";
import { decide, readableLanguages } from "../../auth/permissions";
import { modelRepository } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";

/** How many rows each list of the dashboard holds (a home screen, not a search). */
export const DASHBOARD_ROWS = 10;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface DashboardEntry {
  instance_id: string;
  model_id: string;
  model_name: string;
  lang: string;
  label: string | null;
  state: string;
  owner_id: string | null;
  updated_at: string;
  published_at: string | null;
}
export interface DashboardScheduled extends DashboardEntry {
  schedule_id: string;
  action: "publish" | "unpublish";
  at: string;
}
export interface EditorDashboard {
  my_drafts: DashboardEntry[];
  assigned_to_me: DashboardEntry[];
  waiting_for_review: DashboardEntry[];
  scheduled_this_week: DashboardScheduled[];
  recently_published: DashboardEntry[];
}

type Row = Omit<DashboardEntry, "model_name"> & { schedule_id?: string; action?: "publish" | "unpublish"; at?: string };

const COLUMNS = "e.instance_id, e.model_id, e.lang, e.label, e.workflow_state AS state, e.owner_id, e.updated_at, e.published_at";

/**
 * The signed-in person's home dashboard (issue #30 item 11; docs/admin-ui-content.md, "Home
 * dashboard"): five short lists read on the context's site only, Trash left out, and only entries
 * of models the person may read in languages their `read` limit allows — the same answer
 * `listEntries` would give them, so the dashboard reveals nothing a list would not.
 */
export async function editorDashboard(ctx: LifecycleContext): Promise<EditorDashboard> {
  const set = ctx.actor.permissions;
  const models = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => decide(set, { operation: "read", modelId: m.id }).allowed);
  const languages = readableLanguages(set, ctx.site.languages);
  const empty: EditorDashboard = { my_drafts: [], assigned_to_me: [], waiting_for_review: [], scheduled_this_week: [], recently_published: [] };
  if (models.length === 0 || languages.length === 0) return empty;
  const names = new Map(models.map((m) => [m.id, m.name]));
  const me = ctx.actor.id;
  const now = ctx.clock.now();
  // Every list: this site, readable models and languages, not in Trash.
  const scope = "e.site_id = ?1 AND e.trashed_at IS NULL AND e.model_id IN (SELECT value FROM json_each(?2)) AND e.lang IN (SELECT value FROM json_each(?3))";
  const assignedToMe = "EXISTS (SELECT 1 FROM json_each(e.assignee_ids) WHERE value = ?4)";
  const bind = [ctx.site.id, JSON.stringify([...names.keys()]), JSON.stringify(languages), me] as const;
  // Numbered parameters: a statement is bound exactly up to the highest one it names (SQLite refuses more).
  const prepared = (text: string, values: readonly unknown[]) => ctx.d1.prepare(text).bind(...values.slice(0, Math.max(...[...text.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])))));
  const list = (where: string, order: string) => prepared(`SELECT ${COLUMNS} FROM entries e WHERE ${scope} AND ${where} ORDER BY ${order} LIMIT ${DASHBOARD_ROWS}`, bind);
  const [drafts, assigned, review, scheduled, published] = await ctx.d1.batch<Row>([
    list("e.owner_id = ?4 AND e.workflow_state = 'draft'", "e.updated_at DESC, e.instance_id"),
    list(assignedToMe, "e.updated_at DESC, e.instance_id"),
    // Someone else's entry in review, for this person (assigned) or for anyone (nobody named).
    list(`e.workflow_state = 'in_review' AND (e.owner_id IS NULL OR e.owner_id != ?4) AND (${assignedToMe} OR e.assignee_ids = '[]')`, "e.updated_at ASC, e.instance_id"),
    prepared(
      `SELECT ${COLUMNS}, s.id AS schedule_id, s.action, s.at FROM schedules s JOIN entries e ON e.site_id = s.site_id AND e.translation_group_id = s.translation_group_id AND (s.lang IS NULL OR s.lang = e.lang)
       WHERE s.site_id = ?1 AND s.state = 'scheduled' AND s.at >= ?5 AND s.at < ?6 AND ${scope} ORDER BY s.at ASC, e.lang LIMIT ${DASHBOARD_ROWS}`,
      [...bind, isoAt(now), isoAt(now + WEEK_MS)],
    ),
    list("e.published_version_id IS NOT NULL AND e.published_at IS NOT NULL", "e.published_at DESC, e.instance_id"),
  ]);
  const view = (row: Row): DashboardEntry => ({
    instance_id: row.instance_id,
    model_id: row.model_id,
    model_name: names.get(row.model_id) ?? row.model_id,
    lang: row.lang,
    label: row.label,
    state: row.state,
    owner_id: row.owner_id,
    updated_at: row.updated_at,
    published_at: row.published_at,
  });
  const rows = (result: D1Result<Row> | undefined) => result?.results ?? [];
  return {
    my_drafts: rows(drafts).map(view),
    assigned_to_me: rows(assigned).map(view),
    waiting_for_review: rows(review).map(view),
    scheduled_this_week: rows(scheduled).map((row) => ({ ...view(row), schedule_id: row.schedule_id ?? "", action: row.action ?? "publish", at: row.at ?? "" })),
    recently_published: rows(published).map(view),
  };
}
