import { AppError } from "../../errors";
import { entryRepository } from "../../repositories/entry-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import type { EntryView } from "../lifecycle/entry-view";
import { createEntry } from "../lifecycle/create-entry";
import { loadEntry } from "../lifecycle/load";
import { saveDraft } from "../lifecycle/save-draft";
import { requirePageAddressFree } from "./page-address";
import { parentField, requirePageModel } from "./page-model";
import { draftPages } from "./page-tree";

export interface SavePageInput {
  id?: string;
  lang?: string;
  slug?: string;
  parent_id?: string | null;
  expected_version_id?: string;
  fields?: Readonly<Record<string, unknown>>;
}

/** A page as the management API answers it: the entry, its parent's group and its path. */
export type PageView = EntryView & { parent_id: string | null; path: string | null; created?: boolean };

/**
 * The page editor's save (docs/pages.md): without `id` it creates a page of the page model with
 * its first draft (201, `created: true`), else it saves a new draft version of that page (200,
 * `created: false`) — one write either way, through the ordinary entry builders (permissions,
 * validation, slugs, relation rules with the parent link's cycle check, editing leases). Spec 2
 * rule 4 lists page saves among the commands kept in their own record: the key's record replays
 * the answer, which the surface turns into `created: false` (workers/manage/handlers/pages.ts).
 * A save that gives the page a new path is refused where a redirect or another item holds it
 * (page-address.ts).
 */
export async function savePage(ctx: LifecycleContext, input: SavePageInput): Promise<WritePlan<PageView>> {
  const model = await requirePageModel(ctx.db, ctx.scope);
  const parent = parentField(model);
  if (input.parent_id !== undefined && !parent) {
    throw new AppError("invalid_request", `The page model has no parent link (a to-one relation with hierarchy: true), so pages do not nest.`, { issues: [{ path: "parent_id", message: "pages of this site do not nest" }] });
  }
  if (parent && input.parent_id !== undefined && input.fields && parent.key in input.fields) {
    throw new AppError("invalid_request", `Give the parent once: parent_id or fields.${parent.key}.`, { issues: [{ path: `fields.${parent.key}`, message: "given with parent_id" }] });
  }
  const fields = { ...(input.fields ?? {}), ...(parent && input.parent_id !== undefined ? { [parent.key]: input.parent_id } : {}) };

  if (input.id === undefined) {
    const lang = input.lang ?? ctx.site.default_lang;
    const plan = await createEntry(ctx, { model_id: model.id, lang, ...(input.slug !== undefined ? { slug: input.slug } : {}), fields });
    const parentGroup = await parentGroupOf(ctx, input.parent_id ?? null);
    const path = await pathUnder(ctx, model, parent, lang, parentGroup, plan.answer.slug);
    await requirePageAddressFree(ctx, model, path);
    return { ...plan, status: 201, answer: { ...plan.answer, parent_id: parentGroup, path, created: true } };
  }

  const { entry } = await loadEntry(ctx, input.id);
  if (entry.model_id !== model.id) throw new AppError("not_found", "No such page.");
  if (input.lang !== undefined && input.lang !== entry.lang) {
    throw new AppError("invalid_request", "A saved page keeps its language; add a language to the entry instead.", { issues: [{ path: "lang", message: `the page is in ${entry.lang}` }] });
  }
  const plan = await saveDraft(ctx, { instance_id: entry.instance_id, expected_version_id: input.expected_version_id ?? entry.current_version_id ?? "", fields, ...(input.slug !== undefined ? { slug: input.slug } : {}) });
  const before = parent ? (await draftPages(ctx.d1, ctx.site.id, model, parent, entry.lang)).find((p) => p.instance_id === entry.instance_id) : undefined;
  const parentGroup = input.parent_id !== undefined ? await parentGroupOf(ctx, input.parent_id) : (before?.parent_id ?? null);
  const path = await pathUnder(ctx, model, parent, entry.lang, parentGroup, plan.answer.slug);
  // Checked when the save moves the page (a new slug or parent): a draft keeping its address stays editable.
  const pathBefore = parent ? (before?.path ?? null) : entry.slug === null ? null : `/${entry.slug}`;
  if (path !== pathBefore) await requirePageAddressFree(ctx, model, path);
  return { ...plan, status: 200, answer: { ...plan.answer, parent_id: parentGroup, path, created: false } };
}

/** The translation group of the parent page named by its instance id (the relation write checked it exists). */
async function parentGroupOf(ctx: LifecycleContext, parentId: string | null): Promise<string | null> {
  if (parentId === null) return null;
  const row = await entryRepository(ctx.db, ctx.scope).find(parentId);
  return row?.translation_group_id ?? parentId;
}

/** The path a page with this slug has under this parent, in the drafts as they stand. */
async function pathUnder(ctx: LifecycleContext, model: Parameters<typeof draftPages>[2], parent: Parameters<typeof draftPages>[3], lang: string, parentGroup: string | null, slug: string | null): Promise<string | null> {
  if (slug === null) return null;
  if (parentGroup === null) return `/${slug}`;
  const above = (await draftPages(ctx.d1, ctx.site.id, model, parent, lang)).find((p) => p.translation_group_id === parentGroup)?.path ?? null;
  return above === null ? null : `${above}/${slug}`;
}
