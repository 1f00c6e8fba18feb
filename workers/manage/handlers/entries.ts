import type * as v from "valibot";
import { newestFirst } from "../newest-first";
import { sortPlan } from "../entry-sort";
import type { EntrySort } from "../../../schema/entry-sorts";
import type { EntryRow } from "../../../shared/db/database";
import { versionWriters } from "../../../shared/services/lifecycle/version-writers";
import { decide, readableLanguages } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { entryRepository } from "../../../shared/repositories/entry-repository";
import { modelRepository, type Model } from "../../../shared/repositories/model-repository";
import { entryView, readableLabel } from "../../../shared/services/lifecycle/entry-view";
import { readEntryTogether } from "../../../shared/services/lifecycle/preload";
import type {
  AddLanguageBody,
  CreateEntryBody,
  MoveBody,
  PublishBody,
  RestoreVersionBody,
  SaveDraftBody,
  TrashBody,
  UnpublishBody,
} from "../../../schema/manage-entries";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandHandler } from "../respond";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** May the actor read this entry's model and language? Unreadable entries are "not found". */
function readable(call: ManageCall, model: Model, lang: string): boolean {
  return decide(call.actor.permissions, { operation: "read", modelId: model.id, lang }).allowed;
}

async function readableEntry(call: ManageCall) {
  // The entry, its model and its current version in one round trip (lifecycle/preload.ts).
  const { entry, model, version } = await readEntryTogether(call.ctx.d1, call.site.id, call.params.id ?? "");
  if (!entry || !model || !readable(call, model, entry.lang)) throw new AppError("not_found", "No such entry.");
  return { entry, model, version };
}

/** GET /entries */
export async function listEntries(call: ManageCall): Promise<Response> {
  const q = call.query as { model_id?: string; lang?: string; state?: string; q?: string; slug?: string; translation_group_id?: string; sort?: EntrySort; cursor?: string; limit?: string };
  const limit = Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const models = (await modelRepository(call.ctx.db, call.ctx.scope).list()).filter((m) => decide(call.actor.permissions, { operation: "read", modelId: m.id }).allowed);
  // A label search only looks where the reader sees labels: searching a hidden label would reveal it.
  const searchable = (m: Model) => q.q === undefined || readableLabel("", m, call.actor.permissions) !== null;
  const modelIds = models.filter((m) => (!q.model_id || m.id === q.model_id) && searchable(m)).map((m) => m.id);
  const langs = readableLanguages(call.actor.permissions, call.site.languages).filter((l) => !q.lang || l === q.lang);
  // A sorted list is another list: its cursor continues only the same sort (entry-sort.ts).
  const pages = await newestFirst(call.ctx.d1, call.site.id, ["entries", q.model_id ?? null, q.lang ?? null, q.state ?? null, ...(q.q !== undefined || q.slug !== undefined || q.translation_group_id !== undefined ? [q.q ?? null, q.slug ?? null, q.translation_group_id ?? null] : []), ...(q.sort ? [`sort:${q.sort}`] : [])], q.cursor);
  const plan = q.sort ? await sortPlan(call.ctx.db, call.ctx.scope, q.sort, models.filter((m) => readableLabel("", m, call.actor.permissions) === null).map((m) => m.id)) : undefined;
  let rows: (EntryRow & { sort_key?: string })[] = [];
  if (modelIds.length > 0 && langs.length > 0) {
    let query = call.ctx.db
      .selectFrom("entries")
      .selectAll()
      .where("site_id", "=", call.site.id)
      .where("model_id", "in", modelIds)
      .where("lang", "in", langs);
    // Spec 3, Trash: trashed entries leave every list; only `state=trash` shows them.
    if (q.state === "trash") query = query.where("trashed_at", "is not", null);
    else query = query.where("trashed_at", "is", null);
    if (q.state !== undefined && q.state !== "trash") query = query.where("workflow_state", "=", q.state);
    // A substring test (instr, not LIKE: the text's % and _ stay literal), ignoring ASCII case.
    const text = q.q;
    if (text !== undefined) query = query.where((eb) => eb(eb.fn("instr", [eb.fn("lower", ["label"]), eb.fn("lower", [eb.val(text)])]), ">", 0));
    if (q.slug !== undefined) query = query.where("slug", "=", q.slug);
    if (q.translation_group_id !== undefined) query = query.where("translation_group_id", "=", q.translation_group_id);
    const from = pages.from;
    if (plan) {
      // The key is computed once in an inner query; the page starts at the cursor's (key, id), inclusive.
      const keyed = call.ctx.db.selectFrom(query.select(plan.expression.as("sort_key")).as("e")).selectAll();
      const direction = plan.descending ? "desc" : "asc";
      const beyond = plan.descending ? "<" : ">";
      const onward = plan.descending ? "<=" : ">=";
      const started = from ? keyed.where((eb) => eb.or([eb("sort_key", beyond, from.createdAt), eb.and([eb("sort_key", "=", from.createdAt), eb("instance_id", onward, from.id)])])) : keyed;
      rows = await started.orderBy("sort_key", direction).orderBy("instance_id", direction).limit(limit + 1).execute();
    } else {
      if (from) query = query.where((eb) => eb.or([eb("created_at", "<", from.createdAt), eb.and([eb("created_at", "=", from.createdAt), eb("instance_id", "<=", from.id)])]));
      rows = await query.orderBy("created_at", "desc").orderBy("instance_id", "desc").limit(limit + 1).execute();
    }
  }
  const page = rows.slice(0, limit);
  const next = rows[limit];
  const versions = await Promise.all(page.map((e) => (e.current_version_id ? entryRepository(call.ctx.db, call.ctx.scope).findVersion(e.current_version_id) : undefined)));
  const writers = await versionWriters(call.ctx.db, call.ctx.scope, call.site.id, versions);
  const byId = new Map(models.map((m) => [m.id, m]));
  const data = page.flatMap((e, i) => {
    const model = byId.get(e.model_id);
    const { sort_key: _key, ...entry } = e;
    return model ? [{ ...entryView(entry, model, versions[i], call.actor), updated_by: writers[i] ?? null }] : [];
  });
  return json({
    data,
    page: { limit, has_more: next !== undefined, next_cursor: next ? await pages.cursorAt({ created_at: plan ? (next.sort_key ?? "") : next.created_at, id: next.instance_id }) : null },
  });
}

