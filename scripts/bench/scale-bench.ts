/**
 * Worker side of the many-sites figures (docs/benchmarks.md, "Many sites"): copies the seeded bench
 * site into more sites with SQL, so 100 sites of 1,000 published items exist without publishing
 * 99,000 items through the lifecycle (~1 hour). A copy holds exactly what the public read path
 * reads — the site, its host, its models and its published rows (items and filter index) — under
 * new ids, the same bodies and slugs, and a host `s<k>.<source host>`. Nothing else reads them.
 */
import { configCacheStats } from "../../shared/public/config-cache";

interface CopyPlan {
  table: string;
  /** Column → SQL expression over the source row and `k.n` (the copy's number); other columns are copied as they are. */
  set: Record<string, string>;
  /** Selects the source site's rows; `?1` is the source site id. */
  where: string;
}

const NEW_SITE = "?1 || '_s' || k.n";
const NEW_MODEL = "model_id || '_s' || k.n";

const PLAN: CopyPlan[] = [
  { table: "sites", where: "id = ?1", set: { id: NEW_SITE, slug: "slug || '-s' || k.n" } },
  { table: "site_hosts", where: "site_id = ?1", set: { site_id: NEW_SITE, host: "'s' || k.n || '.' || host" } },
  { table: "models", where: "site_id = ?1", set: { id: "id || '_s' || k.n", site_id: NEW_SITE } },
  { table: "published_items", where: "site_id = ?1", set: { site_id: NEW_SITE, model_id: NEW_MODEL } },
  { table: "published_relations", where: "site_id = ?1", set: { site_id: NEW_SITE, model_id: NEW_MODEL } },
];

async function columns(d1: D1Database, table: string): Promise<string[]> {
  const info = await d1.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
  return info.results.map((c) => c.name);
}

/** Copies the site on `host` as copies number `from`..`to` (inclusive); returns the copies' hosts. */
export async function cloneSites(d1: D1Database, host: string, from: number, to: number): Promise<{ hosts: string[]; published_rows: number }> {
  const source = await d1.prepare("SELECT site_id FROM site_hosts WHERE host = ?").bind(host).first<{ site_id: string }>();
  if (!source) throw new Error(`no site on ${host}`);
  const statements: D1PreparedStatement[] = [];
  for (const step of PLAN) {
    const cols = await columns(d1, step.table);
    const select = cols.map((c) => step.set[c] ?? c).join(", ");
    statements.push(
      d1
        .prepare(
          `WITH RECURSIVE k(n) AS (SELECT CAST(?2 AS INTEGER) UNION ALL SELECT n + 1 FROM k WHERE n < CAST(?3 AS INTEGER))
           INSERT INTO ${step.table} (${cols.join(", ")}) SELECT ${select} FROM ${step.table}, k WHERE ${step.where}`,
        )
        .bind(source.site_id, from, to),
    );
  }
  await d1.batch(statements);
  const rows = await d1.prepare("SELECT count(*) AS n FROM published_items WHERE site_id LIKE ?1 || '_s%'").bind(source.site_id).first<{ n: number }>();
  // The copies' hosts as stored, so a mismatch between the SQL and this side cannot go unnoticed.
  const stored = await d1.prepare("SELECT host FROM site_hosts WHERE host LIKE 's%.' || ?1").bind(host).all<{ host: string }>();
  const hosts: string[] = [];
  const have = new Set(stored.results.map((r) => r.host));
  for (let k = from; k <= to; k++) {
    if (!have.has(`s${k}.${host}`)) throw new Error(`copy ${k} has no host s${k}.${host}`);
    hosts.push(`s${k}.${host}`);
  }
  return { hosts, published_rows: rows?.n ?? 0 };
}

/** The isolate's per-site configuration caches: entries and approximate bytes (docs/scale.md). */
export function cacheStats() {
  return configCacheStats();
}
