import { FIELD_TYPES, LENGTH_TYPES, MULTIPLE_TYPES, NUMBER_TYPES, DATE_TYPES, UNIQUE_TYPES, type FieldType } from "../../../schema/field-types";

/**
 * The model builder's working copy of a definition (docs/admin-ui-models.md). A field is kept as
 * the service stores it (every setting, known to the builder or not, survives a round trip) plus a
 * `uid` that names the row while its key is being typed; `toRequest` drops the `uid` and the
 * settings left empty, so what is sent is exactly the definition `GET /models/{id}` answers.
 */
export type DraftField = Record<string, unknown> & { uid: string; key: string; label: string; type: FieldType };

export interface DraftModel {
  name: string;
  slug: string;
  description: string;
  kind: "collection" | "single";
  is_public: boolean;
  enableI18n: boolean;
  folder: string;
  unique_combinations: { name: string; fields: string[]; scope: "model" | "language" }[];
  /** Settings the builder does not edit, written back as read. */
  settings?: Record<string, unknown>;
}

export { FIELD_TYPES, LENGTH_TYPES, MULTIPLE_TYPES, NUMBER_TYPES, DATE_TYPES, UNIQUE_TYPES };

/** Field types in words, for the type menu and the field list. */
export const TYPE_WORDS: Record<FieldType, string> = {
  text: "Text (one line)",
  long_text: "Long text",
  rich_text: "Rich text",
  integer: "Whole number",
  decimal: "Decimal number",
  boolean: "Yes / no",
  date: "Date",
  datetime: "Date and time",
  select: "Choice from a list",
  slug: "Slug (address segment)",
  media: "Media",
  relation: "Relation (links to entries)",
  location: "Location",
  component: "Component (a group of fields)",
};

let counter = 0;
/** A row name for a field that lives only in the builder. */
export const newUid = (): string => `f${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A key made from a label as it is typed: lower-case letters, digits and underscores. */
export function keyFromLabel(label: string): string {
  const key = label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^[0-9]+/, "");
  return key.slice(0, 64);
}

export function draftFields(fields: readonly Record<string, unknown>[]): DraftField[] {
  return fields.map((f) => {
    const nested = Array.isArray(f.fields) ? { fields: draftFields(f.fields as Record<string, unknown>[]) } : {};
    return { ...f, ...nested, uid: newUid() } as DraftField;
  });
}

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === "" || value === false || (Array.isArray(value) && value.length === 0) || (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);

/** A field as the service takes it: no `uid`, no empty settings (`false` flags are left out too). */
export function fieldForRequest(field: DraftField): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(field)) {
    if (name === "uid" || isEmpty(value)) continue;
    if (name === "fields" && Array.isArray(value)) out.fields = (value as DraftField[]).map(fieldForRequest);
    else if (name === "validation" && typeof value === "object" && value !== null) {
      const rules = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== ""));
      if (Object.keys(rules).length > 0) out.validation = rules;
    } else out[name] = value;
  }
  return out;
}

/** The model part of a definition as POST /models and PUT /models/{id}/definition take it. */
export function modelForRequest(model: DraftModel) {
  return {
    name: model.name.trim(),
    slug: model.slug.trim(),
    description: model.description.trim() ? model.description.trim() : null,
    kind: model.kind,
    is_public: model.is_public,
    enableI18n: model.enableI18n,
    unique_combinations: model.unique_combinations.filter((c) => c.name && c.fields.length > 0),
  };
}

/** Fields of a component may not nest a component here (the service allows it; the builder keeps one level). */
export const nestedTypes: readonly FieldType[] = FIELD_TYPES.filter((t) => t !== "component");
