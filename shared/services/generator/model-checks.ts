/**
 * Model-level generation refusals (docs/generated-backend.md, "Refusals"): every problem of the
 * site's models that keeps the emitted tables from holding them. Pure: the models in, the problems
 * and the parsed fields of every model out (a model with a problem still gets a plan of what parsed,
 * so one problem does not hide the next).
 */
import * as v from "valibot";
import { FIELD_TYPES, FieldDefinition, isToMany, relationKind } from "../../../schema/model-definition";
import type { FieldCondition } from "../../../schema/field-condition";
import { forEachFieldScope } from "../../content/components";
import { fieldValidationIssues } from "../../content/field-validation-rules";
import { customValidationIssues } from "../../content/model-field-checks";
import { issuesOf } from "../validation/parse";
import { apiName, isReservedTableName, joinTable, translationTable } from "./names";
import { planModels, type ModelPlan } from "./plan";
import type { GenerationProblem, GeneratorModel } from "./types";

/** A model whose fields parsed, with the problems found on the way. */
export interface ParsedModel {
  model: GeneratorModel;
  fields: FieldDefinition[];
}

const keyOf = (raw: unknown): string | undefined => {
  if (typeof raw !== "object" || raw === null) return undefined;
  const key = (raw as { key?: unknown }).key;
  return typeof key === "string" ? key : undefined;
};

/** Parses each stored field: unknown types and malformed definitions become problems, the rest fields. */
function parseFields(model: GeneratorModel, problems: GenerationProblem[]): FieldDefinition[] {
  const fields: FieldDefinition[] = [];
  model.fields.forEach((raw, index) => {
    const key = keyOf(raw) ?? `#${index}`;
    const type = typeof raw === "object" && raw !== null ? (raw as { type?: unknown }).type : undefined;
    if (typeof type !== "string" || !(FIELD_TYPES as readonly string[]).includes(type)) {
      problems.push({ code: "unsupported_field_type", model: model.slug, field: key, detail: `Field type ${JSON.stringify(type)} is not one the generator maps (${FIELD_TYPES.join(", ")}).` });
      return;
    }
    const withId = { ...(raw as Record<string, unknown>), id: (raw as { id?: unknown }).id ?? key };
    const parsed = v.safeParse(FieldDefinition, withId);
    if (!parsed.success) {
      const issues = issuesOf(parsed.issues);
      problems.push({ code: "invalid_field_config", model: model.slug, field: key, detail: issues.map((issue) => `${issue.path || key}: ${issue.message}`).join(" ") });
      return;
    }
    fields.push(parsed.output);
  });
  return fields;
}

/** `fields[2].fields[0].validation.pattern` → `seo.title` given the fields. */
function fieldPathOf(fields: readonly FieldDefinition[], path: string): string {
  const keys: string[] = [];
  let scope: readonly FieldDefinition[] | undefined = fields;
  for (const match of path.matchAll(/fields\[(\d+)\]/g)) {
    const field: FieldDefinition | undefined = scope?.[Number(match[1])];
    if (field === undefined) break;
    keys.push(field.key);
    scope = field.fields;
  }
  return keys.join(".");
}

/** Field keys a condition names (terms at every depth). */
function conditionFields(condition: FieldCondition | undefined): string[] {
  if (condition === undefined || typeof condition !== "object" || condition === null) return [];
  const node = condition as { field?: unknown; all?: unknown; any?: unknown };
  if (typeof node.field === "string") return [node.field];
  const group = Array.isArray(node.all) ? node.all : Array.isArray(node.any) ? node.any : [];
  return group.flatMap((term: unknown) => conditionFields(term as FieldCondition));
}

