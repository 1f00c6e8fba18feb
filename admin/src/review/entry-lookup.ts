import { ApiError, manage, type ManageAnswer } from "../api/client";

export type Entry = ManageAnswer<"getEntry">;
export type Model = ManageAnswer<"getModel">;
export type FieldDef = { id?: string; key: string; label?: string; type?: string; [setting: string]: unknown };

/**
 * What the review screens show about the entries and models proposals name: entries read one by
 * one (the list names only `instance_id`) and models once per screen. An entry the person may no
 * longer read (or purged) is `null`, shown as "not available".
 */
export async function readEntries(ids: readonly string[], signal: AbortSignal): Promise<Map<string, Entry | null>> {
  const unique = [...new Set(ids)];
  const answers = await Promise.all(
    unique.map((id) =>
      manage("getEntry", { params: { id }, signal }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    ),
  );
  return new Map(unique.map((id, i) => [id, answers[i] ?? null]));
}

export async function readModels(signal: AbortSignal): Promise<Map<string, Model>> {
  const { data } = await manage("listModels", { signal });
  return new Map(data.map((m) => [m.id, m as Model]));
}

/** A model's fields in order (keys, labels, types). */
export function fieldsOf(model: Model | undefined | null): FieldDef[] {
  return (model?.definition.fields ?? []).filter((f): f is FieldDef => typeof f.key === "string");
}

/** Field labels by key. */
export function labelsOf(model: Model | undefined | null): Record<string, string> {
  return Object.fromEntries(fieldsOf(model).map((f) => [f.key, typeof f.label === "string" && f.label ? f.label : f.key]));
}
