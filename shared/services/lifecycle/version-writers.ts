import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/database";
import type { SiteScope } from "../../db/site-scope";
import { allMemberNames, findMemberNames } from "../../repositories/member-name-repository";

/**
 * Who wrote a version, in words (issue #30 item 10, docs/admin-ui-lists.md): the entry list's
 * "Updated by". A version records its person (`created_by`) and the door it came through
 * (`created_via`, migrations/d1/0062): a management credential, an OAuth app's connection, a
 * plugin installation or an import. The name is the credential's, the app's, the plugin's or the
 * import source's, else the person's — and only ever looked up among this site's rows: a person
 * is named only while a member of this site (findMemberNames), so a version copied from another
 * site never names that site's people.
 */
export type WriterKind = "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";

export interface VersionWriter {
  kind: WriterKind;
  /** The person the write was made by or for (a credential's creator, a plugin's delegating person); null for an import or the service. */
  person_id: string | null;
  /** A display name, or null when the thing no longer exists or the person is not a member of this site. */
  name: string | null;
}

interface WrittenBy {
  created_by: string | null;
  created_via: string | null;
}

/** What a version's `created_via` says about the door (null: a person in the admin, or the service). */
export function writerKind(version: WrittenBy): WriterKind {
  const via = version.created_via;
  if (via?.startsWith("mcr_")) return "credential";
  if (via?.startsWith("con_")) return "oauth_app";
  if (via?.startsWith("pin_")) return "plugin";
  if (via?.startsWith("import:")) return "import";
  return version.created_by?.startsWith("per_") ? "person" : "system";
}

/** The writers of these versions (undefined: no version), names read in at most five queries. */
export async function versionWriters(db: Kysely<Database>, scope: SiteScope, siteId: string, versions: readonly (WrittenBy | undefined)[]): Promise<(VersionWriter | null)[]> {
  const kinds = versions.map((v) => (v ? writerKind(v) : undefined));
  const vias = (kind: WriterKind) => [...new Set(versions.flatMap((v, i) => (v && kinds[i] === kind && v.created_via ? [v.created_via] : [])))];
  const names = await writerNames(db, scope, siteId, {
    persons: [...new Set(versions.flatMap((v, i) => (v?.created_by && kinds[i] === "person" ? [v.created_by] : [])))],
    credentials: vias("credential"),
    connections: vias("oauth_app"),
    plugins: vias("plugin"),
    imports: vias("import").map((via) => via.slice("import:".length)),
  });
  return versions.map((v, i) => {
    const kind = kinds[i];
    if (!v || !kind) return null;
    if (kind === "person") return { kind, person_id: v.created_by, name: names.get(v.created_by ?? "") ?? null };
    if (kind === "system") return { kind, person_id: null, name: null };
    return { kind, person_id: kind === "import" ? null : v.created_by, name: names.get(v.created_via ?? "") ?? null };
  });
}

/**
 * The key of a version's writer in {@link writerNames}, as SQL over a `versions` row aliased `v`:
 * the door (`created_via`) when it is one, else the person — the same choice as {@link writerKind}
 * (the entry list's `updated_by` sort, workers/manage/entry-sort.ts).
 */
export const WRITER_KEY_SQL = `CASE WHEN substr(v.created_via, 1, 4) IN ('mcr_', 'con_', 'pin_') OR substr(v.created_via, 1, 7) = 'import:' THEN v.created_via WHEN substr(v.created_by, 1, 4) = 'per_' THEN v.created_by END`;

/** Which writers to name; "all": every writer this site has (the `updated_by` sort needs them all). */
type Wanted = { persons: string[]; credentials: string[]; connections: string[]; plugins: string[]; imports: string[] } | "all";

/**
 * Writers' display names by the key a version names them with (person id, credential, connection
 * or installation id, `import:<job id>`), only among this site's rows: at most five queries, none
 * for a kind nobody asked for.
 */
export async function writerNames(db: Kysely<Database>, scope: SiteScope, siteId: string, wanted: Wanted): Promise<Map<string, string>> {
  const asked = (list: (w: Exclude<Wanted, "all">) => string[]): string[] | "all" | null => (wanted === "all" ? "all" : list(wanted).length ? list(wanted) : null);
  const persons = asked((w) => w.persons);
  const credentials = asked((w) => w.credentials);
  const connections = asked((w) => w.connections);
  const plugins = asked((w) => w.plugins);
  const imports = asked((w) => w.imports);
  const names = new Map<string, string>();
  const [people, creds, apps, installs, jobs] = await Promise.all([
    persons === null ? [] : persons === "all" ? allMemberNames(db, scope) : findMemberNames(db, scope, persons),
    credentials === null ? [] : db.selectFrom("management_credentials").select(["id", "name"]).where("site_id", "=", siteId).$if(credentials !== "all", (q) => q.where("id", "in", credentials as string[])).execute(),
    connections === null
      ? []
      : db
          .selectFrom("oauth_connections")
          .leftJoin("oauth_clients", "oauth_clients.id", "oauth_connections.client_id")
          .select(["oauth_connections.id as id", "oauth_clients.client_name as name", "oauth_connections.client_id as client_id"])
          .where("oauth_connections.site_id", "=", siteId)
          .$if(connections !== "all", (q) => q.where("oauth_connections.id", "in", connections as string[]))
          .execute(),
    plugins === null ? [] : db.selectFrom("plugin_installations").select(["id", "plugin_id", "manifest"]).where("site_id", "=", siteId).$if(plugins !== "all", (q) => q.where("id", "in", plugins as string[])).execute(),
    // The import tables are written with plain SQL (shared/services/imports/), not in the typed schema.
    imports === null
      ? []
      : sql<{ id: string; name: string }>`SELECT j.id AS id, s.name AS name FROM import_jobs j JOIN import_sources s ON s.id = j.source_id WHERE j.site_id = ${siteId}${imports === "all" ? sql`` : sql` AND j.id IN (${sql.join(imports)})`}`.execute(db).then((r) => r.rows),
  ]);
  for (const p of people) names.set(p.id, p.name);
  for (const c of creds) names.set(c.id, c.name);
  for (const a of apps) names.set(a.id, a.name ?? a.client_id);
  for (const i of installs) names.set(i.id, pluginName(i.manifest) ?? i.plugin_id);
  for (const j of jobs) names.set(`import:${j.id}`, `Import: ${j.name}`);
  return names;
}

/** A stored manifest's display name (validated at install; a damaged row falls back to the plugin id). */
function pluginName(manifest: string): string | undefined {
  try {
    const name = (JSON.parse(manifest) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
