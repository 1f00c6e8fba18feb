import * as v from "valibot";

/**
 * A model's settings (docs/management-api.md, "Model settings"): editor-facing metadata that never
 * changes what the public API serves. Writes name only the keys they change; `null` clears one.
 */

/** `https://…` (or `http://localhost…` for local sites) with optional `{slug}`, `{lang}`, `{id}` placeholders. */
const PREVIEW_URL = /^(https:\/\/[^\s/?#]+|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)(\/[^\s#]*)?$/;

export const ModelSettingsPatch = v.pipe(
  v.strictObject({
    preview_url: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500), v.regex(PREVIEW_URL, "preview_url is an https URL template such as https://example.com/blog/{slug}")))),
    icon: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, "icon is a name of 1 to 40 lower-case letters, digits and hyphens")))),
    help_text: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000)))),
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
}

export const ModelSettingsView = v.pipe(
  v.object({ preview_url: v.nullable(v.string()), icon: v.nullable(v.string()), help_text: v.nullable(v.string()) }),
  v.title("ModelSettings"),
);

export const DEFAULT_MODEL_SETTINGS: Readonly<ModelSettings> = { preview_url: null, icon: null, help_text: null };

/** Named keys replace the current values; absent keys keep them. */
export function mergeModelSettings(current: ModelSettings, patch: ModelSettingsPatch | undefined): ModelSettings {
  if (!patch) return current;
  return {
    preview_url: patch.preview_url !== undefined ? patch.preview_url : current.preview_url,
    icon: patch.icon !== undefined ? patch.icon : current.icon,
    help_text: patch.help_text !== undefined ? patch.help_text : current.help_text,
  };
}
