import { AppError } from "../../errors";
import { chunk } from "../../db/chunks";
import type { EntryRow } from "../../db/database";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "./authorize";
import type { LifecycleContext } from "./context";
import { loadEntry, revealEntry } from "./load";

export interface RestoreCheck {
  instance_ids: string[];
  translation_group_id: string;
  /** Addresses another live entry took while this one was in Trash: restoring is refused (`slug_taken`) until they are free. */
  busy_addresses: { instance_id: string; lang: string; slug: string; held_by?: string }[];
  /** Links of the draft to items that are gone (purged) or in Trash: restoring keeps them, they point nowhere served. */
  broken_links: { instance_id: string; lang: string; field: string; target_instance_id: string; reason: "missing" | "in_trash" }[];
  /** False while an address is busy. */
  restorable: boolean;
}

/**
 * What restoring an item (or one language) from Trash would meet, shown before it is done (spec
 * 3, States: "busy addresses and broken links are shown first"). Writes nothing. Like the restore,
 * it needs delete on the model for every language concerned.
 */
export async function checkRestore(ctx: LifecycleContext, input: { instance_id: string; language_only?: boolean }): Promise<RestoreCheck> {
  const { entry, model } = await loadEntry(ctx, input.instance_id);
  const askDelete = (e: EntryRow) => authorize(ctx.actor, { operation: "delete", modelId: model.id, lang: e.lang, ownerId: e.owner_id });
  askDelete(entry);
  if (entry.trashed_at === null) throw new AppError("entry_not_in_trash", "The entry is not in Trash.");
  const entries = entryRepository(ctx.db, ctx.scope);
  const group = await entries.findGroup(entry.translation_group_id);
  const instances = input.language_only ? [entry] : group.filter((e) => e.trashed_at !== null);
  instances.forEach(askDelete);

  const busy: RestoreCheck["busy_addresses"] = [];
  for (const e of instances) {
    if (e.slug === null) continue;
    const holder = await entries.findBySlug(model.id, e.lang, e.slug);
    if (holder && holder.instance_id !== e.instance_id) busy.push({ instance_id: e.instance_id, lang: e.lang, slug: e.slug, ...heldBy(ctx, holder) });
  }

  const versions = instances.flatMap((e) => (e.current_version_id ? [e.current_version_id] : []));
  const links: { version_id: string; source_instance_id: string; field_id: string; target_instance_id: string; target_group_id: string }[] = [];
  for (const part of chunk(versions, 90)) {
    links.push(...(await ctx.db.selectFrom("relation_links").select(["version_id", "source_instance_id", "field_id", "target_instance_id", "target_group_id"]).where("site_id", "=", ctx.site.id).where("version_id", "in", part).execute()));
  }
  const groups = [...new Set(links.map((l) => l.target_group_id))];
  const live = new Set<string>();
  const known = new Set<string>();
  for (const part of chunk(groups, 90)) {
    const rows = await ctx.db.selectFrom("entries").select(["translation_group_id", "trashed_at"]).where("site_id", "=", ctx.site.id).where("translation_group_id", "in", part).execute();
    for (const r of rows) {
      known.add(r.translation_group_id);
      if (r.trashed_at === null) live.add(r.translation_group_id);
    }
  }
  const fieldKey = new Map(model.fields.map((f) => [f.id, f.key]));
  const langOf = new Map(instances.map((e) => [e.instance_id, e.lang]));
  const broken = links
    .filter((l) => !live.has(l.target_group_id))
    .map((l) => ({
      instance_id: l.source_instance_id,
      lang: langOf.get(l.source_instance_id) ?? "",
      field: fieldKey.get(l.field_id) ?? l.field_id,
      target_instance_id: l.target_instance_id,
      reason: known.has(l.target_group_id) ? ("in_trash" as const) : ("missing" as const),
    }));
  return { instance_ids: instances.map((e) => e.instance_id), translation_group_id: entry.translation_group_id, busy_addresses: busy, broken_links: broken, restorable: busy.length === 0 };
}

/** The live entry at the address, named only when the asker may read it. */
function heldBy(ctx: LifecycleContext, holder: EntryRow): { held_by?: string } {
  const revealed = revealEntry(ctx, holder).instance_id;
  return revealed ? { held_by: revealed } : {};
}
