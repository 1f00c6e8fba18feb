import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { MediaAnswer } from "./manage-media";
import { MEDIA_SOURCE_MODES } from "./plugin-manifest";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** A media source an active plugin offers (docs/media.md, "Media sources"). */
export const MediaSource = v.pipe(
  v.strictObject({
    installation_id: v.string(),
    plugin_id: v.string(),
    plugin_name: v.string(),
    source_id: v.string(),
    label: v.string(),
    modes: v.pipe(v.array(v.picklist(MEDIA_SOURCE_MODES)), v.description("How its items may come into the library: copy (the bytes are stored by the site), reference (linked), or both")),
  }),
  v.title("MediaSource"),
);

/** One item of a media source, as its plugin describes it. */
export const MediaSourceItem = v.pipe(
  v.strictObject({
    id: v.string(),
    title: v.string(),
    file_name: v.string(),
    kind: v.picklist(["image", "document", "audio", "video", "file"]),
    size: v.pipe(v.number(), v.description("Bytes, as the plugin says")),
    thumbnail_url: v.nullable(v.string()),
    attribution: v.nullable(v.string()),
  }),
  v.title("MediaSourceItem"),
);

export const MediaSourceItemsQuery = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.maxLength(200), v.description("Search words, passed to the plugin"))),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("next_cursor of the previous page"))),
});

export const ImportMediaSourceItemBody = v.strictObject({
  item_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  mode: v.pipe(v.picklist(MEDIA_SOURCE_MODES), v.description("copy: the file's bytes are fetched and stored in the library like an upload; reference: one of the source's modes")),
});

const params = v.strictObject({ installationId: Id, sourceId: Id });
const pluginErrors = ["not_found", "plugin_unavailable", "plugin_unreachable", "plugin_response_invalid", "plugin_timeout"] as const;

/** Media sources of plugins (spec 2: GET /media/sources, items, import). */
export const mediaSourceRoutes: readonly RouteSpec[] = [
  {
    operationId: "listMediaSources",
    method: "get",
    path: "/media/sources",
    summary: "Media sources offered by the site's active plugins holding media:source",
    scope: "content:read",
    response: v.strictObject({ data: v.array(MediaSource) }),
    errors: ["unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"],
  },
  {
    operationId: "listMediaSourceItems",
    method: "get",
    path: "/media/sources/{installationId}/{sourceId}/items",
    summary: "One page (at most 24) of a media source's items, asked of its plugin (5 s)",
    scope: "content:read",
    params,
    query: MediaSourceItemsQuery,
    response: v.strictObject({ data: v.array(MediaSourceItem), next_cursor: v.nullable(v.string()) }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited", ...pluginErrors],
  },
  {
    operationId: "importMediaSourceItem",
    method: "post",
    path: "/media/sources/{installationId}/{sourceId}/import",
    summary: "Import a media source item into the library: copy stores its bytes after the upload's checks (200 reused when the bytes are held); reference links the file at the plugin's address (checked, never stored, cannot be replaced)",
    scope: "media:write",
    idempotent: true,
    params,
    body: ImportMediaSourceItemBody,
    status: 201,
    otherStatuses: [{ status: 200, description: "Reused: the site already holds these bytes ({ media, reused: true }); nothing stored" }],
    response: MediaAnswer,
    errors: [
      "invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "idempotency_in_progress", "idempotency_key_reused", "rate_limited",
      "executable_file", "unsupported_media_type", "payload_too_large",
      ...pluginErrors,
    ],
  },
];
