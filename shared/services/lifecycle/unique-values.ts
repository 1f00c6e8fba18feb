/**
 * Unique fields (docs/unique-fields.md): every entry language claims the normalised values of its
 * current draft for the model's unique fields in `unique_values`, in the same batch as the write
 * that sets them. A pre-check refuses a value another item holds (422 field_validation_failed); a
 * claim taken between the pre-check and the commit aborts the batch through the table's trigger
 * (409 write_conflict).
 */
import type { CompiledQuery } from "kysely";
import { AppError } from "../../errors";
import { revealEntry } from "./load";
import { guard } from "../../db/batch";
import { chunk, rowsPerInsert } from "../../db/chunks";
import { UNIQUE_TYPES, type FieldDefinition } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";

/** A unique field with a supported type. */
export function uniqueFields(fields: readonly FieldDefinition[]): FieldDefinition[] {
  return fields.filter((f) => f.unique !== undefined && UNIQUE_TYPES.includes(f.type));
}

/** Refuses `unique` on a field whose type cannot be unique (422 unique_unsupported). */
export function requireUniqueSupported(fields: readonly { key: string; type: FieldDefinition["type"]; unique?: FieldDefinition["unique"] }[]): void {
  const refused = fields.filter((f) => f.unique !== undefined && !UNIQUE_TYPES.includes(f.type));
  if (refused.length > 0) {
    throw new AppError("unique_unsupported", `Only ${UNIQUE_TYPES.join(", ")} fields can be unique.`, {
      fields: refused.map((f) => ({ key: f.key, type: f.type })),
    });
  }
}

/**
 * The value a unique field claims, or null for an empty value (which claims nothing). Text is NFC
 * normalised, trimmed and lower-cased (so "Foo " and "foo" collide); a number is its canonical
 * JavaScript string (1, 1.5, 1e+21; -0 is 0).
 */
export function uniqueValue(value: unknown): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? String(value === 0 ? 0 : value) : null;
  if (typeof value === "string") {
    const normalised = value.normalize("NFC").trim().toLowerCase();
    return normalised === "" ? null : normalised;
  }
  return null;
}

/** The scope a field's claim lives in for an entry language. */
export function uniqueScope(field: FieldDefinition, lang: string): string {
  return field.unique === "language" ? lang : "";
}

export interface Claim {
  field: FieldDefinition;
  scope: string;
  value: string;
}

/** The claims of one entry language's values (stored by field id). */
export function claimsOf(model: Model, lang: string, stored: Readonly<Record<string, unknown>>): Claim[] {
  return uniqueFields(model.fields).flatMap((field) => {
    const value = uniqueValue(stored[field.id]);
    return value === null ? [] : [{ field, scope: uniqueScope(field, lang), value }];
  });
}

export interface ClaimIssue {
  path: string;
  code: "unique_taken";
  message: string;
  /** The holder, only when the actor may read it. */
  instance_id?: string;
  lang?: string;
}

/** Claims another translation group holds now, as field issues naming the holder. */
export async function takenClaims(ctx: LifecycleContext, model: Model, groupId: string, claims: readonly Claim[], lang?: string): Promise<ClaimIssue[]> {
  const issues: ClaimIssue[] = [];
  for (const claim of claims) {
    const holder = await ctx.db
      .selectFrom("unique_values")
      .innerJoin("entries", (join) => join.onRef("entries.instance_id", "=", "unique_values.instance_id").onRef("entries.site_id", "=", "unique_values.site_id"))
      .select(["unique_values.instance_id", "entries.lang"])
      .where("unique_values.site_id", "=", ctx.site.id)
      .where("unique_values.model_id", "=", model.id)
      .where("unique_values.field_id", "=", claim.field.id)
      .where("unique_values.scope", "=", claim.scope)
      .where("unique_values.value", "=", claim.value)
      .where("unique_values.translation_group_id", "<>", groupId)
      .executeTakeFirst();
    if (holder) {
      issues.push({
        path: claim.field.key,
        code: "unique_taken",
        message: `${claim.field.label} is already used by another entry${claim.field.unique === "language" ? " in this language" : ""}.`,
        ...revealEntry(ctx, { instance_id: holder.instance_id, model_id: model.id, lang: holder.lang }),
        ...(lang !== undefined ? { lang } : {}),
      });
    }
  }
  return issues;
}

/** Refuses claims another item holds: 422 field_validation_failed with one issue per field. */
export async function requireClaimsFree(ctx: LifecycleContext, model: Model, groupId: string, claims: readonly Claim[], message = "Some field values are not valid."): Promise<void> {
  const issues = await takenClaims(ctx, model, groupId, claims);
  if (issues.length > 0) throw new AppError("field_validation_failed", message, { issues });
}

export interface ClaimHolder {
  instance_id: string;
  translation_group_id: string;
}

/** Rows inserting claims (the table's trigger refuses one another group holds). */
export function insertClaimStatements(ctx: LifecycleContext, modelId: string, rows: readonly (ClaimHolder & { field_id: string; scope: string; value: string })[]): CompiledQuery[] {
  const values = rows.map((r) => ({
    site_id: ctx.site.id,
    model_id: modelId,
    field_id: r.field_id,
    scope: r.scope,
    value: r.value,
    translation_group_id: r.translation_group_id,
    instance_id: r.instance_id,
  }));
  return chunk(values, rowsPerInsert(7)).map((part) => ctx.db.insertInto("unique_values").values(part).compile());
}

/**
 * Statements replacing an entry language's claims by `claims` (its new current draft). Nothing for
 * a model without unique fields: a model apply removing the last one already dropped its claims.
 */
export function claimStatements(ctx: LifecycleContext, model: Model, holder: ClaimHolder, claims: readonly Claim[]): CompiledQuery[] {
  if (uniqueFields(model.fields).length === 0) return [];
  return [
    ctx.db.deleteFrom("unique_values").where("site_id", "=", ctx.site.id).where("instance_id", "=", holder.instance_id).compile(),
    ...insertClaimStatements(
      ctx,
      model.id,
      claims.map((c) => ({ ...holder, field_id: c.field.id, scope: c.scope, value: c.value })),
    ),
  ];
}

/** Statements dropping every claim of the given entry languages (Trash, purge). */
export function releaseStatements(ctx: LifecycleContext, instanceIds: readonly string[]): CompiledQuery[] {
  return chunk(instanceIds, 90).map((part) => ctx.db.deleteFrom("unique_values").where("site_id", "=", ctx.site.id).where("instance_id", "in", part).compile());
}

/** Guards that abort the batch (409 write_conflict) when another item holds one of the claims. */
export function claimGuards(ctx: LifecycleContext, model: Model, groupId: string, claims: readonly Claim[]): CompiledQuery[] {
  return claims.map((c) =>
    guard(
      ctx.db,
      "write_conflict",
      "NOT EXISTS (SELECT 1 FROM unique_values WHERE site_id = ? AND model_id = ? AND field_id = ? AND scope = ? AND value = ? AND translation_group_id <> ?)",
      [ctx.site.id, model.id, c.field.id, c.scope, c.value, groupId],
    ),
  );
}
