import * as v from "valibot";

/**
 * The plugin manifest: what a plugin declares about itself when it is installed on a site. Every
 * object is closed (unknown keys are refused). The raw JSON may be at most
 * {@link MAX_MANIFEST_BYTES} bytes; that limit is checked on the bytes before parsing. See
 * docs/plugins.md.
 */

/** Largest manifest accepted, in bytes of its JSON text (spec: plugin manifest size). */
export const MAX_MANIFEST_BYTES = 32768;

/**
 * Capabilities a plugin may request. The first four are the plugin protocol's own; the others are
 * the delegated capabilities a management credential can hand to a plugin (spec 2, rule 11).
 */
export const PLUGIN_CAPABILITIES = [
  "content:read",
  "workflow:read",
  "workflow:publish",
  "workflow:unpublish",
  "workflow:locale",
  "content:write",
  "content:create",
  "draft:write",
  "content:delete",
  "content:propose",
  "media:read",
  "media:write",
  "media:update",
  "media:source",
] as const;

export type PluginCapability = (typeof PLUGIN_CAPABILITIES)[number];

export const PluginCapabilitySchema = v.picklist(PLUGIN_CAPABILITIES);

/** How a content policy answers: it may only refuse (`validate`) or also change values (`transform`). */
export const CONTENT_POLICY_MODES = ["validate", "transform"] as const;

const ID_PATTERN = /^[a-z][a-z0-9-]{1,63}$/;
/** Ids of things inside a manifest (blocks, views, actions, operations, policies). */
const LOCAL_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
const SEMVER_PATTERN = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?$/;
/** A path under the plugin's endpoint: starts with `/`, no scheme, host, query or fragment. */
const PATH_PATTERN = /^\/(?!\/)[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,199}$/;
/** An event name such as `entry.published`: dotted lower-case words. */
const EVENT_PATTERN = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;
const label = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80));
const localId = v.pipe(v.string(), v.regex(LOCAL_ID_PATTERN, "expected a lower-case id (letters, digits, - and _), at most 64 characters"));
const path = v.pipe(v.string(), v.regex(PATH_PATTERN, "expected a path starting with / under the plugin's endpoint"));

/** A JSON object (not null, not an array): field schemas and input schemas are kept as given. */
const jsonObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
  "expected a JSON object",
);

/**
 * The endpoint's form: an absolute http(s) URL without credentials or fragment. Which hosts may be
 * called is the outbound address policy's decision (docs/outbound-addresses.md), applied by the
 * install service with the deployment's policy, and again before every call or launch.
 */
function isEndpointShaped(input: string): boolean {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "" || url.hash !== "") return false;
  return url.protocol === "https:" || url.protocol === "http:";
}

/** Whether no value repeats. */
function distinct(values: readonly string[]): boolean {
  return new Set(values).size === values.length;
}

const RichTextBlock = v.strictObject({
  name: localId,
  label,
  version: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)),
  fields: jsonObject,
});

const ManageView = v.strictObject({ id: localId, label, path });

const ContentAction = v.strictObject({
  id: localId,
  label,
  path,
  model_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))), v.maxLength(50))),
});

/** The kinds of result block an operation may answer (spec 2, "Plugin items"). */
export const RESULT_BLOCK_KINDS = ["text", "rows", "links", "json"] as const;
export type ResultBlockKind = (typeof RESULT_BLOCK_KINDS)[number];

const Operation = v.strictObject({
  id: localId,
  label,
  scope: v.picklist(["site", "entry"]),
  destructive: v.boolean(),
  /**
   * An automation operation is run by scripts and credentials, never offered to an agent as an MCP
   * tool (spec 2, "Command line and MCP"). Decision: a manifest key, default false.
   */
  automation: v.optional(v.boolean(), false),
  input_schema: jsonObject,
  /** The result block kinds the operation answers with (default: all); another kind is plugin_response_invalid. */
  result: v.optional(
    v.pipe(v.array(v.picklist(RESULT_BLOCK_KINDS)), v.minLength(1), v.maxLength(RESULT_BLOCK_KINDS.length), v.check((items) => distinct(items), "result kinds must be unique")),
    [...RESULT_BLOCK_KINDS],
  ),
  capabilities: v.pipe(v.array(PluginCapabilitySchema), v.maxLength(PLUGIN_CAPABILITIES.length), v.check((items) => distinct(items), "capabilities must be unique")),
});

