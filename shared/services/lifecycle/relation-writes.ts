/**
 * Relation writes in entry saves (docs/content-rules-relations.md): the write forms (`set`, plain
 * value, `connect` / `disconnect` / `move` with positions) resolved against the draft's current
 * list, `{ model, id }` references, duplicates and item counts. Pure over its inputs except for the
 * one model lookup a `{ model, id }` reference needs. The rules that read other content (targets
 * taken, hierarchy cycles, shared lists) are in relation-rules.ts.
 */
import { AppError } from "../../errors";
import { isToMany, relationKind, type FieldDefinition, type FieldValue } from "../../../schema/model-definition";
import { relationTargets } from "../../content/validate-fields";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";

/** Where a connected or moved item goes in an ordered list. */
export type RelationPosition = { before: string } | { after: string } | { start: true } | { end: true };

/** What resolving a request's relation values found, besides the plain values. */
export interface ResolvedRelations {
  /** The request's values by key with every relation write turned into its plain value (id, list or null). */
  input: Record<string, unknown>;
  /** Field id → the `replace` flag its write carried (absent: no flag). */
  replace: Map<string, boolean>;
  /** Instance id → the model id a `{ model, id }` reference named for it. */
  expectedModel: Map<string, string>;
}

const WRITE_KEYS = new Set(["set", "connect", "disconnect", "move", "replace"]);

function badRequest(message: string, parameter: string): never {
  throw new AppError("invalid_request", message, { parameter });
}

/** A reference that is neither an id nor `{ model, id }`: refused like any mistyped value. */
function wrongType(field: FieldDefinition, at: string): never {
  const path = at.replace(/^fields\./, "");
  throw new AppError("field_validation_failed", "Some field values are not valid.", {
    issues: [{ path, code: "wrong_type", message: `${field.label} takes entry ids or { "model": "<model slug>", "id": "<entry id>" }.` }],
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The write form of a relation value: an object naming only write keys, at least one of set/connect/disconnect/move. */
function isWriteObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.some((k) => k !== "replace" && WRITE_KEYS.has(k)) && keys.every((k) => WRITE_KEYS.has(k));
}

class Resolver {
  private models: Model[] | undefined;
  constructor(
    private readonly ctx: LifecycleContext,
    readonly expectedModel: Map<string, string>,
  ) {}

  private async siteModels(): Promise<Model[]> {
    this.models ??= await modelRepository(this.ctx.db, this.ctx.scope).list();
    return this.models;
  }

  /** The instance id a reference names: a bare id (single-model fields) or `{ model, id }`. */
  async reference(field: FieldDefinition, item: unknown, at: string, extraKeys: readonly string[] = []): Promise<string> {
    const targets = field.targets ?? [];
    if (typeof item === "string") {
      if (item.length === 0 || item.length > 64) wrongType(field, at);
      if (targets.length > 1) {
        throw new AppError("relation_target_model_required", `"${field.key}" allows several models: name each item as { "model": "<model slug>", "id": "<entry id>" }.`, { field: field.key, targets: [item] });
      }
      return item;
    }
    if (!isRecord(item) || typeof item.id !== "string" || item.id.length === 0 || item.id.length > 64) wrongType(field, at);
    const allowed = new Set(["id", "model", ...extraKeys]);
    const stray = Object.keys(item).filter((k) => !allowed.has(k));
    if (stray.length > 0) badRequest(`${at} has unknown keys: ${stray.join(", ")}.`, at);
    if (item.model === undefined) {
      if (targets.length > 1) {
        throw new AppError("relation_target_model_required", `"${field.key}" allows several models: name each item's model.`, { field: field.key, targets: [item.id] });
      }
      return item.id;
    }
    if (typeof item.model !== "string") badRequest(`${at}.model must be a model slug.`, `${at}.model`);
    const model = (await this.siteModels()).find((m) => m.slug === item.model);
    if (!model || !targets.includes(model.id)) {
      const allowedSlugs = (await this.siteModels()).filter((m) => targets.includes(m.id)).map((m) => m.slug);
      throw new AppError("relation_target_model_not_allowed", `"${field.key}" does not link to items of model "${item.model}".`, { field: field.key, model: item.model, allowed: allowedSlugs });
    }
    const known = this.expectedModel.get(item.id);
    if (known !== undefined && known !== model.id) {
      throw new AppError("relation_target_not_found", "Some linked items do not exist or may not be linked here.", { ids: [item.id] });
    }
    this.expectedModel.set(item.id, model.id);
    return item.id;
  }

  /** A list of references (a `set` or a plain list). */
  async references(field: FieldDefinition, items: readonly unknown[], at: string): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, item] of items.entries()) ids.push(await this.reference(field, item, `${at}[${index}]`));
    return ids;
  }
}

