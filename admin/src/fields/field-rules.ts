import type { FieldDefinition } from "./types";

/** A field's `validation` bounds as the definition states them (the service enforces them). */
export interface FieldRules {
  min_length?: number;
  max_length?: number;
  pattern?: string;
  min?: number;
  max?: number;
  step?: number;
  min_items?: number;
  max_items?: number;
  min_date?: string;
  max_date?: string;
}

export function validationOf(field: FieldDefinition): FieldRules {
  const v = field.validation;
  return typeof v === "object" && v !== null ? (v as FieldRules) : {};
}

/** The bounds of a field in words, for its hint ("At most 200 characters."). */
export function lengthHint(field: FieldDefinition): string | undefined {
  const r = validationOf(field);
  const parts: string[] = [];
  if (r.min_length !== undefined && r.max_length !== undefined) parts.push(`${r.min_length} to ${r.max_length} characters.`);
  else if (r.max_length !== undefined) parts.push(`At most ${r.max_length} characters.`);
  else if (r.min_length !== undefined) parts.push(`At least ${r.min_length} characters.`);
  if (r.min !== undefined && r.max !== undefined) parts.push(`From ${r.min} to ${r.max}.`);
  else if (r.min !== undefined) parts.push(`At least ${r.min}.`);
  else if (r.max !== undefined) parts.push(`At most ${r.max}.`);
  if (r.step !== undefined) parts.push(`In steps of ${r.step}.`);
  if (r.min_date !== undefined) parts.push(`Not before ${r.min_date}.`);
  if (r.max_date !== undefined) parts.push(`Not after ${r.max_date}.`);
  if (r.max_items !== undefined) parts.push(`At most ${r.max_items} items.`);
  if (r.min_items !== undefined) parts.push(`At least ${r.min_items} items.`);
  return parts.length ? parts.join(" ") : undefined;
}

/** The field's options (`select`), as the definition lists them. */
export function optionsOf(field: FieldDefinition): { value: string; label: string }[] {
  return Array.isArray(field.options) ? (field.options as { value: string; label: string }[]) : [];
}
