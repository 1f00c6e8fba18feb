import { AppError } from "../../shared/errors";
import type { Model } from "../../shared/repositories/model-repository";

/** The most field keys one `fields=` selection names. */
export const MAX_SELECTED_FIELDS = 50;

const FIELD_KEY = /^[a-z][a-zA-Z0-9_]{0,63}$/;

function refused(message: string): AppError {
  return new AppError("invalid_request", message, { parameter: "fields" });
}

/**
 * `fields=title,summary`: the field keys a list or item answer keeps (docs/public-api.md, "Field
 * selection"). Undefined when the request selects nothing (every public field is served).
 */
export function parseSelection(url: URL): string[] | undefined {
  const raw = url.searchParams.get("fields");
  if (raw === null) return undefined;
  const keys = raw.split(",");
  if (keys.length > MAX_SELECTED_FIELDS) throw refused(`fields names at most ${MAX_SELECTED_FIELDS} field keys.`);
  for (const key of keys) if (!FIELD_KEY.test(key)) throw refused("fields is a comma-separated list of field keys.");
  return [...new Set(keys)];
}

/**
 * Checks a selection against the model. A private field is refused with the very answer an unknown
 * key gets (same status, code, message and details), so a selection is no oracle for which private
 * fields a model has (spec 3, "Private fields").
 */
export function checkSelection(model: Pick<Model, "slug" | "fields">, keys: readonly string[]): void {
  for (const key of keys) {
    const field = model.fields.find((f) => f.key === key);
    if (!field || field.private === true) throw refused(`"${key}" is not a field of ${model.slug}.`);
  }
}

interface ItemShape {
  fields?: Record<string, unknown>;
  relations?: Record<string, unknown>;
  media?: Record<string, unknown>;
}

function pick(map: Record<string, unknown> | undefined, keys: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map ?? {})) if (keys.has(key)) kept[key] = value;
  return kept;
}

/**
 * One served item (a stored snapshot body) with only the selected keys in `fields`, `relations` and
 * `media`; the item's own keys (id, slug, model, locale, version, dates) always stay.
 */
export function selectItem(body: string, keys: ReadonlySet<string>): string {
  const item = JSON.parse(body) as ItemShape & Record<string, unknown>;
  return JSON.stringify({ ...item, fields: pick(item.fields, keys), relations: pick(item.relations, keys), media: pick(item.media, keys) });
}
