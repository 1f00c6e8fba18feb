/**
 * The relation routes (spec 3, "Relation routes"; docs/generated-backend.md, "Relations"):
 * `GET|PUT /api/<owner>/relations/<field>`, `POST /api/<owner>/with-relations` and the join tables'
 * reads `/api/<owner>_<field>[_<target>][/paginated|/unique]`. Each inherits an operation of the
 * owner model: its availability (a disabled one takes the route with it) and its access mode.
 */
import { authorize, type Caller } from "./access.js";
import { batchError, requireBatch } from "./batch.js";
import { HttpError, invalid, json } from "./errors.js";
import { joinRead } from "./join-reads.js";
import { joinTables } from "./join-tables.js";
import { overrideOf } from "./overrides.js";
import { checkList, guardStatement, parseRefs, presentRefs, readList, sameList, writeStatements, type ListKey, type Ref } from "./relation-lists.js";
import type { RelationSchema } from "./relation-types.js";
import { readBody, type Backend } from "./router.js";
import { uniqueWhere } from "./query.js";
import { operationSettings, type ModelSchema, type Operation } from "./schema-types.js";
import { isPlainObject } from "./values.js";
import { seesPrivate } from "./visibility.js";
import { createWithRelations, listFields } from "./with-relations.js";

/**
 * The owner operation a relation route inherits, by method: a disabled one leaves the path like a
 * disabled row operation does (405 with the methods left in `Allow`, 404 when none is left); then
 * the caller is checked under the operation's access mode.
 */
function inherit(backend: Backend, caller: Caller, owner: ModelSchema, method: string, byMethod: Record<string, Operation>): Operation {
  const enabled = Object.entries(byMethod).filter(([, operation]) => operationSettings(backend.operations, owner.api, operation).enabled);
  if (enabled.length === 0) throw new HttpError(404, "not_found", "No operation is enabled on this route.");
  const operation = enabled.find(([verb]) => verb === method)?.[1];
  if (operation === undefined) {
    const allow = enabled.map(([verb]) => verb).join(", ");
    throw new HttpError(405, "method_not_allowed", `Use ${allow}.`, {}, { allow });
  }
  authorize(caller, operation, owner.api, operationSettings(backend.operations, owner.api, operation).access, backend.serviceToken);
  return operation;
}

/** The language of a per-language list: required there, one the site was generated with. */
function languageOf(backend: Backend, rel: RelationSchema, locale: unknown, path: string): string | null {
  if (!rel.localized) {
    if (locale !== undefined) throw invalid(`${rel.field} is one list for every language: leave out ${path}.`, path);
    return null;
  }
  if (typeof locale !== "string" || locale === "") throw invalid(`${rel.field} keeps a list per language: name it with ${path}.`, path);
  if (!backend.schema.site.languages.includes(locale)) throw new HttpError(422, "unknown_locale", `${locale} is not a language this backend was generated with (${backend.schema.site.languages.join(", ")}).`, { locale });
  return locale;
}

async function ownerIdOf(backend: Backend, owner: ModelSchema, where: unknown): Promise<string> {
  const { column, value } = uniqueWhere(owner, where);
  const row = (await backend.db.selectFrom(owner.api).select("id").where(column.name, "=", value).executeTakeFirst()) as { id: string } | undefined;
  if (row === undefined) throw new HttpError(404, "not_found", "No row matches where.");
  return row.id;
}

async function getList(url: URL, backend: Backend, caller: Caller, owner: ModelSchema, rel: RelationSchema): Promise<Response> {
  for (const name of url.searchParams.keys()) if (name !== "id" && name !== "locale") throw invalid(`${name} is not an argument (id, locale).`, name);
  // Private values go to the service caller and to read tokens whose scope covers the model (visibility.ts).
  if (rel.private && !seesPrivate(caller, owner.api)) throw new HttpError(403, "forbidden", `${rel.field} is private: it needs the service token or a read token for ${owner.api}.`);
  const id = url.searchParams.get("id");
  if (id === null || id === "") throw invalid("id is required: the owner row's id.", "id");
  const locale = url.searchParams.get("locale") ?? undefined;
  const lang = rel.localized ? languageOf(backend, rel, locale, "locale") : null;
  const ownerId = await ownerIdOf(backend, owner, { id });
  return json(presentRefs((await readList(backend.db, rel, { owner, ownerId, lang })).refs));
}

