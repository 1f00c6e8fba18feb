/**
 * The emitted project's files (docs/generated-backend.md, "The emitted tree"): the fixed template
 * (template-files.generated.ts) and the site's own files, written from the table plan. Pure and
 * ordered, so the same site state gives the same files.
 */
import { buildOpenApi } from "../../../backend-template/src/runtime/openapi";
import type { ColumnSchema, ModelSchema, OperationsConfig, SiteSchema } from "../../../backend-template/src/runtime/schema-types";
import type { ArchiveFile } from "./archive";
import type { ModelPlan, TablePlan } from "./plan";
import type { Row } from "./rows";
import { relationSchemas } from "./relation-schema";
import { migrationSql } from "./sql";
import { TEMPLATE_FILES } from "./template-files.generated";
import type { GeneratorSite } from "./types";

/** A read token issued in the CMS: only its digest leaves the CMS. */
export interface IssuedReadToken {
  id: string;
  digest: string;
  models: string[];
}

const SYSTEM_WRITTEN = new Set(["created_at", "updated_at"]);

/** A table's columns as `src/schema.ts` describes them; `written` columns are the runtime's, never a body's. */
function columnSchemas(table: TablePlan, written: ReadonlySet<string>): ColumnSchema[] {
  return table.columns.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable,
    unique: column.unique,
    private: column.private,
    ...(column.format !== undefined ? { format: column.format } : {}),
    ...(column.references !== undefined ? { references: column.references } : {}),
    ...(column.options !== undefined ? { options: column.options } : {}),
    ...(written.has(column.name) && column.field === undefined ? { system: true } : {}),
  }));
}

/** A translation row's id is the runtime's too (a locale row is named by its base row and language). */
const TRANSLATION_WRITTEN = new Set(["id", ...SYSTEM_WRITTEN]);

export function modelSchema(plan: ModelPlan): ModelSchema {
  return {
    api: plan.api,
    pascal: plan.pascal,
    columns: columnSchemas(plan.table, SYSTEM_WRITTEN),
    uniques: plan.table.uniques,
    ...pointFields(plan),
    ...fileFields(plan),
    ...(plan.translation !== undefined
      ? { translation: { api: plan.translation.name, pascal: `${plan.pascal}Translation`, columns: columnSchemas(plan.translation, TRANSLATION_WRITTEN), uniques: plan.translation.uniques } }
      : {}),
  };
}

/** Media and rich text fields: the file route's fields (private ones hold `private-file:` markers). */
function fileFields(plan: ModelPlan): { files?: { field: string; kind: "media" | "rich_text" }[] } {
  const files = plan.fields.flatMap((field) => (field.type === "media" || field.type === "rich_text" ? [{ field: field.key, kind: field.type }] : []));
  return files.length > 0 ? { files } : {};
}

/** The location fields point queries may name (docs/generated-backend.md, "Point queries"). */
function pointFields(plan: ModelPlan): { points?: string[] } {
  const points = plan.fields.filter((field) => field.type === "location").map((field) => field.key);
  return points.length > 0 ? { points } : {};
}

/** The generated defaults of `access/operations.json`: a public model's reads anonymous, all else service. */
export function defaultOperations(plans: readonly ModelPlan[]): OperationsConfig {
  const read = (plan: ModelPlan) => ({ enabled: true, access: plan.model.is_public ? ("anonymous" as const) : ("service" as const) });
  const write = { enabled: true, access: "service" as const };
  return Object.fromEntries(
    plans.map((plan) => [plan.api, { findMany: read(plan), findManyPaginated: read(plan), findUnique: read(plan), create: write, update: write, delete: write }]),
  );
}

/** Link columns the dangling check follows: to-one ids, translation bases, join owners and targets. */
function links(plans: readonly ModelPlan[]): { model: string; table: string; column: string; references: string }[] {
  return plans.flatMap((plan) => [
    ...plan.table.columns.filter((c) => c.references !== undefined).map((c) => ({ model: plan.api, table: plan.api, column: c.name, references: c.references as string })),
    ...(plan.translation ? [{ model: plan.api, table: plan.translation.name, column: `${plan.api}_id`, references: plan.api }] : []),
    ...plan.joins.flatMap((join) => [
      { model: plan.api, table: join.table, column: "owner_id", references: join.owner },
      { model: plan.api, table: join.table, column: "target_id", references: join.target },
    ]),
  ]);
}

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Every file of the emitted project, sorted by path. */
export function projectFiles(site: GeneratorSite, plans: readonly ModelPlan[], rows: Readonly<Record<string, Row[]>>, tokens: readonly IssuedReadToken[]): ArchiveFile[] {
  const schema: SiteSchema = { site: { id: site.id, slug: site.slug, name: site.name, languages: [...site.languages] }, models: plans.map((plan) => ({ ...modelSchema(plan), relations: relationSchemas(plan, plans) })) };
  const tables = [...plans.map((p) => p.api), ...plans.flatMap((p) => (p.translation ? [p.translation.name] : [])), ...plans.flatMap((p) => p.joins.map((j) => j.table))];
  const operations = defaultOperations(plans);
  const fill = (text: string) =>
    text
      .replaceAll("{{SITE_NAME}}", site.name)
      .replaceAll("{{SITE_ID}}", site.id)
      .replaceAll("{{SITE_SLUG}}", site.slug.toLowerCase().replace(/[^a-z0-9-]/g, "-"))
      .replaceAll("{{FIRST_MODEL}}", plans[0]?.api ?? "model");
  const files: Record<string, string> = {};
  for (const [path, content] of Object.entries(TEMPLATE_FILES)) files[path] = path === "README.md" || path === "wrangler.jsonc" ? fill(content) : content;
  files["schema.json"] = pretty({ ...schema, tables, links: links(plans) });
  files["src/schema.ts"] = `// Generated by Driftwood from the site's models: the tables and columns the routes serve.\nimport type { SiteSchema } from "./runtime/schema-types.js";\n\nexport const SCHEMA: SiteSchema = ${JSON.stringify(schema, null, 2)};\n`;
  files["migrations/0001_schema.sql"] = migrationSql(plans);
  for (const table of tables) files[`data/${table}.json`] = pretty(rows[table] ?? []);
  files["access/read-tokens.json"] = pretty({ version: 1, site: site.id, tokens: [...tokens].sort((a, b) => (a.id < b.id ? -1 : 1)) });
  files["access/operations.json"] = pretty(operations);
  files["openapi.json"] = pretty(buildOpenApi(schema, operations));
  return Object.keys(files)
    .sort()
    .map((path) => ({ path, content: files[path] as string }));
}
