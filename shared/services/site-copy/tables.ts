/**
 * What a site copy copies, in order (docs/site-copy.md): parents before children, so a row never
 * lands before what it references. `roles` only when the copy makes a new site (an existing target
 * keeps its roles); the media library with `media` or `content`; entries and everything derived
 * from them with `content`. Not copied: proposals, webhooks, credentials, members, records (audit,
 * events, idempotency answers) — they belong to the template's people and integrations.
 */
export const COPY_MEDIA_TABLES = ["media_folders", "media", "media_objects", "media_originals"] as const;
export const COPY_CONTENT_TABLES = [
  "entries",
  "versions",
  "relation_links",
  "relation_heads",
  "unique_values",
  "media_usage",
  "published_items",
  "published_relations",
  "published_media",
  "search_documents",
] as const;

export interface CopyScope {
  createdTarget: boolean;
  content: boolean;
  media: boolean;
}

/** The tables of one copy, in copy order. */
export function copyTables(scope: CopyScope): string[] {
  return [...(scope.createdTarget ? ["roles"] : []), "models", ...(scope.media || scope.content ? COPY_MEDIA_TABLES : []), ...(scope.content ? COPY_CONTENT_TABLES : [])];
}

/** Tables of the directory (control database) among those a copy writes. */
export const COPY_CONTROL_TABLES = new Set(["roles"]);