/** `set` replaces; `disconnect` removes (an unlinked id counts as done), then `connect` appends what is not linked yet. */
function resultingList(rel: RelationSchema, body: Record<string, unknown>, stored: readonly Ref[]): Ref[] {
  if (body.set !== undefined) {
    if (body.connect !== undefined || body.disconnect !== undefined) throw invalid("set replaces the list: it cannot be combined with connect or disconnect.", "set");
    return parseRefs(rel, body.set, "set");
  }
  if (body.connect === undefined && body.disconnect === undefined) throw invalid("Give set, or connect and/or disconnect.", "set");
  const key = (ref: Ref) => `${ref.model}:${ref.id}`;
  const removed = new Set(body.disconnect === undefined ? [] : parseRefs(rel, body.disconnect, "disconnect").map(key));
  const kept = stored.filter((ref) => !removed.has(key(ref)));
  const added = body.connect === undefined ? [] : parseRefs(rel, body.connect, "connect");
  const linked = new Set(kept.map(key));
  return [...kept, ...added.filter((ref) => !linked.has(key(ref)))];
}

async function putList(request: Request, backend: Backend, owner: ModelSchema, rel: RelationSchema): Promise<Response> {
  const body = await readBody(request);
  if (!isPlainObject(body)) throw invalid("The body must be an object { where, set } or { where, connect?, disconnect? }.");
  for (const name of Object.keys(body)) if (!["where", "set", "connect", "disconnect", "locale"].includes(name)) throw invalid(`${name} is not allowed here (where, set, connect, disconnect, locale).`, name);
  const batch = requireBatch(backend.batch);
  const lang = languageOf(backend, rel, body.locale, "locale");
  const key: ListKey = { owner, ownerId: await ownerIdOf(backend, owner, body.where), lang };
  const { refs: stored, stamp } = await readList(backend.db, rel, key);
  const next = resultingList(rel, body, stored);
  await checkList(backend.db, rel, key, next);
  if (sameList(stored, next)) return json(presentRefs(stored));
  const now = (backend.now ?? (() => new Date().toISOString()))();
  const statements = [
    guardStatement(backend.db, rel, key, stamp),
    ...writeStatements(backend.db, rel, key, next),
    backend.db.updateTable(owner.api).set({ updated_at: now }).where("id", "=", key.ownerId).compile(),
  ];
  try {
    await batch(statements);
  } catch (error) {
    throw batchError(error, new HttpError(409, "relation_changed_concurrently", "A target or the owner changed while the list was written: nothing was written."));
  }
  return json(presentRefs(next));
}

/** The answer of a relation route, or undefined when the path is none of them. */
export async function routeRelations(request: Request, url: URL, backend: Backend, caller: Caller): Promise<Response | undefined> {
  const list = /^\/api\/([a-z0-9]+)\/relations\/([A-Za-z0-9_]+)\/?$/.exec(url.pathname);
  if (list) {
    const owner = backend.schema.models.find((m) => m.api === list[1]);
    const rel = owner?.relations?.find((r) => r.field === list[2]);
    if (owner === undefined || rel === undefined) throw new HttpError(404, "not_found", "No such relation field.");
    if (inherit(backend, caller, owner, request.method, { GET: "findUnique", PUT: "update" }) === "findUnique") return getList(url, backend, caller, owner, rel);
    if (url.search !== "") throw invalid("Writes take no query parameters.");
    return putList(request, backend, owner, rel);
  }
  const atomic = /^\/api\/([a-z0-9]+)\/with-relations\/?$/.exec(url.pathname);
  if (atomic) {
    const owner = backend.schema.models.find((m) => m.api === atomic[1]);
    if (owner === undefined || listFields(owner).length === 0) throw new HttpError(404, "not_found", "No such route: with-relations serves models with a list relation.");
    inherit(backend, caller, owner, request.method, { POST: "create" });
    // The owner's create runs code of its own: it cannot join the row and its links in one batch.
    if (overrideOf(backend.overrides, owner, "create") !== undefined) {
      throw new HttpError(501, "atomic_create_unavailable", `${owner.pascal}.create is overridden (src/overrides.ts): create the row with POST /api/${owner.api}, then write its lists with PUT /api/${owner.api}/relations/<field>.`);
    }
    if (url.search !== "") throw invalid("Writes take no query parameters.");
    const created = await createWithRelations(backend, owner, await readBody(request));
    return json(created, 201);
  }
  const join = /^\/api\/([a-z0-9]+_[a-z0-9_]+?)(\/paginated|\/unique)?\/?$/.exec(url.pathname);
  const table = join ? joinTables(backend.schema).find((t) => t.table === join[1]) : undefined;
  if (join && table) {
    const operation: Operation = join[2] === "/paginated" ? "findManyPaginated" : join[2] === "/unique" ? "findUnique" : "findMany";
    inherit(backend, caller, table.owner, request.method, { GET: operation });
    if (table.rel.private && !seesPrivate(caller, table.owner.api)) throw new HttpError(403, "forbidden", `${table.rel.field} is private: it needs the service token or a read token for ${table.owner.api}.`);
    return json(await joinRead(backend.db, table, operation, url));
  }
  return undefined;
}