function positionOf(value: unknown, at: string): RelationPosition {
  if (!isRecord(value)) badRequest(`${at} must be { "before": id }, { "after": id }, { "start": true } or { "end": true }.`, at);
  const keys = Object.keys(value);
  if (keys.length === 1) {
    if (typeof value.before === "string") return { before: value.before };
    if (typeof value.after === "string") return { after: value.after };
    if (value.start === true) return { start: true };
    if (value.end === true) return { end: true };
  }
  return badRequest(`${at} must be { "before": id }, { "after": id }, { "start": true } or { "end": true }.`, at);
}

/** Places `id` into `list` (which does not hold it) at `position`. */
function place(list: string[], id: string, position: RelationPosition | undefined, at: string): void {
  if (position === undefined || "end" in position) {
    list.push(id);
    return;
  }
  if ("start" in position) {
    list.unshift(id);
    return;
  }
  const anchor = "before" in position ? position.before : position.after;
  const index = list.indexOf(anchor);
  if (index < 0) {
    throw new AppError("invalid_request", `${at} names "${anchor}", which is not in the list.`, { parameter: at, anchor });
  }
  list.splice("before" in position ? index : index + 1, 0, id);
}

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false))))];
}

function requireNoDuplicates(field: FieldDefinition, ids: readonly string[]): void {
  const twice = duplicates(ids);
  if (twice.length > 0) {
    throw new AppError("relation_duplicate_target", `"${field.key}" names an item more than once.`, { field: field.key, targets: twice });
  }
}

/** The operation list of connect, disconnect or move, or [] when absent. */
function operations(value: Record<string, unknown>, key: "connect" | "disconnect" | "move", at: string): unknown[] {
  const ops = value[key];
  if (ops === undefined) return [];
  if (!Array.isArray(ops)) badRequest(`${at}.${key} must be an array.`, `${at}.${key}`);
  if (ops.length > 1000) badRequest(`${at}.${key} holds at most 1000 items.`, `${at}.${key}`);
  return ops;
}

