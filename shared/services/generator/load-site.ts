/**
 * What generation reads from the site's database (docs/generated-backend.md): its models, every
 * published language of every item not in Trash with its published version's values and its public
 * snapshot's media, every entry a link may name, the saved queries and the live backend read tokens.
 * Site-scoped reads only.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/database";
import { assertScope, type SiteScope } from "../../db/site-scope";
import { modelRepository } from "../../repositories/model-repository";
import type { Site } from "../../repositories/site-repository";
import { listSiteHosts } from "../../repositories/site-host-repository";
import { parseDefinition } from "../saved-queries/definition";
import type { GenerationInput } from "./generate";
import type { PrivateMedia } from "./private-files";
import type { IssuedReadToken } from "./project";
import type { GeneratorSavedQuery } from "./saved-query-checks";
import type { GeneratorModel, GeneratorSite, LinkTarget, PublishedItem, PublishedLanguage } from "./types";

type MediaOf = PublishedLanguage["media"];

function snapshotMedia(body: string | null): MediaOf {
  if (body === null) return {};
  const parsed = JSON.parse(body) as { media?: MediaOf };
  return parsed.media ?? {};
}

const originOf = (host: string | undefined): string => (host === undefined ? "" : `${/(^|\.)localhost$|\.test$/.test(host) ? "http" : "https"}://${host}`);

/** Which published items a read covers: all, one content page (a group-id range), or all as identities only. */
export interface PublishedRead {
  /** Groups after this id … */
  after?: string | undefined;
  /** … up to and including this one (a readiness page). */
  through?: string | undefined;
  /**
   * Read only these field ids' values (the identity index of whole-model checks: model-unique
   * fields and hierarchy links), taken out of the stored JSON by SQLite, never the whole values.
   */
  fieldIds?: readonly string[];
}

/** Published languages of items not in Trash, grouped by translation group (ordered by group, then language). */
export async function loadPublishedItems(db: Kysely<Database>, scope: SiteScope, read: PublishedRead = {}): Promise<PublishedItem[]> {
  const siteId = assertScope(scope);
  const identity = read.fieldIds !== undefined;
  let query = db
    .selectFrom("entries as e")
    .innerJoin("versions as v", "v.id", "e.published_version_id")
    .leftJoin("published_items as p", (join) => join.onRef("p.instance_id", "=", "e.instance_id").on("p.site_id", "=", siteId))
    .select(["e.instance_id", "e.translation_group_id", "e.model_id", "e.lang", "e.slug", "e.published_at", "e.first_published_at"])
    // The identity index reads each field's JSON (`->`, a bound path) instead of the whole values and snapshot.
    .select([
      (identity ? sql<string>`json_object(${sql.join((read.fieldIds ?? []).flatMap((id) => [sql`${id}`, sql`json(${sql.ref("v.fields")} -> ${`$."${id}"`})`]))})` : sql<string>`${sql.ref("v.fields")}`).as("fields"),
      (identity ? sql<string | null>`null` : sql<string | null>`${sql.ref("p.body")}`).as("body"),
    ])
    .where("e.site_id", "=", siteId)
    .where("e.published_version_id", "is not", null)
    .where("e.trashed_at", "is", null);
  if (read.after !== undefined) query = query.where("e.translation_group_id", ">", read.after);
  if (read.through !== undefined) query = query.where("e.translation_group_id", "<=", read.through);
  const languages = await query.orderBy("e.translation_group_id").orderBy("e.lang").execute();
  const groups = new Map<string, { model_id: string; first: string; languages: PublishedLanguage[] }>();
  for (const row of languages) {
    const group = groups.get(row.translation_group_id) ?? { model_id: row.model_id, first: row.first_published_at ?? row.published_at ?? "", languages: [] };
    const first = row.first_published_at ?? row.published_at ?? "";
    if (first !== "" && (group.first === "" || first < group.first)) group.first = first;
    group.languages.push({
      instance_id: row.instance_id,
      lang: row.lang,
      slug: row.slug,
      published_at: row.published_at ?? first,
      values: JSON.parse(row.fields) as Record<string, unknown>,
      media: snapshotMedia(row.body),
    });
    groups.set(row.translation_group_id, group);
  }
  return [...groups].map(([group_id, group]) => ({ group_id, model_id: group.model_id, first_published_at: group.first, languages: group.languages }));
}

