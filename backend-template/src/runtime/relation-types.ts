/**
 * The relation fields of a model as `src/schema.ts` describes them (docs/generated-backend.md,
 * "Relations"): where each field's links are stored and the rules its writes follow.
 */

export interface RelationTarget {
  /** The target model's API name. */
  model: string;
  /** The join table holding links to this model; absent when the link is the row's `<field>_id` column. */
  table?: string;
}

export interface RelationSchema {
  /** The field key (`categories`); the route segment of `/api/<owner>/relations/<field>`. */
  field: string;
  /** `<field>_id` on the owner row: a to-one link to one model. Absent for links kept in join tables. */
  column?: string;
  /** At most one reference (a to-one field, also when stored as a join list of at most one). */
  toOne: boolean;
  /** A parent link to the model's own rows that never loops. */
  hierarchy: boolean;
  /** A target has at most one owner through this field (one_to_one, one_to_many). */
  oneOwner: boolean;
  /** Each language keeps its own list (join rows carry `lang`). */
  localized: boolean;
  private: boolean;
  /** The least number of references a write may leave (1 for a required field, `min_items`). */
  minItems: number;
  maxItems?: number;
  targets: RelationTarget[];
}
