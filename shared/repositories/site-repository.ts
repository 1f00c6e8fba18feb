import type { Kysely } from "kysely";
import { AppError } from "../errors";
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
  /** When an operator suspended the site (docs/operations-api.md), or null: it serves as usual. */
  suspended_at: string | null;
  /** Public lists read the served view (`served_items`, migration 0051); false until it is built. */
  served_view: boolean;
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
    suspended_at: row.suspended_at ?? null,
    served_view: (row.served_view ?? 1) === 1,
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

/**
 * 403 `site_suspended` for a site an operator suspended (docs/operations-api.md): the answer of the
 * management API, the plugin protocol, MCP and the admin's writes. Nothing of the site is deleted.
 */
export function assertNotSuspended(site: Pick<Site, "suspended_at">): void {
  if (site.suspended_at !== null) throw new AppError("site_suspended", "This site is suspended by the operators; nothing can change on it until it is resumed.", { suspended_at: site.suspended_at });
}
