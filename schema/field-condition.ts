/** The shape of a field's show condition (`FieldCondition`); checked in full at model apply. */

/** A term of a field's condition: `{ field, op, value? }` (shared/content/conditions.ts). */
export interface ConditionTerm {
  field: string;
  op: string;
  value?: string | number | boolean | string[];
}
interface ConditionGroup3 {
  all?: ConditionTerm[];
  any?: ConditionTerm[];
}
interface ConditionGroup2 {
  all?: (ConditionTerm | ConditionGroup3)[];
  any?: (ConditionTerm | ConditionGroup3)[];
}
interface ConditionGroup1 {
  all?: (ConditionTerm | ConditionGroup2)[];
  any?: (ConditionTerm | ConditionGroup2)[];
}
/**
 * When a field shows: one term, or a group of at most 4 terms or groups, nesting at most 3 levels.
 * The request schema takes any object here; a model apply checks it in full (422
 * invalid_field_condition) before it is stored, so a stored condition has this shape.
 */
export type FieldCondition = ConditionTerm | ConditionGroup1;
