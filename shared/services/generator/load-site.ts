/**
 * What generation reads from the site's database (docs/generated-backend.md): its models, every
 * published language of every item not in Trash with its published version's values and its public
 * snapshot's media, every entry a link may name, and the live backend read tokens. Site-scoped reads only.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/database";
import { assertScope, type SiteScope } from "../../db/site-scope";
import { modelRepository } from "../../repositories/model-repository";
import type { Site } from "../../repositories/site-repository";
import { listSiteHosts } from "../../repositories/site-host-repository";
import type { GenerationInput } from "./generate";
import type { PrivateMedia } from "./private-files";
import type { IssuedReadToken } from "./project";
import type { GeneratorModel, LinkTarget, PublishedItem, PublishedLanguage } from "./types";

type MediaOf = PublishedLanguage["media"];

function snapshotMedia(body: string | null): MediaOf {
  if (body === null) return {};
  const parsed = JSON.parse(body) as { media?: MediaOf };
  return parsed.media ?? {};
}

const originOf = (host: string | undefined): string => (host === undefined ? "" : `${/(^|\.)localhost$|\.test$/.test(host) ? "http" : "https"}://${host}`);

/** Everything `generateFiles` needs, read in site scope. */
export async function loadGenerationInput(db: Kysely<Database>, scope: SiteScope, site: Site, tokens: readonly IssuedReadToken[]): Promise<GenerationInput> {
  const siteId = assertScope(scope);
  const [models, hosts, languages, entries] = await Promise.all([
    modelRepository(db, scope).list(),
    listSiteHosts(db, scope),
    db
      .selectFrom("entries as e")
      .innerJoin("versions as v", "v.id", "e.published_version_id")
      .leftJoin("published_items as p", (join) => join.onRef("p.instance_id", "=", "e.instance_id").on("p.site_id", "=", siteId))
      .select(["e.instance_id", "e.translation_group_id", "e.model_id", "e.lang", "e.slug", "e.published_at", "e.first_published_at", "v.fields", "p.body"])
      .where("e.site_id", "=", siteId)
      .where("e.published_version_id", "is not", null)
      .where("e.trashed_at", "is", null)
      .orderBy("e.translation_group_id")
      .orderBy("e.lang")
      .execute(),
    db
      .selectFrom("entries")
      .select(["instance_id", "translation_group_id", "model_id", "published_version_id", "trashed_at"])
      .where("site_id", "=", siteId)
      .execute(),
  ]);
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
  const items: PublishedItem[] = [...groups].map(([group_id, group]) => ({ group_id, model_id: group.model_id, first_published_at: group.first, languages: group.languages }));
  const targets = new Map<string, LinkTarget>(
    entries.map((e) => [e.instance_id, { group_id: e.translation_group_id, model_id: e.model_id, published: e.published_version_id !== null && e.trashed_at === null }]),
  );
  const generatorModels: GeneratorModel[] = models.map((m) => ({
    id: m.id,
    slug: m.slug,
    name: m.name,
    kind: m.kind,
    is_public: m.is_public,
    i18n: m.i18n,
    fields: m.fields,
    unique_combinations: m.unique_combinations.map((c) => ({ name: c.name, fields: c.fields })),
  }));
  return {
    site: { id: site.id, slug: site.slug, name: site.name, default_lang: site.default_lang, languages: site.languages, media_origin: originOf(hosts[0]?.host) },
    models: generatorModels,
    items,
    targets,
    tokens,
  };
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
