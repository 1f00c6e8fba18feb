/**
 * The relation rules of an entry write that read other content (docs/content-rules-relations.md):
 * a one_to_one / one_to_many target held by another item (409 relation_target_taken, or moved to
 * this item with `replace: true`), hierarchy (parent) links that would loop, and the item's shared
 * lists copied to its other languages. Each returns statements for the write's own batch, with
 * guards so the batch refuses what changed after the checks (the site's object serialises writes;
 * the guards keep each batch honest on its own).
 */
import { nestedDefinitions } from "../../content/components";
import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import { relationKind, type FieldDefinition, type FieldValue } from "../../../schema/model-definition";
import { entryRepository } from "../../repositories/entry-repository";
import type { EntryRow } from "../../db/database";
import type { Model } from "../../repositories/model-repository";
import { authorize } from "./authorize";
import type { LifecycleContext } from "./context";
import { revealEntry } from "./load";
import { prepareFields, type PreparedLink } from "./prepare-fields";
import { newVersionStatements } from "./version-statements";

/** The item a write saves: its instance (null while created), translation group (null for a new item) and language. */
export interface RelationSelf {
  instance_id: string | null;
  group_id: string | null;
  lang: string;
}

interface Holder {
  target_group_id: string;
  target_instance_id: string;
  instance_id: string;
  model_id: string;
  lang: string;
  in_draft: number;
  in_published: number;
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** The join naming items (not trashed) whose current draft or published version links a target through a field. */
const HELD_SQL = (groups: number, perLanguage: boolean) => `FROM relation_links rl JOIN entries e ON e.site_id = rl.site_id AND e.instance_id = rl.source_instance_id
  WHERE rl.site_id = ? AND rl.field_id = ? AND rl.target_group_id IN (${marks(groups)}) AND e.trashed_at IS NULL
    AND (rl.version_id = e.current_version_id OR rl.version_id = e.published_version_id)
    AND e.translation_group_id <> ?${perLanguage ? " AND e.lang = ?" : ""}`;

function heldParams(ctx: LifecycleContext, field: FieldDefinition, groups: readonly string[], self: RelationSelf): unknown[] {
  return [ctx.site.id, field.id, ...groups, self.group_id ?? "", ...(field.localized_membership === true ? [self.lang] : [])];
}

async function holdersOf(ctx: LifecycleContext, field: FieldDefinition, groups: readonly string[], self: RelationSelf): Promise<Holder[]> {
  const rows = await ctx.d1
    .prepare(
      `SELECT rl.target_group_id, rl.target_instance_id, e.instance_id, e.model_id, e.lang,
              MAX(rl.version_id = e.current_version_id) AS in_draft, MAX(rl.version_id IS e.published_version_id) AS in_published
       ${HELD_SQL(groups.length, field.localized_membership === true)}
       GROUP BY rl.target_group_id, rl.target_instance_id, e.instance_id`,
    )
    .bind(...heldParams(ctx, field, groups, self))
    .all<Holder>();
  return rows.results;
}

/**
 * A new draft version of another instance of the model with `change` applied to its stored values,
 * written by the actor (who must be allowed to update those fields there), guarded against a save
 * of that instance in between.
 */
async function rewriteInstance(
  ctx: LifecycleContext,
  model: Model,
  instanceId: string,
  fieldIds: readonly string[],
  change: (stored: Record<string, FieldValue>) => Record<string, FieldValue>,
): Promise<CompiledQuery[]> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const row: EntryRow | undefined = await entries.find(instanceId);
  if (!row || row.trashed_at !== null || row.current_version_id === null) return [];
  authorize(ctx.actor, { operation: "update", modelId: model.id, lang: row.lang, ownerId: row.owner_id, fieldIds: [...fieldIds], access: "write" });
  const version = await entries.findVersion(row.current_version_id);
  const before = version ? (JSON.parse(version.fields) as Record<string, FieldValue>) : {};
  const after = change({ ...before });
  if (JSON.stringify(after) === JSON.stringify(before)) return [];
  let prepared;
  try {
    prepared = await prepareFields(ctx, model, after, {}, row.slug);
  } catch (error) {
    // The holder's own rules (min_items, a required field) would break without the link: the
    // refusal names the holder, not the writer's own values (black-box probe finding).
    if (!(error instanceof AppError) || error.code !== "field_validation_failed") throw error;
    const keys = model.fields.filter((f) => fieldIds.includes(f.id)).map((f) => f.key);
    throw new AppError("relation_target_taken", `Moving these items here would leave the item that holds them (${row.instance_id}) without a valid "${keys.join(", ")}"; change that item first.`, {
      field: keys[0] ?? null,
      held_by: [row.instance_id],
      holder_issues: error.details?.issues ?? [],
    });
  }
  const at = isoAt(ctx.clock.now());
  const next = await newVersionStatements(ctx, model, row.instance_id, prepared, row.slug, at);
  return [
    guard(ctx.db, "version_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND current_version_id IS ?)", [row.instance_id, row.current_version_id]),
    ...next.statements,
    ctx.db
      .updateTable("entries")
      .set({ current_version_id: next.versionId, label: prepared.label ?? row.label, updated_at: at })
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", row.instance_id)
      .compile(),
  ];
}

