import type { Generated } from "kysely";

/** Row types of a site's media tables (the site's database; docs/media.md): the library, its folders, every stored object, per-language originals, usage by version and what published items pin. JSON columns are text here; services parse them. */

export interface MediaTable {
  id: string;
  site_id: string;
  object_key: string;
  kind: "image" | "document" | "audio" | "video" | "file";
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt_texts: string;
  default_focal: string | null;
  loading: string;
  fetch_priority: string;
  folder_id: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  /** JSON array of strings (migrations/d1/0014_media_library.sql). */
  tags: Generated<string>;
  credit: Generated<string | null>;
  edited_from: Generated<string | null>;
  created_by: Generated<string | null>;
  /** JSON `{ x, y, width, height }` fractions of the picture, or NULL (migrations/d1/0059_account_sessions_resets_crop.sql). */
  crop: Generated<string | null>;
  /** A linked external item's file address (migrations/d1/0053_media_external.sql); null for a stored file. */
  external_url: Generated<string | null>;
}

/** A media folder (migrations/d1/0015_media_folders.sql; docs/media.md). */
export interface MediaFoldersTable {
  id: string;
  site_id: string;
  parent_id: string | null;
  name: string;
  /** lower(name): unique under a parent regardless of case. */
  name_key: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** Every R2 object a media item has had (migrations/d1/0016_media_objects.sql). */
export interface MediaObjectsTable {
  object_key: string;
  site_id: string;
  media_id: string;
  role: "file" | "original";
  lang: string | null;
  byte_length: number;
  mime_type: string;
  created_at: string;
  /** The name the object was stored under (its delivery address's last segment); '' when unknown (0030). */
  file_name: string;
}

/** One override original per media item and language (migrations/d1/0021_media_originals.sql). */
export interface MediaOriginalsTable {
  site_id: string;
  media_id: string;
  lang: string;
  object_key: string;
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
  created_by: string | null;
  created_at: string;
}

/**
 * Media a version references (docs/media.md, "Usage"): written in the batch of the version, one row
 * per version, field and media id; immutable like the version.
 */
export interface MediaUsageTable {
  site_id: string;
  version_id: string;
  instance_id: string;
  media_id: string;
  field_id: string;
  /** 'field' (a media field's value) | 'rich_text' (an `<img src="/media/{id}/…">` in a rich-text field) */
  source: string;
}

/** Media objects pinned by published items (migrations/d1/0017_published_media.sql). */
export interface PublishedMediaTable {
  site_id: string;
  instance_id: string;
  media_id: string;
  object_key: string;
  /** The file name the address names (0020). */
  file_name: string;
}
