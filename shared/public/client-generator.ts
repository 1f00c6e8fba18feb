import type { Model } from "../repositories/model-repository";
import type { Site } from "../repositories/site-repository";
import { MODEL_SLUG } from "../services/models/create-model";
import { CLIENT_RUNTIME, FIXED_TYPES } from "./client/fixed-source";
import { modelTypes } from "./client/model-types";
import { literal as str, typeNames } from "./client/names";

/**
 * A dependency-free TypeScript client for one site, typed by its public models. Regenerated on
 * request, so it follows model changes. Private models and private fields are never named.
 */
export function generatePublicClient(site: Site, models: readonly Model[], generatedAt: string): string {
  // A slug that does not validate has no public address either (schema/public-shapes.ts ModelPath).
  const publicModels = models.filter((m) => m.is_public && MODEL_SLUG.test(m.slug)).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const names = typeNames(publicModels);
  const nameOf = (m: Model) => names.get(m.id) ?? "";
  const modelMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)};`).join("\n");
  const relationMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)}RelationField;`).join("\n");
  const fieldKeyMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)}FieldKey;`).join("\n");
  return `// Driftwood public API client for site ${str(site.slug)}. Generated ${generatedAt}; do not edit.
// Regenerate after a model changes: GET {admin_url}/api/models/public-client.ts
/* eslint-disable */

export const SITE = ${str(site.slug)};
export const LOCALES = [${site.languages.map(str).join(",")}] as const;
export type Locale = (typeof LOCALES)[number];

export interface RelationRef {
  instance_id: string;
  model: string;
  slug: string | null;
  display: string | null;
}

export interface MediaRef {
  id: string;
  url: string;
  kind: string;
  mime_type: string;
  file_name: string;
  width: number | null;
  height: number | null;
  alt: string;
  focal: { x: number; y: number } | null;
  loading: string;
  fetch_priority: string;
  /** The item language's original: its override, else the fallback order's, else the default (lang null). */
  original?: { id: string; lang: string | null; url: string; mime_type: string; byte_length: number; width: number | null; height: number | null };
}

export interface Item<M extends string, F, R, Md> {
  id: string;
  slug: string | null;
  model: M;
  locale: string;
  version: string;
  /** When this language was last published. */
  published_at: string;
  /** When the item was first published in any language: lists are ordered by it, then by id. */
  first_published_at: string;
  fields: F;
  relations: R;
  media: Md;
}

export interface Page {
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

${publicModels.map((m) => modelTypes(m, nameOf(m))).join("\n\n")}

export interface Models {
${modelMap}
}
export type ModelSlug = keyof Models;

interface RelationFields {
${relationMap}
}

interface FieldKeys {
${fieldKeyMap}
}

${FIXED_TYPES}${CLIENT_RUNTIME}`;
}
