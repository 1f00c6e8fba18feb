import { DEFAULT_ALLOWED_FORMATS, MEDIA_KINDS, type MediaKind } from "../services/media/formats";

/**
 * Site settings as stored in sites.settings (JSON). Unknown keys are kept so newer settings survive
 * an older reader. Defaults live here, in one place.
 */
export interface SiteSettings {
  /** Languages tried, in order, when an item has no published content in the requested language. */
  locale_fallback: string[];
  /** When false a missing translation is a 404 instead of a fallback. */
  locale_fallback_enabled: boolean;
  search: { enabled: boolean; models: string[]; mode: "words" | "stems" | "parts"; weights: Record<string, number>; hidden_languages: string[] };
  embed_origins: string[];
  retention: { trash_days: number };
  review: { required: boolean };
  validation_mode: "default" | "strict";
  /**
   * Media (docs/media.md): `allowed`, the formats (file-type extension names of the bytes) the site
   * accepts by kind; `public_library`, whether public delivery serves every item's current file, not
   * only the objects published content pins ("Public delivery").
   */
  media: { allowed: Record<MediaKind, string[]>; public_library: boolean };
  /**
   * Browser access to the public API (docs/cors.md): the origins whose pages may read it, each
   * saying whether it may also send a site API token (`Authorization`). `"*"` is any origin,
   * never with tokens.
   */
  cors: { origins: CorsOrigin[] };
  /** Site Chrome defaults, SEO defaults, robots rules (docs/site-chrome.md): read with storedChrome/storedSeo/storedRobots. */
  chrome?: unknown;
  seo?: unknown;
  robots?: unknown;
  /** Comment settings (docs/comments.md): read with storedCommentSettings. */
  comments?: unknown;
  /** Access-proxy rules (docs/access-rules.md): read with storedAccessRules. */
  access_rules?: unknown;
}

/** One origin allowed to call the public API from a browser page. */
export interface CorsOrigin {
  origin: string;
  tokens: boolean;
}

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  locale_fallback: [],
  locale_fallback_enabled: true,
  search: { enabled: false, models: [], mode: "words", weights: {}, hidden_languages: [] },
  embed_origins: [],
  retention: { trash_days: 30 },
  review: { required: false },
  validation_mode: "default",
  media: { allowed: Object.fromEntries(MEDIA_KINDS.map((k) => [k, [...DEFAULT_ALLOWED_FORMATS[k]]])) as Record<MediaKind, string[]>, public_library: false },
  cors: { origins: [] },
};

/** A stored `media.allowed`: a kind it names replaces that kind's default list; others keep theirs. */
function mediaAllowed(raw: unknown): Record<MediaKind, string[]> {
  const stored = raw !== null && typeof raw === "object" && "allowed" in raw ? (raw as { allowed: unknown }).allowed : undefined;
  const out = { ...DEFAULT_SITE_SETTINGS.media.allowed };
  if (stored === null || typeof stored !== "object") return out;
  for (const kind of MEDIA_KINDS) {
    const list = (stored as Record<string, unknown>)[kind];
    if (Array.isArray(list)) out[kind] = list.filter((f): f is string => typeof f === "string");
  }
  return out;
}

/** A stored `cors`: its well-formed origins, in order (a malformed entry is dropped, never widened). */
function corsOrigins(raw: unknown): CorsOrigin[] {
  const list = raw !== null && typeof raw === "object" && "origins" in raw ? (raw as { origins: unknown }).origins : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== "object") return [];
    const { origin, tokens } = entry as { origin?: unknown; tokens?: unknown };
    return typeof origin === "string" ? [{ origin, tokens: tokens === true }] : [];
  });
}

export function parseSiteSettings(text: string): SiteSettings {
  let raw: Partial<SiteSettings> = {};
  try {
    raw = JSON.parse(text) as Partial<SiteSettings>;
  } catch {
    raw = {};
  }
  return {
    ...DEFAULT_SITE_SETTINGS,
    ...raw,
    search: { ...DEFAULT_SITE_SETTINGS.search, ...(raw.search ?? {}) },
    retention: { ...DEFAULT_SITE_SETTINGS.retention, ...(raw.retention ?? {}) },
    review: { ...DEFAULT_SITE_SETTINGS.review, ...(raw.review ?? {}) },
    media: { allowed: mediaAllowed(raw.media), public_library: raw.media?.public_library === true },
    cors: { origins: corsOrigins(raw.cors) },
  };
}

/** Languages to try for `lang`, in order: itself, then the site's fallback order, then the default. */
export function localeChain(site: { default_lang: string; settings: SiteSettings }, lang: string): string[] {
  if (!site.settings.locale_fallback_enabled) return [lang];
  const chain = [lang, ...site.settings.locale_fallback, site.default_lang];
  return [...new Set(chain)];
}