/** The translation groups of one readiness page: at most `limit` published groups after `after`, in order. */
export async function publishedGroups(db: Kysely<Database>, scope: SiteScope, after: string | undefined, limit: number): Promise<string[]> {
  const siteId = assertScope(scope);
  let query = db
    .selectFrom("entries")
    .select("translation_group_id")
    .distinct()
    .where("site_id", "=", siteId)
    .where("published_version_id", "is not", null)
    .where("trashed_at", "is", null);
  if (after !== undefined) query = query.where("translation_group_id", ">", after);
  return (await query.orderBy("translation_group_id").limit(limit).execute()).map((row) => row.translation_group_id);
}

/** The site's models as the generator reads them. */
export async function loadGeneratorModels(db: Kysely<Database>, scope: SiteScope): Promise<GeneratorModel[]> {
  return (await modelRepository(db, scope).list()).map((m) => ({
    id: m.id,
    slug: m.slug,
    name: m.name,
    kind: m.kind,
    is_public: m.is_public,
    i18n: m.i18n,
    fields: m.fields,
    unique_combinations: m.unique_combinations.map((c) => ({ name: c.name, fields: c.fields })),
  }));
}

/** Every entry instance a published value may link to: its group, model and whether it is published. */
export async function loadLinkTargets(db: Kysely<Database>, scope: SiteScope): Promise<Map<string, LinkTarget>> {
  const siteId = assertScope(scope);
  const entries = await db.selectFrom("entries").select(["instance_id", "translation_group_id", "model_id", "published_version_id", "trashed_at"]).where("site_id", "=", siteId).execute();
  return new Map<string, LinkTarget>(entries.map((e) => [e.instance_id, { group_id: e.translation_group_id, model_id: e.model_id, published: e.published_version_id !== null && e.trashed_at === null }]));
}

/** The site as the generator names it (the media origin from its first host). */
export async function loadGeneratorSite(db: Kysely<Database>, scope: SiteScope, site: Site): Promise<GeneratorSite> {
  const hosts = await listSiteHosts(db, scope);
  return { id: site.id, slug: site.slug, name: site.name, default_lang: site.default_lang, languages: site.languages, media_origin: originOf(hosts[0]?.host) };
}

/** The site's saved queries (docs/saved-queries.md), by name: what `saved_query_private_field` checks. */
export async function loadSavedQueries(db: Kysely<Database>, scope: SiteScope): Promise<GeneratorSavedQuery[]> {
  const siteId = assertScope(scope);
  const rows = await db.selectFrom("saved_queries").select(["name", "model_id", "definition"]).where("site_id", "=", siteId).orderBy("name").execute();
  return rows.map((row) => ({ name: row.name, model_id: row.model_id, definition: parseDefinition(row.definition) }));
}

/** Everything `generateFiles` needs, read in site scope. */
export async function loadGenerationInput(db: Kysely<Database>, scope: SiteScope, site: Site, tokens: readonly IssuedReadToken[]): Promise<GenerationInput> {
  const [models, generatorSite, items, targets, savedQueries] = await Promise.all([
    loadGeneratorModels(db, scope),
    loadGeneratorSite(db, scope, site),
    loadPublishedItems(db, scope),
    loadLinkTargets(db, scope),
    loadSavedQueries(db, scope),
  ]);
  return { site: generatorSite, models, items, targets, tokens, savedQueries };
}

/** The stored facts of the media ids (this site's only), by id: what private files are copied from. */
export async function loadPrivateMedia(db: Kysely<Database>, scope: SiteScope, ids: readonly string[]): Promise<Map<string, PrivateMedia>> {
  const siteId = assertScope(scope);
  const out = new Map<string, PrivateMedia>();
  // D1 binds at most 100 parameters a statement.
  for (let start = 0; start < ids.length; start += 90) {
    const rows = await db.selectFrom("media").select(["id", "object_key", "mime_type", "file_name"]).where("site_id", "=", siteId).where("id", "in", ids.slice(start, start + 90)).execute();
    for (const row of rows) out.set(row.id, { object_key: row.object_key, mime_type: row.mime_type, file_name: row.file_name });
  }
  return out;
}
