import type { SiteSettings } from "../content/site-settings";
import type { FieldDefinition } from "../../schema/model-definition";
import type { Model } from "../repositories/model-repository";

/** Search modes: whole words (default), English word forms, word parts (docs/search.md). */
export const SEARCH_MODES = ["words", "stems", "parts"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** At most this many chosen models are searched; later ones in the setting are ignored. */
export const MAX_SEARCH_MODELS = 16;
/** Field weights run from 1 to 10; the title field weighs 10 and every other field 1 unless set. */
export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 10;
export const TITLE_WEIGHT = 10;
export const FIELD_WEIGHT = 1;

/** `site.settings.search`, with anything malformed (settings are stored JSON) replaced by its default. */
export interface SearchSettings {
  enabled: boolean;
  /** Model ids, in the order chosen, at most 16, no repeats. */
  models: string[];
  mode: SearchMode;
  /** `<field key>` (every model) or `<model id>.<field key>` (one model, wins) → integer 1..10. */
  weights: Record<string, number>;
  hidden_languages: string[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

export function searchSettings(settings: SiteSettings): SearchSettings {
  const raw: Partial<Record<keyof SearchSettings, unknown>> = settings.search;
  const mode = SEARCH_MODES.find((m) => m === raw.mode) ?? "words";
  const weights: Record<string, number> = {};
  if (raw.weights !== null && typeof raw.weights === "object" && !Array.isArray(raw.weights)) {
    for (const [key, value] of Object.entries(raw.weights)) {
      if (typeof value === "number" && Number.isInteger(value) && value >= MIN_WEIGHT && value <= MAX_WEIGHT) weights[key] = value;
    }
  }
  return {
    enabled: raw.enabled === true,
    models: [...new Set(strings(raw.models))].slice(0, MAX_SEARCH_MODELS),
    mode,
    weights,
    hidden_languages: strings(raw.hidden_languages),
  };
}

/** A field's weight: `<model id>.<key>`, then `<key>`, then 10 for the title field and 1 for others. */
export function fieldWeight(weights: Record<string, number>, model: Pick<Model, "id">, field: Pick<FieldDefinition, "key">, isTitle: boolean): number {
  return weights[`${model.id}.${field.key}`] ?? weights[field.key] ?? (isTitle ? TITLE_WEIGHT : FIELD_WEIGHT);
}
