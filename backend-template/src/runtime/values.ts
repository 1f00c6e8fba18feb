/** Values between JSON and the database, checked per column (docs/generated-backend.md, "The query language"). */
import { invalid } from "./errors.js";
import type { ColumnSchema } from "./schema-types.js";

export type DbValue = string | number | null;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether `text` starts with a real calendar date (2021-02-28, not 2021-02-29 or 2020-13-45): the
 * CMS refuses such a date field value (`invalid_date`), and `Date.parse` would roll it over to the
 * next month, so a datetime is checked too before it is normalised.
 */
function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** A JSON value as the column stores it, or 400 invalid_request naming `path`. */
export function toDb(column: ColumnSchema, value: unknown, path: string): DbValue {
  if (value === null) return null;
  switch (column.type) {
    case "text":
      if (typeof value !== "string") throw invalid(`${path} must be a string.`, path);
      if (column.format === "date" && !(DATE.test(value) && isCalendarDate(value))) throw invalid(`${path} must be a real YYYY-MM-DD date.`, path);
      if (column.format === "datetime") {
        const time = Date.parse(value);
        if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time) || !isCalendarDate(value)) throw invalid(`${path} must be an ISO-8601 date-time.`, path);
        return new Date(time).toISOString();
      }
      if (column.options !== undefined && !column.options.includes(value)) throw invalid(`${path} must be one of: ${column.options.join(", ")}.`, path);
      return value;
    case "integer":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) throw invalid(`${path} must be a whole number.`, path);
      return value;
    case "real":
      if (typeof value !== "number" || !Number.isFinite(value)) throw invalid(`${path} must be a number.`, path);
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw invalid(`${path} must be true or false.`, path);
      return value ? 1 : 0;
    case "json":
      return JSON.stringify(value);
  }
}

/** A stored value as the API answers it. */
export function fromDb(column: ColumnSchema, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === "boolean") return value === 1 || value === true;
  if (column.type === "json" && typeof value === "string") return JSON.parse(value) as unknown;
  return value;
}

/** A row as the API answers it: columns in schema order, private ones left out when asked. */
export function presentRow(columns: readonly ColumnSchema[], row: Record<string, unknown>, withPrivate: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    if (!Object.hasOwn(row, column.name)) continue;
    if (column.private && !withPrivate) continue;
    out[column.name] = fromDb(column, row[column.name]);
  }
  return out;
}
