import * as v from "valibot";

/**
 * A model's settings (docs/management-api.md, "Model settings"): editor-facing metadata that never
 * changes what the public API serves. Writes name only the keys they change; `null` clears one.
 */

/** `https://…` (or `http://localhost…` for local sites) with optional `{slug}`, `{lang}`, `{id}` placeholders. */
const PREVIEW_URL = /^(https:\/\/[^\s/?#]+|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)(\/[^\s#]*)?$/;

/** A website path template: `/` then path characters, `{slug}` exactly once, `{lang}` at most once. */
const SITE_PATH = /^(?=(?:[^{]|\{lang\})*\{slug\}(?:[^{]|\{lang\})*$)(?!.*\{lang\}.*\{lang\})\/[A-Za-z0-9\-._~/{}]*$/;

export const ModelSettingsPatch = v.pipe(
  v.strictObject({
    preview_url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500), v.regex(PREVIEW_URL, "preview_url is an https URL template such as https://example.com/blog/{slug}")))),
    icon: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, "icon is a name of 1 to 40 lower-case letters, digits and hyphens")))),
    help_text: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000)))),
    site_path: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.maxLength(200),
          v.regex(SITE_PATH, "site_path is a path on the website such as /blog/{slug} or /{lang}/blog/{slug}: it starts with /, holds {slug} once and {lang} at most once"),
          v.description("Where the website serves an item of this model (redirects and the sitemap; docs/redirects.md): {slug} once, {lang} at most once."),
        ),
      ),
    ),
  }),
  v.title("ModelSettingsPatch"),
);
export type ModelSettingsPatch = v.InferOutput<typeof ModelSettingsPatch>;

export interface ModelSettings {
  /** Where editors open a preview of an entry: placeholders `{slug}`, `{lang}`, `{id}`. */
  preview_url: string | null;
  /** An icon name the admin shows beside the model. */
  icon: string | null;
  /** Guidance shown to editors above the entry form. */
  help_text: string | null;
  /** Where the website serves an item: `/blog/{slug}`, `/{lang}/blog/{slug}` (redirects' live addresses, the sitemap). */
  site_path: string | null;
}

export const ModelSettingsView = v.pipe(
  v.object({ preview_url: v.nullable(v.string()), icon: v.nullable(v.string()), help_text: v.nullable(v.string()), site_path: v.nullable(v.string()) }),
  v.title("ModelSettings"),
);

export const DEFAULT_MODEL_SETTINGS: Readonly<ModelSettings> = { preview_url: null, icon: null, help_text: null, site_path: null };

/** Named keys replace the current values; absent keys keep them. */
export function mergeModelSettings(current: ModelSettings, patch: ModelSettingsPatch | undefined): ModelSettings {
  if (!patch) return current;
  return {
    preview_url: patch.preview_url !== undefined ? patch.preview_url : current.preview_url,
    icon: patch.icon !== undefined ? patch.icon : current.icon,
    help_text: patch.help_text !== undefined ? patch.help_text : current.help_text,
    site_path: patch.site_path !== undefined ? patch.site_path : current.site_path,
  };
}
