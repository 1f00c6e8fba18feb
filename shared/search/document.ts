import type { FieldDefinition } from "../../schema/model-definition";
import { titleField } from "../content/validate-fields";
import type { Model } from "../repositories/model-repository";
import type { PublicItem } from "../services/lifecycle/snapshot";
import { fieldWeight, MAX_WEIGHT } from "./settings";
import { fieldText, SEARCHABLE_TYPES } from "./text";

/** At most this many fields of a model are indexed: its title field, then others in field order. */
export const MAX_SEARCH_FIELDS = 16;

export interface SearchableField {
  field: FieldDefinition;
  weight: number;
  title: boolean;
}

/** What one published instance puts in search_documents. */
export interface SearchDocument {
  title: string;
  /** Text per weight: index 0 holds weight-1 fields (column w1), index 9 weight-10 fields (w10). */
  columns: string[];
}

/**
 * The fields of a model that are indexed, with their weights. Private fields never are; only text,
 * long text, rich text and select fields are, the title field first, at most 16 in all.
 */
export function searchableFields(model: Model, weights: Record<string, number>): SearchableField[] {
  const title = titleField(model.fields);
  const usable = model.fields.filter((f) => !f.private && SEARCHABLE_TYPES.includes(f.type));
  const ordered = title && usable.includes(title) ? [title, ...usable.filter((f) => f !== title)] : usable;
  return ordered.slice(0, MAX_SEARCH_FIELDS).map((field) => {
    const isTitle = field === title;
    return { field, weight: fieldWeight(weights, model, field, isTitle), title: isTitle };
  });
}

/** The search document of a public item, from the item as served (private fields are already gone). */
export function buildSearchDocument(model: Model, item: PublicItem, weights: Record<string, number>): SearchDocument {
  const parts: string[][] = Array.from({ length: MAX_WEIGHT }, () => []);
  let title = "";
  for (const { field, weight, title: isTitle } of searchableFields(model, weights)) {
    const text = fieldText(field, item.fields[field.key]);
    if (text.length === 0) continue;
    if (isTitle) title = text;
    parts[weight - 1]?.push(text);
  }
  return { title, columns: parts.map((p) => p.join("\n")) };
}
