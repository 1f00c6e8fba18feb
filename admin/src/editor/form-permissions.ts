import { admin, type AdminAnswer } from "../api/client";
import type { Entry, FieldDefinition } from "../fields/types";

export type Permissions = AdminAnswer<"getPermissions">;

/** The person's effective permissions on a site (GET /api/permissions), read when an editor opens. */
export function loadPermissions(): Promise<Permissions> {
  return admin("getPermissions");
}

/**
 * Why the entry as a whole is read-only for this person, in words, or null when they may write it:
 * the service's answers (operations, update languages) read, never re-decided; a write the answer
 * did not foresee is still refused by the service and shown in words.
 */
export function entryReadOnlyReason(permissions: Permissions, entry: Entry): string | null {
  if (entry.trashed_at) return "This language is in Trash. Restore it to edit.";
  const model = permissions.models.find((m) => m.model_id === entry.model_id);
  const ops = model?.operations ?? [];
  const mayUpdate = ops.includes("update") || (ops.includes("update:own") && entry.owner_id === permissions.person_id);
  if (!mayUpdate) return ops.includes("update:own") ? "Your role may only edit entries you own." : "Your role may read this entry but not change it.";
  if (!(permissions.languages.update ?? []).includes(entry.lang)) return `Your role may not edit the ${entry.lang} language.`;
  return null;
}

/** Whether the person's role may write this top-level field (field limits). */
export function fieldWritable(permissions: Permissions, modelId: string, field: FieldDefinition): boolean {
  const model = permissions.models.find((m) => m.model_id === modelId);
  const id = typeof field.id === "string" ? field.id : field.key;
  return Boolean(model?.writable_field_ids.includes(id));
}

/** Whether the person's role may read this top-level field (the entry answers only readable fields). */
export function fieldReadable(permissions: Permissions, modelId: string, field: FieldDefinition): boolean {
  const model = permissions.models.find((m) => m.model_id === modelId);
  const id = typeof field.id === "string" ? field.id : field.key;
  return Boolean(model?.readable_field_ids.includes(id));
}
