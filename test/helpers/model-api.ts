import { seedSite, type SeededSite } from "./fixtures";
import { credential, manage } from "./manage-api";

/** One issue of a 422 answer (`field_validation_failed`, model-apply refusals). */
export type Issue = { path: string; code?: string; message: string };
export type Err = { error: { code: string; issues?: Issue[] } };
export interface WriteBody { model_id: string; revision: number }
/** A field definition as a model write sends it. */
export type Field = Record<string, unknown>;

/** A fresh site (with these settings) and a management credential for it. */
export async function siteWithCredential(settings: Record<string, unknown> = {}): Promise<{ s: SeededSite; token: string }> {
  const s = await seedSite({ settings });
  return { s, token: await credential(s) };
}

/** `POST /models` with these fields; the slug (and name) default to `defaultSlug`. */
export function modelCreator(defaultSlug: string) {
  return (token: string, fields: Field[], slug = defaultSlug) =>
    manage<WriteBody & Err>(token, "POST", "/models", { body: { definition: { model: { name: slug, slug }, fields } } });
}
