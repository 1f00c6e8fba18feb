/**
 * Refusals of what plugins offer in words (describeError's own table, admin/src/api/error-words.ts):
 * operation runs and media sources, on Settings › Plugins, in the entry editor and in the media
 * library alike. `plugin_refused` carries the plugin's own message, shown under these words.
 */
export const PLUGIN_WORDS: Readonly<Record<string, string>> = {
  input_invalid: "The operation's input is not valid.",
  operation_unavailable: "This operation is not offered any more (the plugin or its grant changed).",
  plugin_unavailable: "The plugin is disabled.",
  invocation_in_progress: "This operation is already running.",
  plugin_refused: "The plugin refused to run the operation.",
  plugin_unreachable: "The plugin could not be reached.",
  plugin_response_invalid: "The plugin answered something the service cannot show.",
  plugin_timeout: "The plugin did not answer within 5 seconds.",
};
