/** The shape of `src/schema.ts`, which the generator writes for each site. */
import type { RelationSchema } from "./relation-types.js";

export type ColumnType = "text" | "integer" | "real" | "boolean" | "json";

export interface ColumnSchema {
  name: string;
  type: ColumnType;
  nullable: boolean;
  unique: boolean;
  private: boolean;
  format?: "date" | "datetime";
  references?: string;
  options?: string[];
  /** Set by the runtime, never by a write body: created_at, updated_at. */
  system?: boolean;
}

export interface ModelSchema {
  /** Table and route segment (`article`). */
  api: string;
  /** Operation id prefix (`Article`). */
  pascal: string;
  columns: ColumnSchema[];
  /** Relation fields (runtime/relation-types.ts); absent or empty when the model links nothing. */
  relations?: RelationSchema[];
  /** Column sets unique together (single unique columns are marked on the column). */
  uniques: string[][];
  /** Location fields (columns `<field>_lat`, `<field>_lon`): the point queries' fields. */
  points?: string[];
  /** Media and rich text fields: the file route's fields (their private files carry `private-file:` markers). */
  files?: { field: string; kind: "media" | "rich_text" }[];
  /** The translation table of an i18n model (`<model>translation`: `<model>_id`, `lang`, translated columns). */
  translation?: ModelSchema;
}

export interface SiteSchema {
  site: { id: string; slug: string; name: string; languages: string[] };
  models: ModelSchema[];
}

export const OPERATIONS = ["findMany", "findManyPaginated", "findUnique", "create", "update", "delete"] as const;
export type Operation = (typeof OPERATIONS)[number];
export const READ_OPERATIONS: readonly Operation[] = ["findMany", "findManyPaginated", "findUnique"];

export type AccessMode = "anonymous" | "session" | "service";

/** `access/operations.json`: per model API name and operation. */
export type OperationsConfig = Record<string, Partial<Record<Operation, { enabled?: boolean; access?: AccessMode }>>>;

/** Method and path (relative to `/api/<model>`) of each operation. */
export const OPERATION_ROUTES: Record<Operation, { method: "GET" | "POST" | "PUT" | "DELETE"; path: "" | "/paginated" | "/unique" }> = {
  findMany: { method: "GET", path: "" },
  findManyPaginated: { method: "GET", path: "/paginated" },
  findUnique: { method: "GET", path: "/unique" },
  create: { method: "POST", path: "" },
  update: { method: "PUT", path: "" },
  delete: { method: "DELETE", path: "" },
};

/** The operation's settings: unconfigured → enabled, `service`. */
export function operationSettings(config: OperationsConfig, model: string, operation: Operation): { enabled: boolean; access: AccessMode } {
  const entry = config[model]?.[operation];
  return { enabled: entry?.enabled !== false, access: entry?.access ?? "service" };
}
