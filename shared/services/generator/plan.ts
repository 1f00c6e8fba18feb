/**
 * The table plan of a site (docs/generated-backend.md, "Tables: how every field type maps"): from
 * models whose fields parsed, every table, column, unique set and relation the emitted project
 * holds. The SQL, the data rows, `src/schema.ts` and `openapi.json` are all written from it.
 */
import { isToMany, relationKind, type FieldDefinition } from "../../../schema/model-definition";
import type { ColumnSchema, ColumnType } from "../../../backend-template/src/runtime/schema-types";
import { apiName, joinTable, pascalName, translationTable } from "./names";
import type { GeneratorModel } from "./types";

export type { ColumnType };

/** Which part of a field a column holds (media and location fields make several columns). */
export type ColumnPart = "value" | "id" | "url" | "originals" | "lat" | "lon";

/** A column as the emitted `src/schema.ts` describes it (`ColumnSchema`), and the field it comes from. */
export interface ColumnPlan extends Omit<ColumnSchema, "system"> {
  /** The field it comes from; absent for system columns. */
  field?: { id: string; key: string; part: ColumnPart };
}

export interface JoinPlan {
  table: string;
  /** The owning model's table and the target model's table. */
  owner: string;
  target: string;
  field: { id: string; key: string };
  /** one_to_one / one_to_many: a target has at most one owner through this field (UNIQUE target_id). */
  oneOwner: boolean;
  /** localized_membership: each language its own list (join rows carry `lang`). */
  localized: boolean;
  /** A mixed field (several targets) shares one `position` order over all its tables. */
  mixed: boolean;
  /** The field is to-one (a mixed to-one field is stored as a list of at most one). */
  toOne: boolean;
  private: boolean;
}

export interface TablePlan {
  name: string;
  columns: ColumnPlan[];
  /** Column sets that must be unique (single columns are in `ColumnPlan.unique`). */
  uniques: string[][];
}

export interface ModelPlan {
  model: GeneratorModel;
  fields: FieldDefinition[];
  api: string;
  pascal: string;
  table: TablePlan;
  translation: TablePlan | undefined;
  joins: JoinPlan[];
}

/** A private field, or a component holding one at any depth: its column is private whole. */
export function isPrivateField(field: FieldDefinition): boolean {
  return field.private === true || (field.fields ?? []).some((nested) => isPrivateField(nested as FieldDefinition));
}

const textColumn = (name: string, field: FieldDefinition, part: ColumnPart, extra: Partial<ColumnPlan> = {}): ColumnPlan => ({
  name,
  type: "text",
  nullable: true,
  unique: false,
  private: isPrivateField(field),
  field: { id: field.id, key: field.key, part },
  ...extra,
});

/** The columns a field makes on its model's row (none for lists kept in join tables). */
export function fieldColumns(field: FieldDefinition, tableOf: (modelId: string) => string | undefined): ColumnPlan[] {
  const required = field.required === true && field.condition === undefined;
  const base = (type: ColumnType, extra: Partial<ColumnPlan> = {}): ColumnPlan =>
    textColumn(field.key, field, "value", { type, nullable: !required, unique: field.unique === "model", ...extra });
  switch (field.type) {
    case "text":
    case "long_text":
    case "rich_text":
    case "slug":
      return [base("text")];
    case "integer":
      return [base("integer")];
    case "decimal":
      return [base("real")];
    case "boolean":
      return [base("boolean")];
    case "date":
      return [base("text", { format: "date" })];
    case "datetime":
      return [base("text", { format: "datetime" })];
    case "select":
      return [field.multiple === true ? base("json", { unique: false }) : base("text", { options: (field.options ?? []).map((o) => o.value) })];
    case "component":
      return [base("json", { unique: false })];
    case "location":
      return [textColumn(`${field.key}_lat`, field, "lat", { type: "real" }), textColumn(`${field.key}_lon`, field, "lon", { type: "real" })];
    case "media": {
      const many = field.multiple === true;
      return [
        textColumn(`${field.key}_id`, field, "id", { type: many ? "json" : "text", nullable: !required }),
        textColumn(`${field.key}_url`, field, "url", { type: many ? "json" : "text" }),
        textColumn(`${field.key}_originals`, field, "originals", { type: "json" }),
      ];
    }
    case "relation": {
      const kind = relationKind(field);
      const targets = field.targets ?? [];
      if (isToMany(kind) || targets.length !== 1) return [];
      const target = tableOf(targets[0] ?? "");
      return [textColumn(`${field.key}_id`, field, "id", { nullable: !required, unique: kind === "one_to_one", ...(target !== undefined ? { references: target } : {}) })];
    }
  }
}

