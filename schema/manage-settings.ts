import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const ModelId = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Weight = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10));
const WeightKey = v.pipe(v.string(), v.minLength(1), v.maxLength(130), v.description("<field key> or <model id>.<field key>"));

const SearchBody = v.strictObject({
  enabled: v.optional(v.boolean()),
  models: v.optional(v.pipe(v.array(ModelId), v.maxLength(16))),
  mode: v.optional(v.picklist(["words", "stems", "parts"])),
  weights: v.optional(v.record(WeightKey, Weight)),
  hidden_languages: v.optional(v.array(Lang)),
});

const Formats = v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9]{1,16}$/))), v.maxLength(64));
const MediaSettingsBody = v.strictObject({
  public_library: v.optional(v.pipe(v.boolean(), v.description("Serve every item's current file publicly, not only files published content pins (docs/media.md, \"Public delivery\"); default false"))),
  allowed: v.optional(v.pipe(
    v.strictObject({ image: v.optional(Formats), document: v.optional(Formats), audio: v.optional(Formats), video: v.optional(Formats), file: v.optional(Formats) }),
    v.description("Formats (file-type extension names of the bytes, e.g. jpg, png, pdf) by kind; a named kind replaces its list, others keep theirs"),
  )),
});

export const UpdateSettingsBody = v.strictObject({
  languages: v.optional(v.pipe(
    v.array(Lang),
    v.minLength(1),
    v.maxLength(50),
    v.description("Every language of the site (docs/admin-ui-settings.md): the default language must stay; a language that still has entries cannot be removed; a removed language leaves locale_fallback and search.hidden_languages"),
  )),
  locale_fallback: v.optional(v.pipe(v.array(Lang), v.maxLength(50))),
  locale_fallback_enabled: v.optional(v.boolean()),
  search: v.optional(SearchBody),
  embed_origins: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(20))),
  // Spec 3, Limits: Trash retention 30 days; a site may only shorten it (docs/trash-retention.md).
  retention: v.optional(v.strictObject({ trash_days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(30, "Trash is kept at most 30 days (spec 3); trash_days can only shorten it."), v.description("Days Trash is kept before the alarm deletes it for good: 1 to 30 (default 30).")) })),
  review: v.optional(v.strictObject({ required: v.boolean() })),
  validation_mode: v.optional(v.picklist(["default", "strict"])),
  media: v.optional(MediaSettingsBody),
  expected_revision: v.optional(Revision),
});

export const Settings = v.pipe(
  v.object({
    settings: v.object({
      languages: v.pipe(v.array(v.string()), v.description("The site's languages, the default first")),
      default_language: v.string(),
      locale_fallback: v.array(v.string()),
      locale_fallback_enabled: v.boolean(),
      search: v.object({ enabled: v.boolean(), models: v.array(v.string()), mode: v.string(), weights: v.record(v.string(), v.number()), hidden_languages: v.array(v.string()) }),
      embed_origins: v.array(v.string()),
      retention: v.object({ trash_days: v.number() }),
      review: v.object({ required: v.boolean() }),
      validation_mode: v.picklist(["default", "strict"]),
      media: v.object({
        allowed: v.pipe(v.record(v.string(), v.array(v.string())), v.description("Formats (by the bytes) the site accepts, by media kind (docs/media.md)")),
        public_library: v.pipe(v.boolean(), v.description("Whether every item's current file is served publicly (docs/media.md, \"Public delivery\")")),
      }),
    }),
    revision: v.number(),
    search_reindexed: v.optional(v.boolean()),
    replayed: v.optional(v.boolean()),
  }),
  v.title("Settings"),
);

/** Site settings operations of the management API (docs/management-api.md, "Settings"). */
export const settingsRoutes: readonly RouteSpec[] = [
  { operationId: "getSettings", method: "get", path: "/settings", summary: "The site's settings and their revision", scope: "content:read", response: Settings, errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  { operationId: "updateSettings", destructive: true, method: "put", path: "/settings", summary: "Change named site settings (search also needs the creator's site:infra)", scope: "settings:write", idempotent: true, body: UpdateSettingsBody, response: Settings, errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission", "settings_changed"] },
];
