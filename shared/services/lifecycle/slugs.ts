import { AppError } from "../../errors";
import { entryRepository } from "../../repositories/entry-repository";
import type { LifecycleContext } from "./context";
import { revealEntry } from "./load";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug from free text: lower-case ASCII words joined by hyphens ("Été à Paris" → "ete-a-paris"). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200)
    .replace(/-+$/, "");
}

export function requireValidSlug(slug: string): string {
  if (slug.length === 0 || slug.length > 200 || !SLUG.test(slug)) {
    throw new AppError("invalid_slug", "A slug is 1 to 200 lower-case letters, digits and single hyphens.", { slug });
  }
  return slug;
}

/**
 * The `slug_taken` refusal with its details, for a plan that left the slug to the unique index
 * (`idx_entries_slug`): reads the holder only after the batch refused.
 */
export function explainSlugTaken(ctx: LifecycleContext, modelId: string, lang: string, slug: string | null) {
  return async (refusal: AppError): Promise<AppError> => {
    if (refusal.code !== "slug_taken") return refusal;
    return requireFreeSlug(ctx, modelId, lang, slug).then(
      () => refusal,
      (explained: unknown) => (explained instanceof AppError ? explained : refusal),
    );
  };
}

/** Refuses a slug another live entry of the model and language holds (the unique index backs this up). */
export async function requireFreeSlug(
  ctx: LifecycleContext,
  modelId: string,
  lang: string,
  slug: string | null,
  exceptInstanceId?: string,
): Promise<void> {
  if (slug === null) return;
  const holder = await entryRepository(ctx.db, ctx.scope).findBySlug(modelId, lang, slug);
  if (holder && holder.instance_id !== exceptInstanceId) {
    throw new AppError("slug_taken", "Another entry of this model and language already uses this slug.", {
      slug,
      ...revealEntry(ctx, holder),
    });
  }
}