/** The join tables of a relation field kept as a list (to-many, or to-one over several models). */
export function fieldJoins(model: string, field: FieldDefinition, tableOf: (modelId: string) => string | undefined): JoinPlan[] {
  if (field.type !== "relation") return [];
  const kind = relationKind(field);
  const targets = field.targets ?? [];
  const toOne = !isToMany(kind);
  if (toOne && targets.length === 1) return [];
  const mixed = targets.length > 1;
  return targets.flatMap((targetId) => {
    const target = tableOf(targetId);
    if (target === undefined) return [];
    return [{
      table: joinTable(model, field.key, mixed ? target : undefined),
      owner: model,
      target,
      field: { id: field.id, key: field.key },
      oneOwner: kind === "one_to_one" || kind === "one_to_many",
      localized: field.localized_membership === true,
      mixed,
      toOne,
      private: field.private === true,
    }];
  });
}

const system = (name: string, type: ColumnType, nullable: boolean, unique = false): ColumnPlan => ({ name, type, nullable, unique, private: false });

/** Whether a field's values differ per language (kept in the translation table). */
export function isTranslated(field: FieldDefinition): boolean {
  return field.type !== "relation" || (field.localized_membership === true && field.hierarchy !== true);
}

/** The plan of every model (models whose fields parsed), sorted by API name. */
export function planModels(models: readonly { model: GeneratorModel; fields: FieldDefinition[] }[]): ModelPlan[] {
  const tables = new Map(models.map(({ model }) => [model.id, apiName(model.name)] as const));
  const tableOf = (id: string) => tables.get(id);
  return models
    .map(({ model, fields }) => {
      const api = apiName(model.name);
      const hasSlugField = fields.some((field) => field.key === "slug");
      const fieldCols = fields.flatMap((field) => fieldColumns(field, tableOf));
      const columns: ColumnPlan[] = [
        system("id", "text", false, true),
        ...(hasSlugField ? [] : [system("slug", "text", true, true)]),
        ...fieldCols,
        system("published_at", "text", true),
        system("created_at", "text", false),
        system("updated_at", "text", false),
      ];
      const uniques = model.unique_combinations.map((combo) =>
        combo.fields.map((key) => fields.find((field) => field.key === key)?.key ?? key),
      );
      const translation: TablePlan | undefined = model.i18n
        ? {
            name: translationTable(api),
            columns: [
              system("id", "text", false, true),
              { name: `${api}_id`, type: "text", nullable: false, unique: false, private: false, references: api },
              system("lang", "text", false),
              ...(hasSlugField ? [] : [system("slug", "text", true)]),
              ...fields.filter((field) => isTranslated(field) && field.type !== "relation").flatMap((field) => fieldColumns(field, tableOf)).map((column) => ({ ...column, unique: false, nullable: true })),
              system("published_at", "text", true),
              system("created_at", "text", false),
              system("updated_at", "text", false),
            ],
            uniques: [[`${api}_id`, "lang"]],
          }
        : undefined;
      return {
        model,
        fields,
        api,
        pascal: pascalName(model.name),
        table: { name: api, columns, uniques },
        translation,
        joins: fields.flatMap((field) => fieldJoins(api, field, tableOf)),
      };
    })
    .sort((a, b) => (a.api < b.api ? -1 : a.api > b.api ? 1 : 0));
}
