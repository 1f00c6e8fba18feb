/**
 * The relation triggers of the emitted migration (docs/generated-backend.md, "Relations"): a guard
 * view whose insert aborts a batch (list writes insert into it when the list changed after it was
 * read: 409 relation_changed_concurrently), one position order across a field's join tables, and at
 * most one reference in a mixed to-one field. Dropped first and created last by every migration.
 */
import type { JoinPlan, ModelPlan } from "./plan";

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The view list writes insert a reason into to abort their batch (runtime/relations.ts). */
export const GUARD_VIEW = "_driftwood_guard";
const GUARD_REASONS = ["relation_changed_concurrently", "relation_target_taken"] as const;

function fieldTriggers(joins: readonly JoinPlan[]): { drop: string[]; create: string[] } {
  const drop: string[] = [];
  const create: string[] = [];
  for (const join of joins) {
    const sameList = (table: string, extra: string) =>
      `SELECT 1 FROM ${q(table)} WHERE "owner_id" = NEW."owner_id"${join.localized ? ' AND "lang" = NEW."lang"' : ""}${extra}`;
    const taken = joins.map((other) => sameList(other.table, join.toOne ? "" : ' AND "position" = NEW."position"')).join(" UNION ALL ");
    const name = `${join.table}_one_order`;
    drop.push(`DROP TRIGGER IF EXISTS ${q(name)};`);
    create.push(`CREATE TRIGGER ${q(name)} BEFORE INSERT ON ${q(join.table)}\nWHEN EXISTS (${taken})\nBEGIN SELECT RAISE(ABORT, 'relation_changed_concurrently: ${join.table}'); END;`);
  }
  return { drop, create };
}

/** The guard view and every join table's order trigger. */
export function relationTriggers(plans: readonly ModelPlan[]): { drop: string[]; create: string[] } {
  const drop = [`DROP VIEW IF EXISTS ${q(GUARD_VIEW)};`];
  const create = [
    `CREATE VIEW ${q(GUARD_VIEW)} AS SELECT NULL AS "reason";`,
    ...GUARD_REASONS.map(
      (reason) => `CREATE TRIGGER ${q(`${GUARD_VIEW}_${reason}`)} INSTEAD OF INSERT ON ${q(GUARD_VIEW)}\nWHEN NEW."reason" = '${reason}'\nBEGIN SELECT RAISE(ABORT, '${reason}'); END;`,
    ),
  ];
  for (const plan of plans) {
    const fields = new Map<string, JoinPlan[]>();
    for (const join of plan.joins) fields.set(join.field.id, [...(fields.get(join.field.id) ?? []), join]);
    for (const joins of fields.values()) {
      const triggers = fieldTriggers(joins);
      drop.push(...triggers.drop);
      create.push(...triggers.create);
    }
  }
  return { drop, create };
}
