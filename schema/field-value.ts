/** A field's value as stored and served, for every field type. */

/** A field's value as stored and served: what a valid value of any field type looks like. */
export type FieldValue = string | number | boolean | null | string[] | { lat: number; lon: number } | ComponentValue | ComponentValue[];
/** A component's value: its fields' values by nested key. */
export interface ComponentValue {
  [key: string]: FieldValue;
}
