import { PLUGIN_WORDS } from "../plugins/words";

/** Refusals of the settings screens in words (describeError's own table, admin/src/api/error-words.ts). */
export const SETTINGS_WORDS: Readonly<Record<string, string>> = {
  settings_changed: "Someone changed the settings after you opened them. Reload to see their changes, then make yours again.",
  invalid_request: "Some values are not valid for this site.",
  unknown_model: "A chosen model does not exist any more.",
  plugin_already_installed: "This plugin is already installed on the site.",
  manifest_too_large: "This manifest is larger than 32 KB.",
  grant_not_requested: "The plugin did not ask for one of these capabilities, so it cannot be granted.",
  installation_state_conflict: "The plugin is not in a state that allows this (it may have been changed meanwhile).",
  installation_not_active: "The plugin of this delivery is not active.",
  ...PLUGIN_WORDS,
};

/** Which door a write came through (the audit log's `surface`). */
export const SURFACE_WORDS: Readonly<Record<string, string>> = {
  admin: "Admin (signed in)",
  credential: "Management credential",
  oauth_app: "OAuth app",
  plugin: "Plugin",
  system: "Operators / system",
};

/** When, in the reader's locale. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");
