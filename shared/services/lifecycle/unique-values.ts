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
import { combinationId, combinationValue, resolvedCombinations } from "./unique-combinations";

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

/** One claim row: of a unique field (`id` its field id) or of a named combination (`id` `cmb:<name>`). */
export interface Claim {
  id: string;
  /** The field key, or the combination's name. */
  key: string;
  label: string;
  unique: "model" | "language";
  scope: string;
  value: string;
  /** A combination's member keys. */
  fields?: string[];
}

/** Whether entries of the model claim anything (unique fields or named combinations). */
export function hasUniqueClaims(model: Pick<Model, "fields" | "unique_combinations">): boolean {
  return uniqueFields(model.fields).length > 0 || model.unique_combinations.length > 0;
}

/** The claims of one entry language's values (stored by field id). */
export function claimsOf(model: Model, lang: string, stored: Readonly<Record<string, unknown>>): Claim[] {
  const fieldClaims = uniqueFields(model.fields).flatMap((field): Claim[] => {
    const value = uniqueValue(stored[field.id]);
    return value === null ? [] : [{ id: field.id, key: field.key, label: field.label, unique: field.unique ?? "model", scope: uniqueScope(field, lang), value }];
  });
  const combinationClaims = resolvedCombinations(model.unique_combinations, model.fields).flatMap(({ combination, members }): Claim[] => {
    const value = combinationValue(members, stored, uniqueValue);
    if (value === null) return [];
    const label = members.map((m) => m.label).join(" + ");
    return [{ id: combinationId(combination.name), key: combination.name, label, unique: combination.scope, scope: combination.scope === "language" ? lang : "", value, fields: [...combination.fields] }];
  });
  return [...fieldClaims, ...combinationClaims];
}

export interface ClaimIssue {
  path: string;
  code: "unique_taken";
  message: string;
  /** A named combination's refusal: its name and member keys (`path` is its first member). */
  combination?: string;
  fields?: string[];
  /** The holder, only when the actor may read it. */
  instance_id?: string;
  lang?: string;
}

/** The entry of another translation group holding a claim now (none when it is free). */
export function claimHolderQuery(ctx: LifecycleContext, modelId: string, groupId: string, claim: Claim) {
  return ctx.db
    .selectFrom("unique_values")
    .innerJoin("entries", (join) => join.onRef("entries.instance_id", "=", "unique_values.instance_id").onRef("entries.site_id", "=", "unique_values.site_id"))
    .select(["unique_values.instance_id", "entries.lang"])
    .where("unique_values.site_id", "=", ctx.site.id)
    .where("unique_values.model_id", "=", modelId)
    .where("unique_values.field_id", "=", claim.id)
    .where("unique_values.scope", "=", claim.scope)
    .where("unique_values.value", "=", claim.value)
    .where("unique_values.translation_group_id", "<>", groupId);
}

/** Claims another translation group holds now, as field issues naming the holder. */
export async function takenClaims(ctx: LifecycleContext, model: Model, groupId: string, claims: readonly Claim[], lang?: string): Promise<ClaimIssue[]> {
  const holders: ({ instance_id: string; lang: string } | undefined)[] = [];
  for (const claim of claims) holders.push(await claimHolderQuery(ctx, model.id, groupId, claim).executeTakeFirst());
  return claimIssues(ctx, model, claims, holders, lang);
}

/** The issues of claims whose holders (`claimHolderQuery`, one per claim, in order) were read. */
export function claimIssues(
  ctx: LifecycleContext,
  model: Model,
  claims: readonly Claim[],
  holders: readonly ({ instance_id: string; lang: string } | undefined)[],
  lang?: string,
): ClaimIssue[] {
  const issues: ClaimIssue[] = [];
  claims.forEach((claim, i) => {
    const holder = holders[i];
    if (holder) {
      const where = claim.unique === "language" ? " in this language" : "";
      issues.push({
        path: claim.fields?.[0] ?? claim.key,
        code: "unique_taken",
        message: claim.fields
          ? `The combination "${claim.key}" (${claim.label}) is already used by another entry${where}.`
          : `${claim.label} is already used by another entry${where}.`,
        ...(claim.fields ? { combination: claim.key, fields: claim.fields } : {}),
        ...revealEntry(ctx, { instance_id: holder.instance_id, model_id: model.id, lang: holder.lang }),
        ...(lang !== undefined ? { lang } : {}),
      });
    }
  });
  return issues;
}

/** Refuses claims another item holds: 422 field_validation_failed with one issue per field. */
export async function requireClaimsFree(ctx: LifecycleContext, model: Model, groupId: string, claims: readonly Claim[], message = "Some field values are not valid."): Promise<void> {
  requireNoClaimIssues(await takenClaims(ctx, model, groupId, claims), message);
}

/** Refuses when any claim is taken (the issues of `takenClaims` / `claimIssues`). */
export function requireNoClaimIssues(issues: readonly ClaimIssue[], message = "Some field values are not valid."): void {
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
 * a model without unique fields or combinations: a model apply removing the last one already dropped its claims.
 */
export function claimStatements(ctx: LifecycleContext, model: Model, holder: ClaimHolder, claims: readonly Claim[]): CompiledQuery[] {
  if (!hasUniqueClaims(model)) return [];
  return [
    ctx.db.deleteFrom("unique_values").where("site_id", "=", ctx.site.id).where("instance_id", "=", holder.instance_id).compile(),
    ...insertClaimStatements(
      ctx,
      model.id,
      claims.map((c) => ({ ...holder, field_id: c.id, scope: c.scope, value: c.value })),
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
      [ctx.site.id, model.id, c.id, c.scope, c.value, groupId],
    ),
  );
}
