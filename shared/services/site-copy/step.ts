import { isoAt, type Clock } from "../../clock";
import { cacheTag } from "../lifecycle/context";
import { controlDatabase, siteDatabase, type DatabaseBindings } from "../../db/site-databases";
import { purgeAfterCommit, type CachePurger } from "../../public/cache-purge";
import { primaryKey } from "../sites/site-move";
import { IdRemap } from "./id-remap";
import { progressOf, readCopy, type CopyProgress, type SiteCopyRow } from "./progress";
import { COPY_CONTROL_TABLES, copyTables } from "./tables";
import { rebuildServedView } from "../lifecycle/served-view";

type Env = DatabaseBindings & { MEDIA: R2Bucket; OPS_COPY_STEP_ROWS?: string; PUBLIC_CACHE_MAX_AGE?: string };
type Row = Record<string, unknown>;

/** Rows (R2 objects counted as rows) one request copies by default: well inside a Worker request's subrequest budget. */
export const COPY_STEP_ROWS = 400;
const PAGE_ROWS = 50;

function stepRows(env: Env): number {
  const n = Number(env.OPS_COPY_STEP_ROWS);
  return Number.isInteger(n) && n > 0 ? n : COPY_STEP_ROWS;
}

/**
 * One bounded share of a copy (docs/site-copy.md, "Bounded work"): table by table in copy order,
 * pages read by primary key after the stored cursor, each page inserted with `INSERT OR IGNORE`
 * (derived ids make a page copied twice land once) and its R2 objects copied before its rows, then
 * the cursor stored. Stops after `OPS_COPY_STEP_ROWS` rows; the last share resumes a site the copy
 * made and marks the copy done. Run by the target's object, so shares of one copy never overlap.
 */