/**
 * one_to_one / one_to_many: each target is held by one item through the field. A target another
 * item holds (its current draft or its published version, not in Trash; per language with
 * localized_membership) is refused 409 relation_target_taken; a write carrying `replace: false`
 * (the related-from editor before the person confirmed) 409 related_from_replace_unconfirmed; with
 * `replace: true` the holders' drafts lose the link in this batch — unless a holder's published
 * version holds it, which only publishing or unpublishing the holder can change (relation_target_taken).
 */
async function takenStatements(ctx: LifecycleContext, model: Model, field: FieldDefinition, links: readonly PreparedLink[], self: RelationSelf, replace: boolean | undefined): Promise<CompiledQuery[]> {
  const mine = links.filter((l) => l.field_id === field.id);
  if (mine.length === 0) return [];
  const groups = [...new Set(mine.map((l) => l.target_group_id))];
  const held = await holdersOf(ctx, field, groups, self);
  const statements: CompiledQuery[] = [];
  if (held.length > 0) {
    const targets = mine.filter((l) => held.some((h) => h.target_group_id === l.target_group_id)).map((l) => l.target_instance_id);
    const heldBy = [...new Set(held.map((h) => revealEntry(ctx, h).instance_id).filter((id): id is string => id !== undefined))];
    const details = { field: field.key, targets, held_by: heldBy };
    const published = held.some((h) => h.in_published === 1);
    if (replace === undefined || (replace && published)) {
      throw new AppError("relation_target_taken", published && replace
        ? `Another item's published version links these items through "${field.key}"; publish or unpublish it without them first.`
        : `Another item already links these items through "${field.key}".`, details);
    }
    if (!replace) {
      throw new AppError("related_from_replace_unconfirmed", `These items are linked from another item through "${field.key}"; confirm with "replace": true to move them here.`, details);
    }
    const byHolder = new Map<string, Set<string>>();
    for (const h of held) {
      if (!byHolder.has(h.instance_id)) byHolder.set(h.instance_id, new Set());
      byHolder.get(h.instance_id)?.add(h.target_instance_id);
    }
    for (const [instanceId, gone] of byHolder) {
      statements.push(
        ...(await rewriteInstance(ctx, model, instanceId, [field.id], (stored) => {
          const value = stored[field.id];
          const kept = (Array.isArray(value) ? value : typeof value === "string" ? [value] : []).filter((id): id is string => typeof id === "string" && !gone.has(id));
          return { ...stored, [field.id]: field.multiple === true ? kept : (kept[0] ?? null) };
        })),
      );
    }
  }
  statements.push(guard(ctx.db, "relation_target_taken", `NOT EXISTS (SELECT 1 ${HELD_SQL(groups.length, field.localized_membership === true)})`, heldParams(ctx, field, groups, self)));
  return statements;
}

/** The groups above `start` through the field's links in live drafts (`start` included). */
const ANCESTORS_SQL = `WITH RECURSIVE up(g) AS (
    SELECT ?
    UNION
    SELECT rl.target_group_id FROM up
      JOIN entries e ON e.site_id = ? AND e.translation_group_id = up.g AND e.trashed_at IS NULL
      JOIN relation_links rl ON rl.site_id = e.site_id AND rl.version_id = e.current_version_id AND rl.field_id = ?
  )
  SELECT 1 FROM up WHERE g = ?`;

/**
 * A hierarchy link never loops: the parent is not the item itself nor one of its descendants
 * (through the same field, in the live drafts of every language). 422 relation_hierarchy_cycle.
 */
async function hierarchyStatements(ctx: LifecycleContext, model: Model, field: FieldDefinition, links: readonly PreparedLink[], self: RelationSelf): Promise<CompiledQuery[]> {
  const parent = links.find((l) => l.field_id === field.id);
  if (!parent || self.group_id === null) return [];
  const params = [parent.target_group_id, ctx.site.id, field.id, self.group_id];
  const loops = parent.target_group_id === self.group_id || (await ctx.d1.prepare(`${ANCESTORS_SQL} LIMIT 1`).bind(...params).first()) !== null;
  if (loops) {
    throw new AppError("relation_hierarchy_cycle", `"${field.key}" would place the item under itself.`, { field: field.key, targets: [`${model.slug}:${parent.target_instance_id}`] });
  }
  return [guard(ctx.db, "relation_hierarchy_cycle", `NOT EXISTS (${ANCESTORS_SQL})`, params)];
}

