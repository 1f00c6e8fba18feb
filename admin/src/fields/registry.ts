import type { FieldInput } from "./types";
import { MediaInput } from "./media-input";
import { RelationInput } from "./relation-input";
import { RichTextInput } from "./rich-text-input";

/**
 * The entry editor's input for each field type. Each input lives in its own file and registers
 * here with one line; a type without an input shows its value read-only (never lost on save).
 */
export const FIELD_INPUTS: Partial<Record<string, FieldInput>> = {
  rich_text: RichTextInput,
  relation: RelationInput,
  media: MediaInput,
};
