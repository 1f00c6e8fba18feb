import * as v from "valibot";

/** Named combinations per model (spec 3, Limits: "Unique combinations: 8 per model, 2 to 4 fields each"). */
export const UNIQUE_COMBINATIONS_MAX = 8;
export const UNIQUE_COMBINATION_MIN_FIELDS = 2;
export const UNIQUE_COMBINATION_MAX_FIELDS = 4;

/**
 * A named unique combination (docs/content-rules-reverse-single-unique.md): the values of 2 to 4
 * `text`, `slug`, `integer` or `decimal` fields (by key) taken together must be unique among the
 * model's entries (`model`) or among its entries of one language (`language`). An entry leaving any
 * member empty claims nothing. Shape only here: counts, members and types are checked at model apply
 * (422 invalid_unique_combination).
 */
export const UniqueCombination = v.pipe(
  v.strictObject({
    name: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,39}$/, "A combination name is a lower-case letter then letters, digits or underscores (at most 40).")),
    fields: v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(16), v.description("Field keys, 2 to 4")),
    scope: v.picklist(["model", "language"], 'scope must be "model" or "language".'),
  }),
  v.title("UniqueCombination"),
);
export type UniqueCombination = v.InferOutput<typeof UniqueCombination>;

export const UniqueCombinations = v.pipe(v.array(UniqueCombination), v.maxLength(64), v.description(`At most ${UNIQUE_COMBINATIONS_MAX} named combinations (checked at model apply)`));
