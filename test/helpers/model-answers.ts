/** The management API's model answers as the manage-models*.test.ts files read them, and a model's row as D1 holds it. */
import { env } from "cloudflare:test";
import type { SeededSite } from "./fixtures";

export type Err = { error: { code: string; [k: string]: unknown } };
export interface Field { id: string; key: string; label: string; type: string; required?: boolean; options?: { value: string; label: string }[] }
export interface ModelBody { id: string; slug: string; name: string; folder: string | null; revision: number; updated_at: string; definition: { model: { name: string; slug: string; [k: string]: unknown }; fields: Field[] } }
export interface WriteBody { model_id: string; slug: string; revision: number; created_field_ids: string[]; renamed_from: string | null; dependents?: { complete: boolean }; replayed?: boolean }

export async function modelRow(s: SeededSite, id: string) {
  return env.DB.prepare("SELECT slug, name, revision, definition, updated_at, folder FROM models WHERE site_id = ? AND id = ?").bind(s.site.id, id).first<{ slug: string; name: string; revision: number; definition: string; updated_at: string; folder: string | null }>();
}
