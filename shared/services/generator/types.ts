/**
 * What the backend generator reads and says (docs/generated-backend.md): the site's models and
 * published items as plain data, and the problems that refuse generation. Pure data, no I/O.
 */

/** A model as the generator reads it: the stored definition, not re-validated (checks do that). */
export interface GeneratorModel {
  id: string;
  slug: string;
  name: string;
  kind: "collection" | "single";
  is_public: boolean;
  i18n: boolean;
  /** The stored field definitions, possibly malformed (a definition from an older writer). */
  fields: readonly unknown[];
  unique_combinations: readonly { name: string; fields: readonly string[] }[];
}

/** One published language of an item: its published version's values, by field id. */
export interface PublishedLanguage {
  instance_id: string;
  lang: string;
  slug: string | null;
  published_at: string;
  /** The published version's values by field id (private fields included). */
  values: Readonly<Record<string, unknown>>;
  /** Media of the public snapshot by field key (url and the language's original), when served. */
  media: Readonly<Record<string, readonly { id: string; url: string; original?: { url: string; mime_type: string; byte_length: number; width: number | null; height: number | null } }[]>>;
}

/** A published item: its translation group and every published language. */
export interface PublishedItem {
  group_id: string;
  model_id: string;
  first_published_at: string;
  languages: readonly PublishedLanguage[];
}

/** Where a link points: the target entry instance's group, model and whether it is published. */
export interface LinkTarget {
  group_id: string;
  model_id: string;
  published: boolean;
}

/** The site facts generation needs. */
export interface GeneratorSite {
  id: string;
  slug: string;
  name: string;
  default_lang: string;
  languages: readonly string[];
  /** Origin public media URLs are made absolute with (`https://<first host>`). */
  media_origin: string;
}

/** Spec 3's generation refusals (docs/generated-backend.md, "Refusals"). */
export const MODEL_PROBLEM_CODES = [
  "relation_type_unsupported",
  "relation_bounds_unsatisfiable",
  "relation_required_cycle",
  "ambiguous_relation",
  "ambiguous_component",
  "unsupported_field_type",
  "invalid_field_config",
  "empty_model",
  "column_name_collision",
  "model_name_collision",
  "relation_target_absent",
  "invalid_reference",
  "unsupported_text_validation",
  "invalid_field_validation",
] as const;

export const CONTENT_PROBLEM_CODES = [
  "relation_arity_unsupported",
  "relation_target_model_mismatch",
  "duplicate_row_identity",
  "required_value_missing",
  "unsupported_value_type",
  "unpublished_reference",
  "relation_hierarchy_cycle",
  "invalid_reference",
] as const;

/** Refusals from the site's other settings (saved-query-checks.ts). */
export const SITE_PROBLEM_CODES = ["saved_query_private_field"] as const;

export type ProblemCode = (typeof MODEL_PROBLEM_CODES)[number] | (typeof CONTENT_PROBLEM_CODES)[number] | (typeof SITE_PROBLEM_CODES)[number];

/** One reason generation is refused: the model's slug, the field key (nested as `seo.title`), the item's group id, the saved query's name. */
export interface GenerationProblem {
  code: ProblemCode;
  model: string;
  field?: string;
  item?: string;
  query?: string;
  detail: string;
}
