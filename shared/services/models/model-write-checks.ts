/** The refusals every model write asks first: permissions, the expected revision, duplicate keys, slug and name collisions. */
import { AppError } from "../../errors";
import { hasSystemPermission } from "../../auth/permissions";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { MODEL_SLUG } from "./create-model";

/** Refuses (missing_permission) an actor without model:apply. */
export function needApply(ctx: Pick<LifecycleContext, "actor">): void {
  if (!hasSystemPermission(ctx.actor.permissions, "model:apply")) throw new AppError("missing_permission", "Changing models needs model:apply.");
}

/**
 * The permissions a write to an existing model needs before anything about the model is told:
 * model:apply, and model:delete for a removal. Callers that look the model up first (the
 * management handlers) ask this before answering not_found for a model the person may not read,
 * so a real unreadable model and a made-up id get the same refusal.
 */
export function authoriseModelWrite(ctx: Pick<LifecycleContext, "actor">, write: "change" | "remove"): void {
  needApply(ctx);
  if (write === "remove" && !hasSystemPermission(ctx.actor.permissions, "model:delete")) throw new AppError("missing_permission", "Deleting a model needs model:delete.");
}

/** Refuses (model_changed) a write whose expected revision is not the model's current one. */
export function checkRevision(model: Model, expected: number): void {
  if (model.revision !== expected) {
    throw new AppError("model_changed", "The model changed since it was read; read it again.", { current_revision: model.revision, current_updated_at: model.updated_at });
  }
}

/** Refuses (duplicate_field_key) fields that use a key twice. */
export function checkDuplicateKeys(fields: readonly { key: string }[]): void {
  const seen = new Set<string>();
  const dup = fields.filter((f) => (seen.has(f.key) ? true : (seen.add(f.key), false))).map((f) => f.key);
  if (dup.length > 0) throw new AppError("duplicate_field_key", "A field key is used by more than one field.", { keys: [...new Set(dup)] });
}

/** Checks a model's slug form and that no other model uses its slug or name; answers every model of the site. */
export async function checkNames(ctx: LifecycleContext, self: string, slug: string, name: string): Promise<Model[]> {
  if (!MODEL_SLUG.test(slug)) throw new AppError("invalid_request", "A model slug is a lower-case letter then letters, digits or hyphens (at most 64).", { slug });
  const all = await modelRepository(ctx.db, ctx.scope).list();
  const others = all.filter((m) => m.id !== self);
  if (others.some((m) => m.slug === slug)) throw new AppError("model_slug_taken", "Another model uses this slug.", { slug });
  if (others.some((m) => m.name === name)) throw new AppError("model_name_collision", "Another model has this name.", { name });
  return all;
}
