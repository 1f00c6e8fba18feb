import type { EntryRow, VersionRow } from "../../db/database";
import { workflowView, type WorkflowView } from "../../content/workflow";
import { titleField, toKeyedValues } from "../../content/validate-fields";
import { decide, readableFieldIds } from "../../auth/permissions";
import type { FieldValue } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import type { Actor } from "./context";
import type { RichMarkupDropped } from "../../content/rich-text-rules";
import type { PermissionSet } from "../../../schema/permissions";

/**
 * An entry's (or version's) label as a reader sees it: the label is taken from the title field, so
 * a reader whose role may not read that field gets `null`.
 */
export function readableLabel(label: string | null, model: Pick<Model, "id" | "fields">, permissions: PermissionSet): string | null {
  const title = titleField(model.fields);
  if (!title) return label;
  return readableFieldIds(permissions, model.id, [title.id]).length > 0 ? label : null;
}

/** An entry as every write answers it and as reads show it (fields the actor may not read left out). */
export interface EntryView {
  instance_id: string;
  primary_instance_id: string;
  translation_group_id: string;
  model_id: string;
  model_slug: string;
  lang: string;
  slug: string | null;
  label: string | null;
  current_version_id: string | null;
  published_version_id: string | null;
  published_at: string | null;
  owner_id: string | null;
  trashed_at: string | null;
  created_at: string;
  updated_at: string;
  workflow: WorkflowView;
  fields: Record<string, FieldValue>;
  /** Writes only: markup the sanitiser left out of written rich-text values (docs/rich-text.md). */
  warnings?: RichMarkupDropped[];
}

/** A write's answer with its warnings, when there are any. */
export function withWarnings(view: EntryView, warnings: readonly RichMarkupDropped[]): EntryView {
  return warnings.length > 0 ? { ...view, warnings: [...warnings] } : view;
}

/**
 * The entry as `actor` may see it. Only fields the actor may read are shown; when it may not read
 * the entry's model or language at all (a write answer for a language it may create but not read),
 * no field and no label is shown.
 */
export function entryView(entry: EntryRow, model: Model, version: Pick<VersionRow, "fields"> | undefined, actor: Actor): EntryView {
  const stored = version ? (JSON.parse(version.fields) as Record<string, FieldValue>) : {};
  const mayRead = decide(actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed;
  const readable = new Set(mayRead ? readableFieldIds(actor.permissions, model.id, model.fields.map((f) => f.id)) : []);
  const visible: Record<string, FieldValue> = {};
  for (const [id, value] of Object.entries(stored)) if (readable.has(id)) visible[id] = value;
  return {
    instance_id: entry.instance_id,
    primary_instance_id: entry.primary_instance_id,
    translation_group_id: entry.translation_group_id,
    model_id: entry.model_id,
    model_slug: model.slug,
    lang: entry.lang,
    slug: entry.slug,
    label: mayRead ? readableLabel(entry.label, model, actor.permissions) : null,
    current_version_id: entry.current_version_id,
    published_version_id: entry.published_version_id,
    published_at: entry.published_at,
    owner_id: entry.owner_id,
    trashed_at: entry.trashed_at,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    workflow: workflowView(entry),
    fields: toKeyedValues(model.fields, visible),
  };
}