/** Resolves one relation field's write against its current list. */
async function resolveField(resolver: Resolver, field: FieldDefinition, current: readonly string[], value: unknown, mode: "draft" | "strict"): Promise<{ ids: string[] | null; replace: boolean | undefined }> {
  const at = `fields.${field.key}`;
  const toMany = isToMany(relationKind(field));
  let ids: string[];
  let replace: boolean | undefined;
  if (value === null) {
    return { ids: null, replace: undefined };
  } else if (isWriteObject(value)) {
    if (value.replace !== undefined) {
      if (typeof value.replace !== "boolean") badRequest(`${at}.replace must be true or false.`, `${at}.replace`);
      replace = value.replace;
    }
    if ("set" in value) {
      if ("connect" in value || "disconnect" in value || "move" in value) {
        badRequest(`${at}: "set" replaces the list and cannot be combined with connect, disconnect or move.`, at);
      }
      const set = value.set;
      ids = set === null ? [] : Array.isArray(set) ? await resolver.references(field, set, `${at}.set`) : [await resolver.reference(field, set, `${at}.set`)];
      requireNoDuplicates(field, ids);
    } else {
      const connect = operations(value, "connect", at);
      const disconnect = operations(value, "disconnect", at);
      const move = operations(value, "move", at);
      if (!toMany && (move.length > 0 || connect.some((item) => isRecord(item) && item.position !== undefined))) {
        throw new AppError("relation_position_not_ordered", `"${field.key}" holds one item: it has no order to move in or place at.`, { field: field.key });
      }
      const gone: string[] = [];
      for (const [index, item] of disconnect.entries()) gone.push(await resolver.reference(field, item, `${at}.disconnect[${index}]`));
      const list = current.filter((id) => !gone.includes(id));
      const connected: string[] = [];
      for (const [index, item] of connect.entries()) {
        const where = `${at}.connect[${index}]`;
        const id = await resolver.reference(field, item, where, ["position"]);
        connected.push(id);
        const position = isRecord(item) && item.position !== undefined ? positionOf(item.position, `${where}.position`) : undefined;
        if (!toMany) continue;
        const held = list.indexOf(id);
        if (held >= 0) {
          if (position === undefined) continue; // already linked: connect is done
          list.splice(held, 1);
        }
        place(list, id, position, `${where}.position`);
      }
      requireNoDuplicates(field, connected);
      if (!toMany) {
        if (connected.length > 1) {
          throw new AppError("relation_too_many", `"${field.key}" holds one item.`, { field: field.key, count: connected.length, max_items: 1 });
        }
        ids = connected.length === 1 ? connected : list;
      } else {
        const moved: string[] = [];
        for (const [index, item] of move.entries()) {
          const where = `${at}.move[${index}]`;
          if (!isRecord(item) || item.position === undefined) badRequest(`${where} must be { "id": ..., "position": ... }.`, where);
          const id = await resolver.reference(field, item, where, ["position"]);
          moved.push(id);
          const position = positionOf(item.position, `${where}.position`);
          const held = list.indexOf(id);
          if (held < 0) throw new AppError("invalid_request", `${where} moves "${id}", which is not in the list.`, { parameter: where, id });
          list.splice(held, 1);
          place(list, id, position, `${where}.position`);
        }
        requireNoDuplicates(field, moved);
        ids = list;
      }
    }
  } else if (Array.isArray(value)) {
    ids = await resolver.references(field, value, at);
    requireNoDuplicates(field, ids);
  } else if (isRecord(value) && Object.keys(value).some((k) => WRITE_KEYS.has(k))) {
    return badRequest(`${at} is a relation write: use "set" alone, or "connect", "disconnect" and "move"; "replace" may go with either.`, at);
  } else {
    ids = [await resolver.reference(field, value, at)];
  }

  if (!toMany && ids.length > 1) {
    throw new AppError("relation_too_many", `"${field.key}" holds one item.`, { field: field.key, count: ids.length, max_items: 1 });
  }
  if (toMany) {
    const rules = field.validation ?? {};
    // An empty list is an incomplete draft (docs/content-rules-relations.md, "Counts"); strict sites count it too.
    if (rules.min_items !== undefined && ids.length < rules.min_items && (ids.length > 0 || mode === "strict")) {
      throw new AppError("relation_too_few", `"${field.key}" needs at least ${rules.min_items} items.`, { field: field.key, count: ids.length, min_items: rules.min_items });
    }
    if (rules.max_items !== undefined && ids.length > rules.max_items) {
      throw new AppError("relation_too_many", `"${field.key}" holds at most ${rules.max_items} items.`, { field: field.key, count: ids.length, max_items: rules.max_items });
    }
  }
  return { ids, replace };
}

/**
 * Turns every relation write of a request (values by key) into the plain value a version stores,
 * resolved against `base` (values by field id: the draft the write applies to). Throws the
 * relation codes for malformed references, positions on to-one fields, duplicates and counts.
 */
export async function resolveRelationWrites(
  ctx: LifecycleContext,
  model: Pick<Model, "fields">,
  base: Readonly<Record<string, FieldValue>>,
  input: Readonly<Record<string, unknown>>,
): Promise<ResolvedRelations> {
  const resolver = new Resolver(ctx, new Map());
  const out: Record<string, unknown> = { ...input };
  const replace = new Map<string, boolean>();
  const mode = ctx.site.settings.validation_mode === "strict" ? "strict" : "draft";
  for (const field of model.fields) {
    if (field.type !== "relation") continue;
    const current = relationTargets(field, base[field.id] ?? null);
    if (!Object.hasOwn(input, field.key)) {
      // Strict sites count every request's lists, the ones it leaves out too (spec 3: an omitted list
      // counts as empty; counts are checked on every request), as they count a list it sends.
      const min = field.validation?.min_items;
      if (mode === "strict" && isToMany(relationKind(field)) && min !== undefined && current.length < min) {
        throw new AppError("relation_too_few", `"${field.key}" needs at least ${min} items.`, { field: field.key, count: current.length, min_items: min });
      }
      continue;
    }
    const resolved = await resolveField(resolver, field, current, input[field.key], mode);
    if (resolved.replace !== undefined) replace.set(field.id, resolved.replace);
    out[field.key] = resolved.ids === null ? null : isToMany(relationKind(field)) ? resolved.ids : (resolved.ids[0] ?? null);
  }
  return { input: out, replace, expectedModel: resolver.expectedModel };
}
