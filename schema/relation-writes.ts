/**
 * The shapes a relation field's value takes in an entry write (docs/content-rules-relations.md).
 * The lifecycle resolves them (shared/services/lifecycle/relation-writes.ts); these schemas only
 * document them in OpenAPI, the types and the tools: a field value stays free-form in `Fields`.
 */
import * as v from "valibot";

const EntryId = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("An entry (instance) id."));

export const RelationReference = v.pipe(
  v.union([EntryId, v.strictObject({ model: v.pipe(v.string(), v.description("The target's model slug.")), id: EntryId })]),
  v.title("RelationReference"),
  v.description("A linked item: a bare id on a field allowing one model, `{ model, id }` on any (required where several models are allowed)."),
);

export const RelationPosition = v.pipe(
  v.union([
    v.strictObject({ before: EntryId }),
    v.strictObject({ after: EntryId }),
    v.strictObject({ start: v.literal(true) }),
    v.strictObject({ end: v.literal(true) }),
  ]),
  v.title("RelationPosition"),
  v.description("Where a connected or moved item goes in an ordered (to-many) list; refused on to-one fields (relation_position_not_ordered)."),
);

const Placed = v.strictObject({ model: v.optional(v.string()), id: EntryId, position: v.optional(RelationPosition) });

export const RelationWrite = v.pipe(
  v.union([
    v.null(),
    RelationReference,
    v.array(RelationReference),
    v.strictObject({ set: v.union([v.null(), RelationReference, v.array(RelationReference)]), replace: v.optional(v.boolean()) }),
    v.strictObject({
      connect: v.optional(v.array(v.union([RelationReference, Placed]))),
      disconnect: v.optional(v.array(RelationReference)),
      move: v.optional(v.array(v.strictObject({ model: v.optional(v.string()), id: EntryId, position: RelationPosition }))),
      replace: v.optional(v.boolean()),
    }),
  ]),
  v.title("RelationWrite"),
  v.description(
    "A relation field's value in a write: null clears; a reference, a list or `{ set }` replaces; `{ connect, disconnect, move }` edits the current list (disconnect first, then connect, then move). `replace: true` moves a one_to_one/one_to_many target from the item holding it; `replace: false` asks first (related_from_replace_unconfirmed).",
  ),
);
