import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/database";
import type { SiteScope } from "../../db/site-scope";
import { findMemberNames } from "../../repositories/member-name-repository";

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
  const persons = [...new Set(versions.flatMap((v, i) => (v?.created_by && kinds[i] === "person" ? [v.created_by] : [])))];
  const credentials = vias("credential");
  const connections = vias("oauth_app");
  const plugins = vias("plugin");
  const imports = vias("import").map((via) => via.slice("import:".length));
  const names = new Map<string, string>();
  const [people, creds, apps, installs, jobs] = await Promise.all([
    persons.length ? findMemberNames(db, scope, persons) : [],
    credentials.length ? db.selectFrom("management_credentials").select(["id", "name"]).where("site_id", "=", siteId).where("id", "in", credentials).execute() : [],
    connections.length
      ? db.selectFrom("oauth_connections").leftJoin("oauth_clients", "oauth_clients.id", "oauth_connections.client_id").select(["oauth_connections.id as id", "oauth_clients.client_name as name", "oauth_connections.client_id as client_id"]).where("oauth_connections.site_id", "=", siteId).where("oauth_connections.id", "in", connections).execute()
      : [],
    plugins.length ? db.selectFrom("plugin_installations").select(["id", "plugin_id", "manifest"]).where("site_id", "=", siteId).where("id", "in", plugins).execute() : [],
    // The import tables are written with plain SQL (shared/services/imports/), not in the typed schema.
    imports.length
      ? sql<{ id: string; name: string }>`SELECT j.id AS id, s.name AS name FROM import_jobs j JOIN import_sources s ON s.id = j.source_id WHERE j.site_id = ${siteId} AND j.id IN (${sql.join(imports)})`.execute(db).then((r) => r.rows)
      : [],
  ]);
  for (const p of people) names.set(p.id, p.name);
  for (const c of creds) names.set(c.id, c.name);
  for (const a of apps) names.set(a.id, a.name ?? a.client_id);
  for (const i of installs) names.set(i.id, pluginName(i.manifest) ?? i.plugin_id);
  for (const j of jobs) names.set(`import:${j.id}`, `Import: ${j.name}`);
  return versions.map((v, i) => {
    const kind = kinds[i];
    if (!v || !kind) return null;
    if (kind === "person") return { kind, person_id: v.created_by, name: names.get(v.created_by ?? "") ?? null };
    if (kind === "system") return { kind, person_id: null, name: null };
    return { kind, person_id: kind === "import" ? null : v.created_by, name: names.get(v.created_via ?? "") ?? null };
  });
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