export async function runCopyStep(env: Env, clock: Clock, purger: CachePurger, key: string): Promise<CopyProgress | null> {
  const control = controlDatabase(env);
  let row = await readCopy(control, key);
  if (!row) return null;
  if (row.state === "done") return progressOf(row);
  const tables = copyTables({ createdTarget: row.created_target === 1, content: row.content === 1, media: row.media === 1 });
  const source = await siteDatabase(env, row.template_id);
  const target = await siteDatabase(env, row.target_id);
  const matched = await matchedModels(source, target, row);
  const remap = new IdRemap(row.id, { from: row.template_id, to: row.target_id }, matched);
  let budget = stepRows(env);
  const copied = JSON.parse(row.copied) as Record<string, number>;
  let { step, objects, bytes } = row;
  let cursor = row.cursor === null ? null : (JSON.parse(row.cursor) as unknown[]);

  while (step < tables.length && budget > 0) {
    const table = tables[step] ?? "";
    const from = COPY_CONTROL_TABLES.has(table) ? control : source;
    const to = COPY_CONTROL_TABLES.has(table) ? control : target;
    const key = await primaryKey(from, table);
    const after = cursor === null ? "" : ` AND (${key.join(", ")}) > (${key.map(() => "?").join(", ")})`;
    const page = (
      await from
        .prepare(`SELECT * FROM ${table} WHERE site_id = ?${after} ORDER BY ${key.join(", ")} LIMIT ?`)
        .bind(row.template_id, ...(cursor ?? []), Math.min(PAGE_ROWS, budget))
        .all<Row>()
    ).results;
    if (page.length === 0) {
      step += 1;
      cursor = null;
      continue;
    }
    const rows = table === "models" ? page.filter((r) => !matched.has(String(r.id))) : page;
    const statements: D1PreparedStatement[] = [];
    for (const original of rows) {
      const copy = await remap.row(original);
      if (table === "media_objects") {
        const stored = await copyObject(env.MEDIA, String(original.object_key), String(copy.object_key));
        if (stored !== null) {
          objects += 1;
          bytes += stored;
        }
      }
      if (table === "search_documents") {
        // Its id is the FTS indexes' rowid, unique per database: the target assigns it, so a page
        // copied again first removes what the previous attempt inserted.
        delete copy.id;
        statements.push(to.prepare("DELETE FROM search_documents WHERE site_id = ? AND instance_id = ? AND lang = ?").bind(copy.site_id, copy.instance_id, copy.lang));
      }
      const columns = Object.keys(copy);
      statements.push(to.prepare(`INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).bind(...columns.map((c) => copy[c] ?? null)));
    }
    if (statements.length > 0) await to.batch(statements);
    copied[table] = (copied[table] ?? 0) + rows.length;
    budget -= page.length;
    const last = page[page.length - 1] ?? {};
    cursor = key.map((c) => last[c] ?? null);
    await saveProgress(control, clock, row.key, { step, cursor, copied, objects, bytes });
  }
  await saveProgress(control, clock, row.key, { step, cursor, copied, objects, bytes });
  if (step >= tables.length) {
    const at = isoAt(clock.now());
    const finish = [control.prepare("UPDATE site_copies SET state = 'done', updated_at = ? WHERE key = ?").bind(at, row.key)];
    if (row.created_target === 1) finish.push(control.prepare("UPDATE sites SET suspended_at = NULL, updated_at = ? WHERE id = ?").bind(at, row.target_id));
    // The copied published rows are served through the target's own chains: its view is rebuilt
    // from them (served_items is never copied: its rows name the template's ids).
    if (row.content === 1) await rebuildServedView(control, target, row.target_id);
    await control.batch(finish);
    // An existing target served before the copy: its cached public answers are stale now.
    if (row.created_target === 0) await purgeAfterCommit(env, purger, [cacheTag.site(row.target_id)]);
  }
  row = (await readCopy(control, row.key)) as SiteCopyRow;
  return progressOf(row);
}

async function saveProgress(control: D1Database, clock: Clock, key: string, p: { step: number; cursor: unknown[] | null; copied: Record<string, number>; objects: number; bytes: number }): Promise<void> {
  await control
    .prepare("UPDATE site_copies SET step = ?, cursor = ?, copied = ?, objects = ?, bytes = ?, updated_at = ? WHERE key = ? AND state = 'running'")
    .bind(p.step, p.cursor === null ? null : JSON.stringify(p.cursor), JSON.stringify(p.copied), p.objects, p.bytes, isoAt(clock.now()), key)
    .run();
}

/** Copies one R2 object under its new key (streamed); null when the template's object is gone. */
async function copyObject(bucket: R2Bucket, from: string, to: string): Promise<number | null> {
  const object = await bucket.get(from);
  if (object === null) return null;
  await bucket.put(to, object.body, { httpMetadata: object.httpMetadata, customMetadata: object.customMetadata });
  return object.size;
}

/** Template models landing on the target's model of the same slug (`into`): the plan checked they are alike. */
async function matchedModels(source: D1Database, target: D1Database, row: SiteCopyRow): Promise<Map<string, string>> {
  if (row.created_target === 1) return new Map();
  const theirs = (await source.prepare("SELECT id, slug FROM models WHERE site_id = ?").bind(row.template_id).all<{ id: string; slug: string }>()).results;
  const ours = new Map((await target.prepare("SELECT id, slug FROM models WHERE site_id = ?").bind(row.target_id).all<{ id: string; slug: string }>()).results.map((m) => [m.slug, m.id]));
  const matched = new Map<string, string>();
  for (const model of theirs) {
    const same = ours.get(model.slug);
    // A target model created by this very copy (same derived id) is not a match: it is the copy.
    if (same !== undefined && !(await isCopyOf(row, model.id, same))) matched.set(model.id, same);
  }
  return matched;
}

async function isCopyOf(row: SiteCopyRow, templateModelId: string, targetModelId: string): Promise<boolean> {
  const remap = new IdRemap(row.id, { from: row.template_id, to: row.target_id });
  await remap.learn([templateModelId]);
  return remap.text(templateModelId) === targetModelId;
}
