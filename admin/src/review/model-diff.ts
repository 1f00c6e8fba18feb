import { show } from "../ui/field-diff";
import type { FieldDef } from "./entry-lookup";
import { typeWords } from "./words";

/** One setting of a model or field that a proposal changes, as words. */
export interface SettingChange {
  setting: string;
  before: string;
  after: string;
}

export interface FieldChange {
  key: string;
  label: string;
  type: string;
  /** For a changed field: the settings that change (label, type, required, options, …). */
  settings: SettingChange[];
}

export interface DefinitionChanges {
  model: SettingChange[];
  added: FieldChange[];
  removed: FieldChange[];
  changed: FieldChange[];
  unchanged: number;
}

const SETTING_WORDS: Record<string, string> = {
  key: "Key",
  label: "Label",
  type: "Type",
  required: "Required",
  private: "Private",
  title: "Used as title",
  help: "Help text",
  multiple: "Several values",
  options: "Options",
  targets: "Linked models",
  relation: "Relation kind",
  hierarchy: "Parent link",
  localized_membership: "Links per language",
  validation: "Validation",
  unique: "Unique",
  condition: "Shown when",
  fields: "Component fields",
  name: "Name",
  slug: "Slug",
  enableI18n: "Languages",
  description: "Description",
  kind: "Kind",
  is_public: "Public",
  settings: "Settings",
  unique_combinations: "Unique combinations",
};

export const settingWords = (setting: string): string => SETTING_WORDS[setting] ?? setting;

/** A setting's value as words: yes/no for booleans, "(not set)" for nothing. */
function valueWords(value: unknown): string {
  if (value === undefined || value === null || value === "") return "(not set)";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value) && value.every((o) => typeof o === "object" && o !== null && "value" in o)) {
    return value.map((o: { value: unknown; label?: unknown }) => (typeof o.label === "string" && o.label !== String(o.value) ? `${String(o.value)} (${o.label})` : String(o.value))).join(", ");
  }
  return show(value);
}

/** Settings whose absence means false, so "absent → false" is no change. */
const FALSE_BY_DEFAULT = new Set(["required", "private", "title", "multiple", "hierarchy", "localized_membership"]);

function sameValue(setting: string, a: unknown, b: unknown): boolean {
  if (FALSE_BY_DEFAULT.has(setting) && !a && !b) return true;
  return JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
}

/** Objects with sorted keys, so key order is no change. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, normalise(v)]));
  return value;
}

function settingChanges(before: Record<string, unknown>, after: Record<string, unknown>, skip: readonly string[] = []): SettingChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.includes(k));
  return keys
    .filter((k) => !sameValue(k, before[k], after[k]))
    .map((k) => ({ setting: settingWords(k), before: k === "type" ? typeWords(before[k]) : valueWords(before[k]), after: k === "type" ? typeWords(after[k]) : valueWords(after[k]) }));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const asField = (f: FieldDef): FieldChange => ({ key: f.key, label: typeof f.label === "string" && f.label ? f.label : f.key, type: typeof f.type === "string" ? f.type : "", settings: [] });

/**
 * What a model proposal changes against the model as it is now: model settings the proposal names
 * (a left-out setting keeps its value), and fields matched by id — a proposed field without an id
 * (or with one the model lacks) is added, a current field the proposal leaves out is removed, a
 * field kept by id lists its settings that change. A new model (`current` null): every field added.
 */
export function definitionChanges(proposed: { model: Record<string, unknown>; fields: readonly Record<string, unknown>[] }, current: { model: Record<string, unknown>; fields: readonly Record<string, unknown>[] } | null): DefinitionChanges {
  const proposedFields = proposed.fields.filter((f): f is FieldDef => typeof f.key === "string");
  if (!current) {
    return { model: [], added: proposedFields.map(asField), removed: [], changed: [], unchanged: 0 };
  }
  // A proposal's model settings name only the keys they change (the others keep their value).
  const proposedModel: Record<string, unknown> = Object.fromEntries(Object.entries(proposed.model).filter(([, v]) => v !== undefined));
  if (isObject(proposedModel.settings) && isObject(current.model.settings)) proposedModel.settings = { ...current.model.settings, ...proposedModel.settings };
  const model = settingChanges(
    current.model,
    proposedModel,
    Object.keys(current.model).filter((k) => !(k in proposed.model)),
  );
  const currentFields = current.fields.filter((f): f is FieldDef => typeof f.key === "string");
  const byId = new Map(currentFields.map((f) => [String(f.id ?? f.key), f]));
  const kept = new Set<string>();
  const added: FieldChange[] = [];
  const changed: FieldChange[] = [];
  let unchanged = 0;
  for (const f of proposedFields) {
    const id = typeof f.id === "string" ? f.id : undefined;
    const was = id !== undefined ? byId.get(id) : undefined;
    if (!was || id === undefined) {
      added.push(asField(f));
      continue;
    }
    kept.add(id);
    const settings = settingChanges(was, f, ["id"]);
    if (settings.length) changed.push({ ...asField(f), settings });
    else unchanged += 1;
  }
  const removed = currentFields.filter((f) => !kept.has(String(f.id ?? f.key))).map(asField);
  return { model, added, removed, changed, unchanged };
}
