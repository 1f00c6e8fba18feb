/** The demo read back from D1: whether a seed finished, the site ids and the counts. */
import { DEMO_ADMIN, DEMO_SITES, IncompleteSeedError, type DemoCounts, type DemoSeedResult, type DemoSite } from "./demo-spec";

/** A seed that stopped part way leaves `demo` without its trashed article; say so instead of pretending. */
export async function requireComplete(d1: D1Database, demoSiteId: string): Promise<void> {
  const row = await d1.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND trashed_at IS NOT NULL").bind(demoSiteId).first<{ n: number }>();
  if ((row?.n ?? 0) === 0) {
    throw new IncompleteSeedError(
      "Site demo exists but its seed did not finish (an earlier run stopped part way). Delete the local database (rm -rf .wrangler/state/v3/d1) and run `npm run seed` again.",
    );
  }
}

/** The demo as D1 holds it: site ids (read back, so every run answers the same ones) and counts. */
export async function readDemo(d1: D1Database): Promise<Omit<DemoSeedResult, "created" | "log">> {
  const sites: DemoSite[] = [];
  for (const spec of DEMO_SITES) {
    const row = await d1
      .prepare("SELECT s.id, s.slug, s.default_lang, s.languages, (SELECT min(host) FROM site_hosts h WHERE h.site_id = s.id) AS host FROM sites s WHERE s.slug = ?")
      .bind(spec.slug)
      .first<{ id: string; slug: string; default_lang: string; languages: string; host: string | null }>();
    if (!row) throw new IncompleteSeedError(`Site ${spec.slug} is missing from the local database.`);
    sites.push({ id: row.id, slug: row.slug, host: row.host ?? spec.host, default_lang: row.default_lang, languages: JSON.parse(row.languages) as string[] });
  }
  const [demo, other] = sites;
  if (!demo || !other) throw new Error("unreachable");
  const admin = await d1.prepare("SELECT id FROM persons WHERE email = ?").bind(DEMO_ADMIN.email).first<{ id: string }>();
  if (!admin) throw new IncompleteSeedError("The demo admin is missing from the local database.");
  return { sites, admin: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }, admin_id: admin.id, counts: await countDemo(d1, demo.id, other.id) };
}

async function countDemo(d1: D1Database, demoId: string, otherId: string): Promise<DemoCounts> {
  const number = async (sql: string, ...params: unknown[]) => (await d1.prepare(sql).bind(...params).first<{ n: number }>())?.n ?? 0;
  const perLang = async (siteId: string, model: string) => {
    const { results } = await d1
      .prepare("SELECT p.lang, count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ? GROUP BY p.lang ORDER BY p.lang")
      .bind(siteId, model)
      .all<{ lang: string; n: number }>();
    return Object.fromEntries(results.map((r) => [r.lang, r.n]));
  };
  const entriesOf = "FROM entries e JOIN models m ON m.id = e.model_id WHERE e.site_id = ? AND m.slug = ?";
  return {
    published_articles: await perLang(demoId, "article"),
    drafts: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NULL AND e.first_published_at IS NULL`, demoId, "article"),
    unpublished: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NULL AND e.workflow_state = 'unpublished'`, demoId, "article"),
    trashed: await number(`SELECT count(*) AS n ${entriesOf} AND e.trashed_at IS NOT NULL`, demoId, "article"),
    authors: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, demoId, "author"),
    categories: await perLang(demoId, "category"),
    notes: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, demoId, "note"),
    media: await number("SELECT count(*) AS n FROM media WHERE site_id = ?", demoId),
    other_published_articles: await number(`SELECT count(*) AS n FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?`, otherId, "article"),
  };
}
