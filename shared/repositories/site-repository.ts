import type { Kysely } from "kysely";
import type { Database, SiteRow } from "../db/database";
import { parseSiteSettings, type SiteSettings } from "../content/site-settings";

/** A site as services use it: JSON columns parsed. */
export interface Site {
  id: string;
  slug: string;
  name: string;
  default_lang: string;
  languages: string[];
  settings: SiteSettings;
  settings_revision: number;
}

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    default_lang: row.default_lang,
    languages: JSON.parse(row.languages) as string[],
    settings: parseSiteSettings(row.settings),
    settings_revision: row.settings_revision,
  };
}

/** Host without port, lower-case: the key of site_hosts. */
export function normaliseHost(hostHeader: string | null): string | null {
  if (!hostHeader) return null;
  const host = hostHeader.trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return host.length > 0 ? host : null;
}

/** The site that owns a host. This is the only lookup that is not already site-scoped. */
export async function findSiteByHost(db: Kysely<Database>, host: string): Promise<Site | undefined> {
  const row = await db
    .selectFrom("site_hosts")
    .innerJoin("sites", "sites.id", "site_hosts.site_id")
    .selectAll("sites")
    .where("site_hosts.host", "=", host)
    .executeTakeFirst();
  return row ? toSite(row) : undefined;
}

export async function findSiteById(db: Kysely<Database>, siteId: string): Promise<Site | undefined> {
  const row = await db.selectFrom("sites").selectAll().where("id", "=", siteId).executeTakeFirst();
  return row ? toSite(row) : undefined;
}
