/**
 * A plugin block's values against the block's field schema (docs/content-rules-rich-text.md,
 * "Plugin blocks"). A manifest's `fields` maps a value key to a spec
 * `{ type, required?, max_length?, min?, max?, options? }`; `type` is one of `text`, `number`,
 * `integer`, `boolean`, `url`, `select`, `media`. A spec this does not understand (not an object,
 * or another type) accepts any JSON value: the manifest schema has always let plugins write free
 * JSON there, and refusing installed plugins' blocks afterwards would break their content.
 */
import { MEDIA_ID } from "./rich-text";

export interface BlockValueIssue {
  key: string;
  message: string;
}

/** Longest text value when a spec gives no max_length. */
const DEFAULT_MAX_TEXT = 10_000;

type Spec = { type: string; required?: unknown; max_length?: unknown; min?: unknown; max?: unknown; options?: unknown };

function specOf(raw: unknown): Spec | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const type = (raw as { type?: unknown }).type;
  return typeof type === "string" ? (raw as Spec) : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}

/** Why `value` does not match `spec`, or undefined when it does. */
function mismatch(spec: Spec, value: unknown): string | undefined {
  const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
  switch (spec.type) {
    case "text": {
      if (typeof value !== "string") return "expected a string";
      const max = num(spec.max_length) ?? DEFAULT_MAX_TEXT;
      return value.length > max ? `at most ${max} characters` : undefined;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "expected a number";
      if (spec.type === "integer" && !Number.isInteger(value)) return "expected an integer";
      const min = num(spec.min);
      const max = num(spec.max);
      if (min !== undefined && value < min) return `at least ${min}`;
      return max !== undefined && value > max ? `at most ${max}` : undefined;
    }
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "url":
      return typeof value === "string" && value.length <= 2000 && isHttpUrl(value) ? undefined : "expected an absolute http or https URL";
    case "select":
      return Array.isArray(spec.options) && spec.options.includes(value) ? undefined : "expected one of the declared options";
    case "media":
      return typeof value === "string" && MEDIA_ID.test(value) ? undefined : "expected a media id (med_…)";
    default:
      return undefined; // a spec type this version does not know: any JSON value
  }
}

/**
 * Issues of a block's `data-values` (as written; null when absent, read as `{}`) against the block's
 * `fields`, and the media ids its `media` values name (checked against the site's library by the caller).
 */
export function blockValueIssues(fields: Readonly<Record<string, unknown>>, raw: string | null): { issues: BlockValueIssue[]; mediaIds: string[] } {
  let values: unknown;
  try {
    values = raw === null ? {} : JSON.parse(raw);
  } catch {
    return { issues: [{ key: "", message: "data-values must be a JSON object" }], mediaIds: [] };
  }
  if (typeof values !== "object" || values === null || Array.isArray(values)) return { issues: [{ key: "", message: "data-values must be a JSON object" }], mediaIds: [] };
  const record = values as Record<string, unknown>;
  const issues: BlockValueIssue[] = [];
  const mediaIds: string[] = [];
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(fields, key)) issues.push({ key: key.slice(0, 100), message: "not a field of this block" });
  }
  for (const [key, rawSpec] of Object.entries(fields)) {
    const spec = specOf(rawSpec);
    const present = Object.hasOwn(record, key) && record[key] !== null;
    if (!present) {
      if (spec?.required === true) issues.push({ key, message: "required" });
      continue;
    }
    if (!spec) continue;
    const why = mismatch(spec, record[key]);
    if (why) issues.push({ key, message: why });
    else if (spec.type === "media") mediaIds.push(record[key] as string);
  }
  return { issues: issues.slice(0, 50), mediaIds };
}