/** GET /entries/{id}, with this language's pending, stale and failed schedules (docs/scheduled-publishing.md). */
export async function getEntry(call: ManageCall): Promise<Response> {
  const { entry, model, version } = await readableEntry(call);
  const rows = await call.ctx.db
    .selectFrom("schedules")
    .select(["id", "action", "at", "state", "outcome_code", "pins"])
    .where("site_id", "=", call.site.id)
    .where("translation_group_id", "=", entry.translation_group_id)
    .where("state", "in", ["scheduled", "stale", "failed"])
    .orderBy("at")
    .limit(50)
    .execute();
  const schedules = rows.filter((r) => r.pins.includes(`"${entry.instance_id}"`)).map(({ pins: _pins, ...rest }) => rest);
  return json({ ...entryView(entry, model, version, call.actor), schedules });
}

/** GET /entries/{id}/versions */
export async function listEntryVersions(call: ManageCall): Promise<Response> {
  const { entry, model } = await readableEntry(call);
  const versions = await entryRepository(call.ctx.db, call.ctx.scope).listVersions(entry.instance_id);
  return json({
    data: versions.map(({ id, number, slug, label, created_by, restored_from, created_at }) => ({ id, number, slug, label: readableLabel(label, model, call.actor.permissions), created_by, restored_from, created_at })),
  });
}

/** GET /entries/{id}/dependents: entries whose current or published version links to this item. */
export async function listEntryDependents(call: ManageCall): Promise<Response> {
  const { entry } = await readableEntry(call);
  const rows = await call.ctx.db
    .selectFrom("relation_links")
    .innerJoin("entries", (join) => join.onRef("entries.site_id", "=", "relation_links.site_id").onRef("entries.instance_id", "=", "relation_links.source_instance_id"))
    .select(["entries.instance_id", "entries.model_id", "entries.lang", "entries.label", "entries.published_version_id", "entries.current_version_id", "relation_links.version_id"])
    .distinct()
    .where("relation_links.site_id", "=", call.site.id)
    .where("relation_links.target_group_id", "=", entry.translation_group_id)
    .where("entries.translation_group_id", "!=", entry.translation_group_id)
    .execute();
  const models = new Map((await modelRepository(call.ctx.db, call.ctx.scope).list()).map((m) => [m.id, m]));
  const seen = new Map<string, { instance_id: string; model_id: string; lang: string; label: string | null; published: boolean }>();
  for (const r of rows) {
    const live = r.version_id === r.current_version_id || r.version_id === r.published_version_id;
    const model = models.get(r.model_id);
    if (!live || !model || !readable(call, model, r.lang)) continue;
    const published = r.version_id === r.published_version_id;
    const prior = seen.get(r.instance_id);
    seen.set(r.instance_id, { instance_id: r.instance_id, model_id: r.model_id, lang: r.lang, label: readableLabel(r.label, model, call.actor.permissions), published: published || (prior?.published ?? false) });
  }
  return json({ data: [...seen.values()] });
}

const id = (call: ManageCall) => call.params.id ?? "";

export const createEntry = commandHandler("createEntry", (call) => call.body as v.InferOutput<typeof CreateEntryBody>);
export const saveEntry = commandHandler("saveDraft", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof SaveDraftBody>) }));
export const addEntryLanguage = commandHandler("addLanguage", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof AddLanguageBody>) }));
export const restoreEntryVersion = commandHandler("restoreVersion", (call) => ({
  instance_id: id(call),
  version_id: call.params.version_id ?? "",
  ...(call.body as v.InferOutput<typeof RestoreVersionBody>),
}));
export const publishEntry = commandHandler("publish", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof PublishBody>) }));
export const unpublishEntry = commandHandler("unpublish", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof UnpublishBody>) }));
export const moveEntry = commandHandler("move", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof MoveBody>) }));
export const trashEntry = commandHandler("trash", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof TrashBody>) }));
export const restoreEntry = commandHandler("restore", (call) => ({ instance_id: id(call), ...(call.body as v.InferOutput<typeof TrashBody>) }));
export const purgeEntry = commandHandler("purge", (call) => ({ instance_id: id(call) }));
