/**
 * Names in the emitted project (docs/generated-backend.md, "Tables"): a model's API name (its table
 * and route segment), its PascalCase name (operation ids), join and translation table names.
 */

/** `Blog post` → `blogpost`: the name lower-cased, only ASCII letters and digits kept. */
export function apiName(modelName: string): string {
  return modelName.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** `Blog post` → `BlogPost`: words of letters and digits, each capitalised. */
export function pascalName(modelName: string): string {
  return modelName
    .normalize("NFKD")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** The translation table of a model: `<model>translation`. */
export const translationTable = (model: string): string => `${model}translation`;

/** The join table of a list (or mixed to-one) field: `<model>_<field>`, and `_<target>` per target when several. */
export function joinTable(model: string, fieldKey: string, target?: string): string {
  return target === undefined ? `${model}_${fieldKey.toLowerCase()}` : `${model}_${fieldKey.toLowerCase()}_${target}`;
}

/**
 * Table names the runtimes keep for themselves (SQLite, D1, wrangler's migrations table), and
 * `auth`: the sessions' routes live under /api/auth/ and their tables are auth_… (#25).
 */
export function isReservedTableName(name: string): boolean {
  return name === "" || /^[0-9]/.test(name) || name === "openapi" || name === "auth" || name.startsWith("auth_") || name.startsWith("sqlite") || name.startsWith("_cf") || name.startsWith("d1") || name === "migrations";
}

/** Columns every model table has besides its fields (`slug` only when no field takes the name). */
export const SYSTEM_COLUMNS = ["id", "slug", "published_at", "created_at", "updated_at"] as const;
