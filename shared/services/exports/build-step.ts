import { readableFieldIds } from "../../auth/permissions";
import { toKeyedValues } from "../../content/stored-values";
import { hex } from "../../crypto/digest";
import { commit } from "../../db/batch";
import { AppError } from "../../errors";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { StepAnswer, StepContext } from "../imports/job-step";
import { rows, statement } from "../imports/statements";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, exportJobView, exportPageKey, loadExportJob, movedExport, moveExport, requireExportPermission, type ExportCursor, type ExportFilter, type ExportJobRow, type ExportJobView } from "./jobs";
import { exportFileStream } from "./read";

/** Entries one build step writes into its page (docs/exports.md, "Steps"). */
export const EXPORT_ENTRIES_PER_PAGE = 100;
/** Media items one build step writes into its page. */
export const EXPORT_MEDIA_PER_PAGE = 200;

const encoder = new TextEncoder();
const lines = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");

interface EntryRow {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  lang: string;
  slug: string | null;
  current_version_id: string | null;
  published_version_id: string | null;
  published_at: string | null;
  first_published_at: string | null;
}

/** A model's record: its definition as the model apply takes it back (docs/exports.md). */
function modelRecord(model: Model) {
  return { type: "model", id: model.id, slug: model.slug, name: model.name, description: model.description, kind: model.kind, is_public: model.is_public, i18n: model.i18n, fields: model.fields, settings: model.settings, unique_combinations: model.unique_combinations };
}

/** Only the fields the caller's role reads (a whole-site export reads them all). */
function readable(ctx: StepContext, model: Model, values: Record<string, unknown>): Record<string, unknown> {
  const ids = new Set(readableFieldIds(ctx.actor.permissions, model.id, model.fields.map((f) => f.id)));
  return toKeyedValues(model.fields.filter((f) => ids.has(f.id)), values);
}

async function entriesPage(ctx: StepContext, filter: ExportFilter, models: Map<string, Model>, after: string): Promise<{ text: string; last: string | null; full: boolean }> {
  const modelIds = [...models.keys()];
  if (modelIds.length === 0) return { text: "", last: null, full: false };
  const langs = filter.languages ?? ctx.site.languages;
  const found = await rows<EntryRow>(
    ctx.d1,
    `SELECT instance_id, translation_group_id, model_id, lang, slug, current_version_id, published_version_id, published_at, first_published_at FROM entries
      WHERE site_id = ? AND trashed_at IS NULL AND instance_id > ? AND model_id IN (${modelIds.map(() => "?").join(",")}) AND lang IN (${langs.map(() => "?").join(",")})
      ORDER BY instance_id LIMIT ?`,
    [ctx.site.id, after, ...modelIds, ...langs, EXPORT_ENTRIES_PER_PAGE],
  );
  const versionIds = [...new Set(found.flatMap((e) => [e.current_version_id, e.published_version_id]).filter((v): v is string => v !== null))];
  const versions = new Map<string, { fields: string; label: string | null }>();
  for (let i = 0; i < versionIds.length; i += 90) {
    const part = versionIds.slice(i, i + 90);
    for (const v of await rows<{ id: string; fields: string; label: string | null }>(ctx.d1, `SELECT id, fields, label FROM versions WHERE site_id = ? AND id IN (${part.map(() => "?").join(",")})`, [ctx.site.id, ...part])) versions.set(v.id, v);
  }
  const version = (model: Model, id: string | null) => {
    const v = id ? versions.get(id) : undefined;
    return v && id ? { version_id: id, label: v.label, fields: readable(ctx, model, JSON.parse(v.fields) as Record<string, unknown>) } : null;
  };
  const records = found.map((e) => {
    const model = models.get(e.model_id) as Model;
    return {
      type: "entry",
      instance_id: e.instance_id,
      translation_group_id: e.translation_group_id,
      model: model.slug,
      lang: e.lang,
      slug: e.slug,
      current: version(model, e.current_version_id),
      published: e.published_version_id ? { ...version(model, e.published_version_id), published_at: e.published_at } : null,
      first_published_at: e.first_published_at,
    };
  });
  return { text: lines(records), last: found[found.length - 1]?.instance_id ?? null, full: found.length === EXPORT_ENTRIES_PER_PAGE };
}

