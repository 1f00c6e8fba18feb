/**
 * Content-level generation refusals (docs/generated-backend.md, "Refusals", content level): what
 * published items hold that the emitted tables cannot load. Per item (`itemProblems`) and over a
 * whole model (`identityProblems`: unique columns and parent loops). Pure.
 */
import { isCalendarDate, dateTimeMillis } from "../../../schema/dates";
import { isToMany, relationKind, type FieldDefinition } from "../../../schema/model-definition";
import { relationTargets } from "../../content/value-references";
import type { ModelPlan } from "./plan";
import type { GenerationProblem, GeneratorSite, LinkTarget, PublishedItem, PublishedLanguage } from "./types";

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** The language whose values make the base row: the site's default when published, else the lowest code. */
export function baseLanguage(item: PublishedItem, site: Pick<GeneratorSite, "default_lang">): PublishedLanguage | undefined {
  const sorted = [...item.languages].sort((a, b) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0));
  return sorted.find((language) => language.lang === site.default_lang) ?? sorted[0];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === "string");

/** Whether a stored value fits the field's column(s); undefined and null always fit. */
export function valueFits(field: FieldDefinition, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  switch (field.type) {
    case "text":
    case "long_text":
    case "rich_text":
    case "slug":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "decimal":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return typeof value === "string" && isCalendarDate(value);
    case "datetime":
      return typeof value === "string" && dateTimeMillis(value) !== undefined;
    case "select":
      return field.multiple === true ? isStrings(value) : typeof value === "string";
    case "location":
      return isObject(value) && typeof value.lat === "number" && typeof value.lon === "number" && Math.abs(value.lat) <= 90 && Math.abs(value.lon) <= 180;
    case "media":
    case "relation":
      return typeof value === "string" || isStrings(value);
    case "component":
      return field.multiple === true ? Array.isArray(value) && value.every(isObject) : isObject(value);
  }
}

/** The problems of one published item against its model's plan. */
export function itemProblems(plan: ModelPlan, item: PublishedItem, site: Pick<GeneratorSite, "default_lang">, targets: ReadonlyMap<string, LinkTarget>): GenerationProblem[] {
  const problems: GenerationProblem[] = [];
  const base = baseLanguage(item, site);
  const push = (code: GenerationProblem["code"], field: string, detail: string) => problems.push({ code, model: plan.model.slug, field, item: item.group_id, detail });
  for (const language of item.languages) {
    for (const field of plan.fields) {
      const value = language.values[field.id];
      if (!valueFits(field, value)) {
        push("unsupported_value_type", field.key, `The published ${language.lang} value ${JSON.stringify(value).slice(0, 80)} does not fit a ${field.type}${field.multiple === true ? " list" : ""} column.`);
        continue;
      }
      if (language === base && field.required === true && field.condition === undefined && isEmpty(value)) {
        push("required_value_missing", field.key, `The published ${language.lang} version has no value for this required field.`);
      }
      if (field.type !== "relation" || (language !== base && field.localized_membership !== true)) continue;
      const ids = relationTargets(field, value);
      const kind = relationKind(field);
      if (!isToMany(kind) && ids.length > 1) push("relation_arity_unsupported", field.key, `This to-one field holds ${ids.length} links in the published ${language.lang} version.`);
      for (const id of ids) {
        const target = targets.get(id);
        if (target === undefined || !target.published) {
          push("unpublished_reference", field.key, `Link to ${id}, which has no published version (draft, Trash or removed).`);
        } else if (!(field.targets ?? []).includes(target.model_id)) {
          push(
            field.hierarchy === true ? "relation_target_model_mismatch" : "invalid_reference",
            field.key,
            field.hierarchy === true ? `Parent link to ${target.group_id}, an item of another model: a hierarchy stays in its model.` : `Link to ${target.group_id}, an item of a model this field does not allow.`,
          );
        }
      }
    }
  }
  return problems;
}

/** What an item claims in whole-model checks: its base slug, unique values and parent. */
export interface ItemIdentity {
  group_id: string;
  slug: string | null;
  uniques: Record<string, unknown>;
  parent: string | undefined;
}

/** An item's identity facts (the base row's). `targets` maps a parent's instance id to its group. */
export function identityOf(plan: ModelPlan, item: PublishedItem, site: Pick<GeneratorSite, "default_lang">, targets: ReadonlyMap<string, LinkTarget>): ItemIdentity {
  const base = baseLanguage(item, site);
  const uniques: Record<string, unknown> = {};
  let parent: string | undefined;
  for (const field of plan.fields) {
    const value = base?.values[field.id];
    if (field.unique === "model" && !isEmpty(value)) uniques[field.key] = value;
    if (field.hierarchy === true) {
      const id = relationTargets(field, value)[0];
      parent = id === undefined ? undefined : targets.get(id)?.group_id;
    }
  }
  return { group_id: item.group_id, slug: base?.slug ?? null, uniques, parent };
}

/** Unique columns two items would share, a second item of a single model, and parent loops. */
export function identityProblems(plan: ModelPlan, identities: readonly ItemIdentity[]): GenerationProblem[] {
  const problems: GenerationProblem[] = [];
  const sorted = [...identities].sort((a, b) => (a.group_id < b.group_id ? -1 : a.group_id > b.group_id ? 1 : 0));
  const push = (code: GenerationProblem["code"], item: string, field: string | undefined, detail: string) =>
    problems.push({ code, model: plan.model.slug, ...(field !== undefined ? { field } : {}), item, detail });
  if (plan.model.kind === "single") for (const extra of sorted.slice(1)) push("duplicate_row_identity", extra.group_id, undefined, `A single model holds one row; ${sorted[0]?.group_id} is already it.`);
  const systemSlug = plan.table.columns.some((column) => column.name === "slug" && column.field === undefined);
  const seen = new Map<string, string>();
  for (const identity of sorted) {
    const claims: [string, unknown][] = [...(systemSlug && identity.slug !== null ? [["slug", identity.slug] as [string, unknown]] : []), ...Object.entries(identity.uniques)];
    for (const [column, value] of claims) {
      const key = `${column}\u0000${JSON.stringify(value)}`;
      const holder = seen.get(key);
      if (holder !== undefined) push("duplicate_row_identity", identity.group_id, column, `Column "${column}" would hold ${JSON.stringify(value)} on both this row and ${holder}.`);
      else seen.set(key, identity.group_id);
    }
  }
  const parents = new Map(sorted.map((identity) => [identity.group_id, identity.parent] as const));
  const hierarchy = plan.fields.find((field) => field.hierarchy === true);
  const looped = new Set<string>();
  for (const identity of sorted) {
    if (hierarchy === undefined || looped.has(identity.group_id)) continue;
    const path: string[] = [];
    let at: string | undefined = identity.group_id;
    while (at !== undefined && !path.includes(at)) {
      path.push(at);
      at = parents.get(at);
    }
    if (at === undefined) continue;
    const loop = path.slice(path.indexOf(at));
    if (loop.some((id) => looped.has(id))) continue;
    for (const id of loop) looped.add(id);
    push("relation_hierarchy_cycle", loop[0] ?? identity.group_id, hierarchy.key, `Published parent links loop: ${[...loop, loop[0]].join(" → ")}.`);
  }
  return problems;
}
