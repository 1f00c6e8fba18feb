import type { FieldInput } from "./types";

/**
 * The entry editor's input for each field type. Each input lives in its own file and registers
 * here with one line; a type without an input shows its value read-only (never lost on save).
 */
export const FIELD_INPUTS: Partial<Record<string, FieldInput>> = {};
