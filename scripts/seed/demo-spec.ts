/** What the demo is: its login, its two sites, the bindings it needs and the result it answers. */
import type { SiteSettings } from "../../shared/content/site-settings";

/** The demo login. Documented in docs/local-run.md; never use it outside a local database. */
export const DEMO_ADMIN = { email: "admin@demo.localhost", password: "driftwood-demo", name: "Demo Admin" } as const;

export interface DemoSiteSpec {
  slug: string;
  name: string;
  host: string;
  default_lang: string;
  languages: readonly string[];
  settings: Partial<SiteSettings>;
}

export const DEMO_SITES: readonly DemoSiteSpec[] = [
  {
    slug: "demo",
    name: "Driftwood Demo",
    host: "demo.localhost",
    default_lang: "en",
    languages: ["en", "fr"],
    // fr falls back to en when an item has no published French content.
    settings: { locale_fallback: ["en"], locale_fallback_enabled: true },
  },
  { slug: "other", name: "Other Site", host: "other.localhost", default_lang: "en", languages: ["en"], settings: {} },
];

/** Bindings the seed needs: the D1 database, and optionally the media bucket for the image bytes. */
export interface SeedEnv {
  DB: D1Database;
  MEDIA?: R2Bucket;
}

export interface DemoSite {
  id: string;
  slug: string;
  host: string;
  default_lang: string;
  languages: string[];
}

export interface DemoCounts {
  published_articles: Record<string, number>;
  drafts: number;
  unpublished: number;
  trashed: number;
  authors: number;
  categories: Record<string, number>;
  notes: number;
  media: number;
  other_published_articles: number;
}

export interface DemoSeedResult {
  /** True when this call wrote the demo; false when it was already there. */
  created: boolean;
  sites: DemoSite[];
  admin: { email: string; password: string };
  /** The demo admin's person id (acts for the seed's credentials). */
  admin_id: string;
  counts: DemoCounts;
  /** Progress lines, for the caller to print where it likes (stdout stays for --json). */
  log: string[];
}

export class IncompleteSeedError extends Error {
  override name = "IncompleteSeedError";
}
