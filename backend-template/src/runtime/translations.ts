/**
 * Translation tables' routes (spec 3 "Rules of locale rows", docs/generated-backend.md
 * "Translations"): `/api/<model>translation` serves the three reads like any table (inheriting the
 * model's reads) and create, update and delete for editors — create and update inherit
 * `<Model>.update`, delete inherits `<Model>.delete`. A locale row's language is one the site was
 * generated with (422 unknown_locale), its base row exists (422 translation_row_missing), one row
 * per language (409 locale_exists); an update changes translated values only.
 */
import type { ExpressionBuilder } from "kysely";
import type { AccessConfig, Caller } from "./access.js";
import { authorize } from "./access.js";
import { HttpError, invalid } from "./errors.js";
import { closed, guarded, runOperation, writeValues, type AnyDb } from "./rows.js";
import { OPERATION_ROUTES, OPERATIONS, operationSettings, READ_OPERATIONS, type ModelSchema, type OperationsConfig, type SiteSchema } from "./schema-types.js";
import { inheritedOperation, translationOwner, translationUpdateModel } from "./translation-schema.js";
import { isPlainObject, presentRow } from "./values.js";
import { seesPrivate } from "./visibility.js";

export interface TranslationCall {
  request: Request;
  /** `""`, `/paginated` or `/unique`. */
  path: string;
  owner: ModelSchema;
  caller: Caller;
  db: AnyDb;
  schema: SiteSchema;
  operations: OperationsConfig;
  access: AccessConfig;
  serviceToken: string | undefined;
  readArgs: () => Record<string, unknown>;
  readBody: () => Promise<unknown>;
  now: () => string;
  newId: () => string;
}

/** `where` of a locale row: `{ id }` or `{ <model>_id_lang: { <model>_id, lang } }` (Prisma's compound unique). */
function localeWhere(owner: ModelSchema, where: unknown): { id: string } | { base: string; lang: string } {
  const compound = `${owner.api}_id_lang`;
  if (!isPlainObject(where) || Object.keys(where).length !== 1) throw invalid(`where must be { id } or { ${compound}: { ${owner.api}_id, lang } }.`, "where");
  if (typeof where.id === "string") return { id: where.id };
  const pair = where[compound];
  if (isPlainObject(pair) && Object.keys(pair).length === 2 && typeof pair[`${owner.api}_id`] === "string" && typeof pair.lang === "string") {
    return { base: pair[`${owner.api}_id`] as string, lang: pair.lang };
  }
  throw invalid(`where must be { id } or { ${compound}: { ${owner.api}_id, lang } }.`, "where");
}

async function createLocaleRow(call: TranslationCall, table: ModelSchema): Promise<unknown> {
  const body = closed(await call.readBody(), ["data"], "");
  if (body.data === undefined) throw invalid("data is required.", "data");
  const values = writeValues(table, body.data, true);
  const base = values[`${call.owner.api}_id`];
  const lang = values.lang;
  if (typeof lang !== "string" || !call.schema.site.languages.includes(lang)) {
    throw new HttpError(422, "unknown_locale", `data.lang must be a language the site was generated with (${call.schema.site.languages.join(", ")}); a new language needs regeneration.`, { languages: call.schema.site.languages });
  }
  const exists = await call.db.selectFrom(call.owner.api).select("id").where("id", "=", base).executeTakeFirst();
  if (exists === undefined) throw new HttpError(422, "translation_row_missing", `No ${call.owner.api} row has id "${String(base)}".`, { [`${call.owner.api}_id`]: base });
  const now = call.now();
  try {
    const row = (await call.db
      .insertInto(table.api)
      .values({ ...values, id: call.newId(), created_at: now, updated_at: now })
      .returning(table.columns.map((c) => c.name))
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    return presentRow(table.columns, row, false);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // UNIQUE(<model>_id, lang): another request wrote this language first.
    if (/UNIQUE constraint failed: .*\blang\b/.test(message)) throw localeExists(lang);
    // The base row was deleted between the check and the insert.
    if (/FOREIGN KEY constraint failed/.test(message)) throw new HttpError(422, "translation_row_missing", `No ${call.owner.api} row has id "${String(base)}".`);
    return guarded("create", () => Promise.reject(error));
  }
}

const localeExists = (lang: string): HttpError => new HttpError(409, "locale_exists", `This row already has a "${lang}" locale row; update it instead.`, { lang });

async function changeLocaleRow(call: TranslationCall, table: ModelSchema, operation: "update" | "delete"): Promise<unknown> {
  const body = closed(await call.readBody(), operation === "update" ? ["where", "data"] : ["where"], "");
  const where = localeWhere(call.owner, body.where);
  const values = operation === "update" ? writeValues(translationUpdateModel(call.owner, table), body.data ?? invalidData(), false) : {};
  const names = table.columns.map((c) => c.name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are known only at run time
  const match = (eb: ExpressionBuilder<any, any>) => ("id" in where ? eb("id", "=", where.id) : eb.and([eb(`${call.owner.api}_id`, "=", where.base), eb("lang", "=", where.lang)]));
  const row = (await guarded(operation, () =>
    operation === "update"
      ? call.db.updateTable(table.api).set({ ...values, updated_at: call.now() }).where(match).returning(names).executeTakeFirst()
      : call.db.deleteFrom(table.api).where(match).returning(names).executeTakeFirst(),
  )) as Record<string, unknown> | undefined;
  if (row === undefined) throw new HttpError(404, "not_found", "No locale row matches where.");
  return presentRow(table.columns, row, false);
}

function invalidData(): never {
  throw invalid("data is required.", "data");
}

/** Answers a request to a translation table (router.ts hands it over). */
export { translationOwner };

export async function translationRoute(call: TranslationCall): Promise<{ status: number; body: unknown }> {
  const table = call.owner.translation as ModelSchema;
  const atPath = OPERATIONS.filter((op) => OPERATION_ROUTES[op].path === call.path);
  const enabled = atPath.filter((op) => operationSettings(call.operations, call.owner.api, inheritedOperation(op)).enabled);
  if (enabled.length === 0) throw new HttpError(404, "not_found", "No operation is enabled on this route.");
  const operation = enabled.find((op) => OPERATION_ROUTES[op].method === call.request.method);
  if (operation === undefined) {
    const allow = enabled.map((op) => OPERATION_ROUTES[op].method).join(", ");
    throw new HttpError(405, "method_not_allowed", `Use ${allow}.`, {}, { allow });
  }
  const inherited = inheritedOperation(operation);
  authorize(call.caller, inherited, call.owner.api, operationSettings(call.operations, call.owner.api, inherited).access, call.serviceToken);
  const isRead = READ_OPERATIONS.includes(operation);
  if (!isRead && new URL(call.request.url).search !== "") throw invalid("Writes take no query parameters.");
  if (isRead) {
    const body = await runOperation(operation, { db: call.db, model: table, args: call.readArgs(), body: undefined, withPrivate: seesPrivate(call.caller, call.owner.api), now: call.now, newId: call.newId });
    return { status: 200, body };
  }
  if (operation === "create") return { status: 201, body: await createLocaleRow(call, table) };
  return { status: 200, body: await changeLocaleRow(call, table, operation === "update" ? "update" : "delete") };
}