async function mediaPage(ctx: StepContext, after: string): Promise<{ text: string; last: string | null; full: boolean }> {
  const found = await rows<Record<string, unknown> & { id: string; alt_texts: string; tags: string }>(
    ctx.d1,
    "SELECT id, kind, file_name, mime_type, byte_length, sha256, width, height, alt_texts, default_focal, folder_id, tags, credit, created_at FROM media WHERE site_id = ? AND id > ? ORDER BY id LIMIT ?",
    [ctx.site.id, after, EXPORT_MEDIA_PER_PAGE],
  );
  const records = found.map((m) => ({ type: "media", ...m, alt_texts: JSON.parse(m.alt_texts) as unknown, tags: JSON.parse(m.tags) as unknown, default_focal: m.default_focal ? (JSON.parse(String(m.default_focal)) as unknown) : null }));
  return { text: lines(records), last: found[found.length - 1]?.id ?? null, full: found.length === EXPORT_MEDIA_PER_PAGE };
}

/** SHA-256 of the pages in order, streamed through one digest (the file is never held whole). */
async function fileSha256(ctx: StepContext, job: ExportJobRow): Promise<string> {
  const digest = new crypto.DigestStream("SHA-256");
  await exportFileStream(ctx.files, ctx.site.id, job).pipeTo(digest);
  return hex(new Uint8Array(await digest.digest));
}

/**
 * advanceExport (a job step, rule 5: runs again while the export did not move): writes the next
 * page of the file — the header with models and roles, then entries, then media, then the end —
 * and finally seals it with the whole file's SHA-256.
 */
export async function advanceExport(ctx: StepContext, input: { job_id: string }): Promise<StepAnswer<{ export: ExportJobView }>> {
  requireExportPermission(ctx);
  const job = await loadExportJob(ctx, input.job_id);
  if (job.state !== "building") throw new AppError("export_state_conflict", `The export is ${job.state}.`, { state: job.state });
  const cursor = JSON.parse(job.cursor) as ExportCursor;
  const filter = JSON.parse(job.filter) as ExportFilter;
  const whole = filter.model_ids === null && filter.languages === null;
  const all = await modelRepository(ctx.db, ctx.scope).list();
  const models = new Map(all.filter((m) => filter.model_ids === null || filter.model_ids.includes(m.id)).map((m) => [m.id, m]));

  if (cursor.section === "seal") {
    const set = { state: "finished" as const, sha256: await fileSha256(ctx, job), cursor: JSON.stringify({ section: "seal", after: "" }) };
    await commit(ctx.d1, moveExport(ctx, job, set));
    return { body: { export: exportJobView(movedExport(ctx, job, set)) }, purgeTags: [] };
  }
  let text = "";
  let next: ExportCursor;
  if (cursor.section === "header") {
    const header = { format: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION, site: { slug: ctx.site.slug, name: ctx.site.name, default_lang: ctx.site.default_lang, languages: filter.languages ?? ctx.site.languages }, filter, created_at: job.created_at };
    // Roles (never secrets: no credential, token or member) only in a whole-site export.
    const roles = whole ? await rows<{ slug: string; name: string; description: string | null; permissions: string }>(ctx.d1, "SELECT slug, name, description, permissions FROM roles WHERE site_id = ? ORDER BY slug", [ctx.site.id]) : [];
    text = lines([header, ...[...models.values()].map(modelRecord), ...roles.map((r) => ({ type: "role", slug: r.slug, name: r.name, description: r.description, permissions: JSON.parse(r.permissions) as unknown }))]);
    next = { section: "entries", after: "" };
  } else if (cursor.section === "entries") {
    const page = await entriesPage(ctx, filter, models, cursor.after);
    text = page.text;
    next = page.full && page.last ? { section: "entries", after: page.last } : { section: whole ? "media" : "end", after: "" };
  } else if (cursor.section === "media") {
    const page = await mediaPage(ctx, cursor.after);
    text = page.text;
    next = page.full && page.last ? { section: "media", after: page.last } : { section: "end", after: "" };
  } else {
    text = lines([{ type: "end", pages: job.pages + 1 }]);
    next = { section: "seal", after: "" };
  }
  const bytes = encoder.encode(text);
  const set: Partial<ExportJobRow> = { cursor: JSON.stringify(next) };
  const statements = [];
  if (bytes.length > 0) {
    const page = job.pages + 1;
    const key = exportPageKey(ctx.site.id, job.id, page);
    await ctx.files.put(key, bytes);
    const pageSha = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
    statements.push(
      statement("INSERT OR REPLACE INTO export_pages (job_id, site_id, page, byte_offset, byte_length, sha256, object_key) VALUES (?, ?, ?, ?, ?, ?, ?)", [job.id, ctx.site.id, page, job.total_bytes, bytes.length, pageSha, key]),
    );
    set.pages = page;
    set.total_bytes = job.total_bytes + bytes.length;
  }
  await commit(ctx.d1, [...statements, ...moveExport(ctx, job, set)]);
  return { body: { export: exportJobView(movedExport(ctx, job, set)) }, purgeTags: [] };
}
