import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from "../../schema/model-settings";
import type { Kysely } from "kysely";
import type { Database, ModelRow } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";
import type { FieldDefinition } from "../../schema/model-definition";
import type { UniqueCombination } from "../../schema/unique-combinations";

/** A content model with its definition parsed. */
export interface Model {
  id: string;
  site_id: string;
  slug: string;
  name: string;
  description: string | null;
  kind: "collection" | "single";
  is_public: boolean;
  i18n: boolean;
  fields: FieldDefinition[];
  /** Editor-facing settings (schema/model-settings.ts), kept in the definition JSON. */
  settings: ModelSettings;
  /** Named unique combinations (schema/unique-combinations.ts), kept in the definition JSON. */
  unique_combinations: UniqueCombination[];
  folder: string | null;
  manual_order: string[];
  revision: number;
  created_at: string;
  updated_at: string;
}

/** What models.definition holds. */
export interface StoredDefinition {
  fields: FieldDefinition[];
  settings?: ModelSettings;
  unique_combinations?: UniqueCombination[];
}

/** The definition JSON of a model (no `unique_combinations` key while it has none). */
export function storedDefinition(model: Pick<Model, "fields" | "settings" | "unique_combinations">): string {
  return JSON.stringify({
    fields: model.fields,
    settings: model.settings,
    ...(model.unique_combinations.length > 0 ? { unique_combinations: model.unique_combinations } : {}),
  } satisfies StoredDefinition);
}

export function toModel(row: ModelRow): Model {
  const definition = JSON.parse(row.definition) as StoredDefinition;
  return {
    id: row.id,
    site_id: row.site_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    kind: row.kind,
    is_public: row.is_public === 1,
    i18n: row.i18n === 1,
    fields: definition.fields,
    settings: { ...DEFAULT_MODEL_SETTINGS, ...(definition.settings ?? {}) },
    unique_combinations: definition.unique_combinations ?? [],
    folder: row.folder,
    manual_order: row.manual_order ? (JSON.parse(row.manual_order) as string[]) : [],
    revision: row.revision,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function modelRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    async list(): Promise<Model[]> {
      const rows = await db.selectFrom("models").selectAll().where("site_id", "=", siteId).orderBy("slug").execute();
      return rows.map(toModel);
    },
    async findById(id: string): Promise<Model | undefined> {
      const row = await db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst();
      return row ? toModel(row) : undefined;
    },
    async findBySlug(slug: string): Promise<Model | undefined> {
      const row = await db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("slug", "=", slug).executeTakeFirst();
      return row ? toModel(row) : undefined;
    },
    async findMany(ids: readonly string[]): Promise<Model[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "in", [...ids]).execute();
      return rows.map(toModel);
    },
    insert(model: Omit<Model, "site_id">) {
      return db
        .insertInto("models")
        .values({
          id: model.id,
          site_id: siteId,
          slug: model.slug,
          name: model.name,
          description: model.description,
          kind: model.kind,
          is_public: model.is_public ? 1 : 0,
          i18n: model.i18n ? 1 : 0,
          definition: storedDefinition(model),
          folder: model.folder,
          manual_order: model.manual_order.length > 0 ? JSON.stringify(model.manual_order) : null,
          revision: model.revision,
          created_at: model.created_at,
          updated_at: model.updated_at,
        })
        .compile();
    },
  };
}