/** Validation, components and references inside one model's parsed fields. */
function fieldProblems(model: GeneratorModel, fields: readonly FieldDefinition[], problems: GenerationProblem[]): void {
  const push = (code: GenerationProblem["code"], field: string | undefined, detail: string) =>
    problems.push({ code, model: model.slug, ...(field !== undefined && field !== "" ? { field } : {}), detail });
  for (const issue of customValidationIssues(fields)) push("unsupported_text_validation", fieldPathOf(fields, issue.path), issue.message);
  forEachFieldScope(fields, (scope, prefix) => {
    for (const issue of fieldValidationIssues(scope)) push("invalid_field_validation", fieldPathOf(fields, `${prefix}${issue.path.slice("fields".length)}`), issue.message);
    const keys = new Set(scope.map((field) => field.key));
    for (const field of scope) {
      for (const named of conditionFields(field.condition)) {
        if (!keys.has(named)) push("invalid_reference", fieldPathOf(fields, prefix) ? `${fieldPathOf(fields, prefix)}.${field.key}` : field.key, `The condition names "${named}", which is not a field here.`);
      }
    }
  });
  for (const combo of model.unique_combinations) {
    for (const key of combo.fields) {
      if (!fields.some((field) => field.key === key)) push("invalid_reference", undefined, `Unique combination "${combo.name}" names "${key}", which is not a field of the model.`);
    }
  }
  // Components: nested keys that a JSON reader could not tell apart.
  forEachFieldScope(fields, (scope, prefix, depth) => {
    if (depth === 0) return;
    const seen = new Map<string, string>();
    for (const field of scope) {
      const folded = field.key.toLowerCase();
      const earlier = seen.get(folded);
      if (earlier !== undefined) push("ambiguous_component", fieldPathOf(fields, prefix), `Nested fields "${earlier}" and "${field.key}" differ only in case.`);
      seen.set(folded, field.key);
    }
  });
}

/** Relation definitions: kinds the tables cannot hold, targets, bounds. */
function relationProblems(model: GeneratorModel, fields: readonly FieldDefinition[], models: ReadonlyMap<string, GeneratorModel>, problems: GenerationProblem[]): void {
  const push = (code: GenerationProblem["code"], field: string, detail: string) => problems.push({ code, model: model.slug, field, detail });
  forEachFieldScope(fields, (scope, prefix, depth) => {
    for (const field of scope) {
      if (field.type !== "relation") continue;
      const path = depth === 0 ? field.key : `${fieldPathOf(fields, prefix)}.${field.key}`;
      const kind = relationKind(field);
      if (depth > 0 && (kind === "one_to_many" || field.localized_membership === true || field.hierarchy === true)) {
        push("relation_type_unsupported", path, `A component cannot hold ${field.hierarchy === true ? "a hierarchy link" : kind === "one_to_many" ? "a one_to_many relation" : "a per-language list"}: the component's rows have no table of their own.`);
      }
      if (depth === 0 && field.localized_membership === true && !model.i18n) push("relation_type_unsupported", path, "A per-language list needs a translated model.");
      if (field.hierarchy === true && isToMany(kind)) push("relation_type_unsupported", path, "A hierarchy (parent) link is to-one.");
      for (const target of field.targets ?? []) {
        if (!models.has(target)) push("relation_target_absent", path, `Target model "${target}" is not a model of the site.`);
      }
      const rules = field.validation ?? {};
      const min = rules.min_items ?? (field.required === true && isToMany(kind) ? 1 : 0);
      const max = rules.max_items;
      if (max !== undefined && min > max) push("relation_bounds_unsatisfiable", path, `At least ${min} and at most ${max} items cannot both hold.`);
      else if (isToMany(kind) && min > 1 && (field.targets ?? []).every((t) => models.get(t)?.kind === "single")) {
        push("relation_bounds_unsatisfiable", path, `At least ${min} items are needed, but the targets are single models holding one item each.`);
      }
    }
  });
}