/**
 * A content policy (docs/plugin-policies.md). `advisory` (decision, default false): when the plugin
 * cannot be asked, an advisory policy lets the write proceed (reported in `policy_results`), an
 * enforcing one refuses it (503 plugin_policy_unavailable).
 */
const ContentPolicy = v.strictObject({ id: localId, label, mode: v.picklist(CONTENT_POLICY_MODES), advisory: v.optional(v.boolean(), false) });

/** How a media source's item may come into the library (docs/media.md, "Media sources"). */
export const MEDIA_SOURCE_MODES = ["copy", "reference"] as const;
export type MediaSourceMode = (typeof MEDIA_SOURCE_MODES)[number];

/**
 * A media source (spec 2 "Plugin items"; docs/media.md, "Media sources"): a library of files the
 * plugin offers to the site's media library, by copy (the bytes come into the site's storage)
 * and/or by reference. Offered only while the plugin holds `media:source`.
 */
const MediaSource = v.strictObject({
  id: localId,
  label,
  modes: v.pipe(v.array(v.picklist(MEDIA_SOURCE_MODES)), v.minLength(1), v.maxLength(2), v.check((items) => distinct(items), "modes must be unique")),
});

export const PluginManifestSchema = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.regex(ID_PATTERN, "expected a plugin id matching ^[a-z][a-z0-9-]{1,63}$")),
    name: label,
    version: v.pipe(v.string(), v.regex(SEMVER_PATTERN, "expected a version such as 1.2.3")),
    endpoint: v.pipe(
      v.string(),
      v.maxLength(500),
      v.check(isEndpointShaped, "expected an absolute https URL without credentials or fragment"),
    ),
    capabilities: v.pipe(v.array(PluginCapabilitySchema), v.maxLength(PLUGIN_CAPABILITIES.length), v.check((items) => distinct(items), "capabilities must be unique")),
    rich_text_blocks: v.optional(v.pipe(v.array(RichTextBlock), v.maxLength(50), v.check((items) => distinct(items.map((x) => x.name)), "block names must be unique")), []),
    manage_views: v.optional(v.pipe(v.array(ManageView), v.maxLength(50), v.check((items) => distinct(items.map((x) => x.id)), "view ids must be unique")), []),
    content_actions: v.optional(v.pipe(v.array(ContentAction), v.maxLength(50), v.check((items) => distinct(items.map((x) => x.id)), "action ids must be unique")), []),
    operations: v.optional(v.pipe(v.array(Operation), v.maxLength(50), v.check((items) => distinct(items.map((x) => x.id)), "operation ids must be unique")), []),
    content_policies: v.optional(v.pipe(v.array(ContentPolicy), v.maxLength(20), v.check((items) => distinct(items.map((x) => x.id)), "policy ids must be unique")), []),
    media_sources: v.optional(v.pipe(v.array(MediaSource), v.maxLength(20), v.check((items) => distinct(items.map((x) => x.id)), "media source ids must be unique")), []),
    events: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.maxLength(100), v.regex(EVENT_PATTERN, "expected an event name such as entry.published"))), v.maxLength(50), v.check((items) => distinct(items), "events must be unique")),
      [],
    ),
  }),
  v.check(
    (m) => m.operations.every((op) => op.capabilities.every((c) => m.capabilities.includes(c))),
    "an operation may only use capabilities the manifest requests",
  ),
  v.check((m) => m.media_sources.length === 0 || m.capabilities.includes("media:source"), "media sources need the media:source capability"),
);

export type PluginManifest = v.InferOutput<typeof PluginManifestSchema>;