/**
 * A relation field without localized_membership on a translated model is the item's list: a write
 * of it is copied to the item's other languages (a new draft version of each, in this batch, which
 * the actor must be allowed to update), so every language's draft holds the same list.
 */
async function sharedListStatements(ctx: LifecycleContext, model: Model, fields: readonly FieldDefinition[], stored: Readonly<Record<string, FieldValue>>, self: RelationSelf): Promise<CompiledQuery[]> {
  const shared = fields.filter((f) => f.localized_membership !== true);
  if (!model.i18n || shared.length === 0 || self.group_id === null) return [];
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(self.group_id);
  const statements: CompiledQuery[] = [];
  for (const sibling of group) {
    if (sibling.instance_id === self.instance_id || sibling.trashed_at !== null) continue;
    statements.push(
      ...(await rewriteInstance(ctx, model, sibling.instance_id, shared.map((f) => f.id), (values) => {
        for (const f of shared) values[f.id] = stored[f.id] ?? null;
        return values;
      })),
    );
  }
  return statements;
}

/**
 * The one_to_one fields inside these component fields, as the rules see a field: `id` their link id
 * (`relation_links.field_id`), `key` their key path (`seo.author`).
 */
function nestedOneToOne(fields: readonly FieldDefinition[]): FieldDefinition[] {
  return fields.flatMap((f) =>
    nestedDefinitions(f)
      .filter((n) => n.field.type === "relation" && relationKind(n.field) === "one_to_one")
      .map((n) => ({ ...n.field, id: n.linkId, key: n.keyPath })),
  );
}

/**
 * Every relation rule that reads other content, for the relation fields a write names (`keys`):
 * returns the statements (rewrites and guards) to commit with the write's version.
 */
export async function relationRuleStatements(
  ctx: LifecycleContext,
  model: Model,
  self: RelationSelf,
  keys: ReadonlySet<string>,
  base: Readonly<Record<string, FieldValue>>,
  stored: Readonly<Record<string, FieldValue>>,
  links: readonly PreparedLink[],
  replace: ReadonlyMap<string, boolean>,
): Promise<CompiledQuery[]> {
  const written = model.fields.filter((f) => f.type === "relation" && keys.has(f.key));
  const statements: CompiledQuery[] = [];
  for (const field of written) {
    if (field.hierarchy === true) statements.push(...(await hierarchyStatements(ctx, model, field, links, self)));
    const kind = relationKind(field);
    if (kind === "one_to_one" || kind === "one_to_many") statements.push(...(await takenStatements(ctx, model, field, links, self, replace.get(field.id))));
  }
  // A one_to_one inside a component: its target is held by one item through that nested field
  // (links stored under its link id), as at the top level; no `replace` form inside components.
  for (const nested of nestedOneToOne(model.fields.filter((f) => f.type === "component" && keys.has(f.key)))) {
    statements.push(...(await takenStatements(ctx, model, nested, links, self, undefined)));
  }
  // Only a list the write changes is copied: resending the item's list as it is asks nothing of its other languages.
  const changed = written.filter((f) => JSON.stringify(stored[f.id] ?? null) !== JSON.stringify(base[f.id] ?? null));
  statements.push(...(await sharedListStatements(ctx, model, changed, stored, self)));
  return statements;
}

/**
 * Restoring an item from Trash: its one_to_one / one_to_many targets must not have been taken by
 * another item meanwhile (409 relation_target_taken, nothing restored); guards for the batch.
 */
export async function restoredLinkStatements(ctx: LifecycleContext, model: Model, instances: readonly EntryRow[]): Promise<CompiledQuery[]> {
  const owned = [
    ...model.fields.filter((f) => f.type === "relation" && (relationKind(f) === "one_to_one" || relationKind(f) === "one_to_many")),
    ...nestedOneToOne(model.fields),
  ];
  const statements: CompiledQuery[] = [];
  for (const instance of owned.length > 0 ? instances : []) {
    const versions = [instance.current_version_id, instance.published_version_id].filter((id): id is string => id !== null);
    if (versions.length === 0) continue;
    const rows = await ctx.db
      .selectFrom("relation_links")
      .select(["field_id", "position", "target_instance_id", "target_group_id"])
      .where("site_id", "=", ctx.site.id)
      .where("version_id", "in", versions)
      .execute();
    const self: RelationSelf = { instance_id: instance.instance_id, group_id: instance.translation_group_id, lang: instance.lang };
    for (const field of owned) {
      const links = rows.filter((r) => r.field_id === field.id);
      if (links.length > 0) statements.push(...(await takenStatements(ctx, model, field, links, self, undefined)));
    }
  }
  return statements;
}