/** Required to-one links between models (and required parents) that leave no order to insert rows in. */
function requiredCycleProblems(parsed: readonly ParsedModel[], problems: GenerationProblem[]): void {
  const edges = new Map<string, { to: string; field: string }[]>();
  for (const { model, fields } of parsed) {
    for (const field of fields) {
      if (field.type !== "relation" || field.required !== true || field.condition !== undefined || isToMany(relationKind(field))) continue;
      const list = edges.get(model.id) ?? [];
      for (const target of field.targets ?? []) list.push({ to: target, field: field.key });
      edges.set(model.id, list);
    }
  }
  const slugOf = new Map(parsed.map(({ model }) => [model.id, model.slug] as const));
  const reported = new Set<string>();
  for (const start of edges.keys()) {
    // Depth-first walk from each model: a path back to it is a cycle.
    const stack: { at: string; path: { model: string; field: string }[] }[] = [{ at: start, path: [] }];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const { at, path } = stack.pop() as { at: string; path: { model: string; field: string }[] };
      for (const edge of edges.get(at) ?? []) {
        const next = [...path, { model: at, field: edge.field }];
        if (edge.to === start) {
          const first = next[0];
          const id = `${start}:${first?.field}`;
          if (first !== undefined && !reported.has(id)) {
            reported.add(id);
            problems.push({
              code: "relation_required_cycle",
              model: slugOf.get(start) ?? start,
              field: first.field,
              detail: `Required links form a cycle (${next.map((step) => `${slugOf.get(step.model) ?? step.model}.${step.field}`).join(" → ")}): no row could be created first.`,
            });
          }
        } else if (!seen.has(edge.to)) {
          seen.add(edge.to);
          stack.push({ at: edge.to, path: next });
        }
      }
    }
  }
}

/** Table and column names: models meeting on one API name or table, columns meeting case-insensitively. */
function nameProblems(plans: readonly ModelPlan[], problems: GenerationProblem[]): void {
  const owners = new Map<string, { model: string; what: string; field?: string }>();
  const claim = (name: string, who: { model: string; what: string; field?: string }) => {
    const earlier = owners.get(name);
    if (earlier === undefined) {
      owners.set(name, who);
      return;
    }
    const code = who.what === "join table" || earlier.what === "join table" ? "ambiguous_relation" : "model_name_collision";
    const blamed = who.what === "join table" ? who : earlier.what === "join table" ? earlier : who;
    problems.push({
      code,
      model: blamed.model,
      ...(blamed.field !== undefined ? { field: blamed.field } : {}),
      detail: `Table "${name}" would be both the ${earlier.what} of ${earlier.model} and the ${who.what} of ${who.model}.`,
    });
  };
  for (const plan of plans) {
    if (isReservedTableName(plan.api)) {
      problems.push({ code: "model_name_collision", model: plan.model.slug, detail: `The model's API name "${plan.api}" (from "${plan.model.name}") is empty, starts with a digit or is reserved by the runtime.` });
    }
    claim(plan.api, { model: plan.model.slug, what: "table" });
    if (plan.translation) claim(plan.translation.name, { model: plan.model.slug, what: "translation table" });
  }
  for (const plan of plans) for (const join of plan.joins) claim(join.table, { model: plan.model.slug, what: "join table", field: join.field.key });
  for (const plan of plans) {
    for (const table of [plan.table, ...(plan.translation ? [plan.translation] : [])]) {
      const seen = new Map<string, string>();
      for (const column of table.columns) {
        const folded = column.name.toLowerCase();
        const earlier = seen.get(folded);
        if (earlier !== undefined && table === plan.table) {
          problems.push({ code: "column_name_collision", model: plan.model.slug, field: column.field?.key ?? column.name, detail: `Columns "${earlier}" and "${column.name}" of table "${table.name}" are one name to SQLite.` });
        }
        seen.set(folded, column.name);
      }
    }
  }
}

/** Every model-level problem of the site, and the plan of what parsed. */
export function modelProblems(models: readonly GeneratorModel[]): { problems: GenerationProblem[]; plans: ModelPlan[] } {
  const problems: GenerationProblem[] = [];
  const byId = new Map(models.map((model) => [model.id, model] as const));
  const ordered = [...models].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const parsed: ParsedModel[] = ordered.map((model) => ({ model, fields: parseFields(model, problems) }));
  for (const { model, fields } of parsed) {
    if (model.fields.length === 0) problems.push({ code: "empty_model", model: model.slug, detail: "A model with no field makes a table of nothing but ids." });
    fieldProblems(model, fields, problems);
    relationProblems(model, fields, byId, problems);
  }
  requiredCycleProblems(parsed, problems);
  const plans = planModels(parsed);
  nameProblems(plans, problems);
  return { problems, plans };
}

export { apiName, joinTable, translationTable };
