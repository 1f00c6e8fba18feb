import type { FieldInput } from "./types";
import { TextInput } from "./text-input";
import { NumberInput } from "./number-input";
import { BooleanInput } from "./boolean-input";
import { DateInput } from "./date-input";
import { SelectInput } from "./select-input";
import { SlugInput } from "./slug-input";
import { LocationInput } from "./location-input";
import { MediaInput } from "./media-input";
import { RelationInput } from "./relation-input";
import { RichTextInput } from "./rich-text-input";

/**
 * The entry editor's input for each field type. Each input lives in its own file and registers
 * here with one line; a type without an input shows its value read-only (never lost on save).
 * `component` fields are drawn by the editor's form itself (they nest fields).
 */
export const FIELD_INPUTS: Partial<Record<string, FieldInput>> = {
  text: TextInput,
  long_text: TextInput,
  integer: NumberInput,
  decimal: NumberInput,
  boolean: BooleanInput,
  date: DateInput,
  datetime: DateInput,
  select: SelectInput,
  slug: SlugInput,
  location: LocationInput,
  rich_text: RichTextInput,
  relation: RelationInput,
  media: MediaInput,
};
