/*
 * The client is code that people compile and run: every text that comes from a site (model names,
 * field labels, option values, slugs) goes in only through `literal` (a string literal) or `comment`
 * (the inside of a comment), and identifiers are derived only from slugs that passed validation.
 */
import type { Model } from "../../repositories/model-repository";

/** A TypeScript string literal of any text (JSON escapes, plus the two line separators JSON leaves raw). */
export function literal(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Any text made safe inside a comment: cannot close it, cannot end its line. */
export function comment(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " ");
}

/** PascalCase type name of a validated model slug ("blog-post" → "BlogPost"). */
function typeName(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Names the client itself declares, which no model type may take. */
const DECLARED = ["SITE", "LOCALES", "Locale", "RelationRef", "MediaRef", "Item", "Page", "Models", "ModelSlug", "RelationFields", "ListOptions", "ItemOptions", "DriftwoodError", "ClientOptions", "createClient", "SyncRecord", "SyncMedia", "SyncPage", "SyncMirror", "SyncResult", "AnyItem", "MenuItem", "ChromeMedia", "SiteChrome"];
const TYPE_SUFFIXES = ["", "Fields", "Relations", "Media", "RelationField"];

/**
 * A distinct type name per model (slugs sorted): the PascalCase slug, or with `Model` (then a number)
 * added when that name, or one of its companion types, is taken ("item" → "ItemModel"; "a-b" and
 * "a--b" both PascalCase to "AB").
 */
export function typeNames(models: readonly Model[]): Map<string, string> {
  const used = new Set(DECLARED);
  const names = new Map<string, string>();
  for (const model of models) {
    const base = typeName(model.slug);
    const candidates = [base, `${base}Model`, ...Array.from({ length: models.length }, (_, i) => `${base}Model${i + 2}`)];
    const name = candidates.find((c) => TYPE_SUFFIXES.every((suffix) => !used.has(c + suffix))) ?? base;
    for (const suffix of TYPE_SUFFIXES) used.add(name + suffix);
    names.set(model.id, name);
  }
  return names;
}
