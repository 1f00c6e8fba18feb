import { sql, type CompiledQuery, type Kysely } from "kysely";
import { createDb } from "../../db/client";
import { compiledOnce } from "../../db/compiled-once";
import type { Database, EntryRow, ModelRow, VersionRow } from "../../db/database";
import { readTogether, type RowsTogether } from "../../db/read-together";
import { toModel, type Model } from "../../repositories/model-repository";
import { toSite, type Site } from "../../repositories/site-repository";
import { declaredPolicyQuery } from "../plugins/policies";

/**
 * What a write's first reads would fetch, fetched together before its plan is built: the entry the
 * command names (`instance_id`) with its model and current version, or the model it names
 * (`model_id`). `loadEntry` / `loadModelForEntries` take these instead of reading again. Read in
 * the site's write queue, so they are what those reads would have answered.
 */
export type Preloaded =
  | { kind: "entry"; instanceId: string; entry: EntryRow | undefined; model: Model | undefined; version: VersionRow | undefined }
  | { kind: "model"; modelId: string; model: Model | undefined };

/**
 * The site and the preloaded rows in one D1 batch (for a site outside the control database, one
 * batch per database): a save or publish pays one round trip for what took four.
 */
export async function preloadWrite(
  d1: D1Database,
  siteId: string,
  input: object,
  options: { policies?: boolean } = {},
): Promise<{ site: Site | undefined; preloaded?: Preloaded; declaresPolicies?: boolean }> {
  const db = createDb(d1);
  // Whether the site declares a content policy (policies.ts `declaredPolicyQuery`), in the same batch when asked.
  const policyQuery = options.policies ? policyRead(db, { siteId })[0] : undefined;
  const instanceId = "instance_id" in input && typeof input.instance_id === "string" ? input.instance_id : undefined;
  const modelId = "model_id" in input && typeof input.model_id === "string" ? input.model_id : undefined;
  if (instanceId !== undefined) {
    const { rows, declaresPolicies } = await readWith(d1, siteAndEntryReads(db, { siteId, instanceId }), policyQuery);
    const [sites, entries, models, versions] = rows;
    return { site: sites[0] ? toSite(sites[0]) : undefined, preloaded: { kind: "entry", instanceId, ...entryFrom(entries, models, versions) }, ...declaresPolicies };
  }
  if (modelId !== undefined) {
    const { rows, declaresPolicies } = await readWith(d1, siteAndModelReads(db, { siteId, modelId }), policyQuery);
    const [sites, models] = rows;
    const model = models[0];
    return { site: sites[0] ? toSite(sites[0]) : undefined, preloaded: { kind: "model", modelId, model: model ? toModel(model) : undefined }, ...declaresPolicies };
  }
  const { rows, declaresPolicies } = await readWith(d1, siteRead(db, { siteId }), policyQuery);
  const [sites] = rows;
  return { site: sites[0] ? toSite(sites[0]) : undefined, ...declaresPolicies };
}

/**
 * The first reads of a group of creates run together (group commit, objects/site/write-group.ts):
 * the site once, each model they name once, and whether the site declares a content policy when
 * asked — one D1 batch for the group where each create alone paid one. Creates change neither the
 * site, its models nor its policies, so each member gets what its own first reads would have.
 */
export async function preloadGroup(
  d1: D1Database,
  siteId: string,
  modelIds: readonly string[],
  options: { policies?: boolean } = {},
): Promise<{ site: Site | undefined; models: Map<string, Model | undefined>; declaresPolicies?: boolean }> {
  const db = createDb(d1);
  const distinct = [...new Set(modelIds)];
  const queries = [siteRead(db, { siteId })[0], ...distinct.map((modelId) => modelRead(db, { siteId, modelId })[0])];
  const policyQuery = options.policies ? policyRead(db, { siteId })[0] : undefined;
  const { rows, declaresPolicies } = await readWith(d1, queries, policyQuery);
  const [sites, ...models] = rows as [SiteRows, ...ModelRow[][]];
  const byId = new Map(distinct.map((id, i) => [id, models[i]?.[0]] as const));
  const site = sites[0];
  return { site: site ? toSite(site) : undefined, models: new Map([...byId].map(([id, row]) => [id, row ? toModel(row) : undefined])), ...declaresPolicies };
}

type SiteRows = RowsTogether<ReturnType<typeof siteRead>>[0];

/*
 * A write's first reads, compiled once per isolate (db/compiled-once.ts): every create, save and
 * publish sends the same statements with its own keys (docs/write-fairness.md, "CPU per write").
 */
const siteQuery = (db: Kysely<Database>, siteId: string) => db.selectFrom("sites").selectAll().where("id", "=", siteId).compile();
const modelQuery = (db: Kysely<Database>, siteId: string, modelId: string) => db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "=", modelId).compile();
const siteRead = compiledOnce(["siteId"], (db, p) => [siteQuery(db, p("siteId"))] as const);
const siteAndEntryReads = compiledOnce(["siteId", "instanceId"], (db, p) => [siteQuery(db, p("siteId")), ...entryQueries(db, p("siteId"), p("instanceId"))] as const);
const siteAndModelReads = compiledOnce(["siteId", "modelId"], (db, p) => [siteQuery(db, p("siteId")), modelQuery(db, p("siteId"), p("modelId"))] as const);
const modelRead = compiledOnce(["siteId", "modelId"], (db, p) => [modelQuery(db, p("siteId"), p("modelId"))] as const);
const policyRead = compiledOnce(["siteId"], (db, p) => [declaredPolicyQuery(db, p("siteId"))] as const);
const entryReads = compiledOnce(["siteId", "instanceId"], (db, p) => entryQueries(db, p("siteId"), p("instanceId")));

/** `queries` in one batch, with the policy query last when given: their rows, and `{ declaresPolicies }` when it was asked. */
async function readWith<const Q extends readonly CompiledQuery<unknown>[]>(
  d1: D1Database,
  queries: Q,
  policyQuery: CompiledQuery<{ id: string }> | undefined,
): Promise<{ rows: RowsTogether<Q>; declaresPolicies?: { declaresPolicies: boolean } }> {
  const { rows, extra } = await readTogether(d1, queries, policyQuery);
  return { rows, ...(extra ? { declaresPolicies: { declaresPolicies: extra.length > 0 } } : {}) };
}

/**
 * An entry of the site with its model and current version, in one D1 round trip (the model and
 * version keyed through subqueries on the entry): what a read of one entry needs.
 */
export async function readEntryTogether(d1: D1Database, siteId: string, instanceId: string): Promise<EntryTogether> {
  const [entries, models, versions] = await readTogether(d1, entryReads(createDb(d1), { siteId, instanceId }));
  return entryFrom(entries, models, versions);
}

export interface EntryTogether {
  entry: EntryRow | undefined;
  model: Model | undefined;
  version: VersionRow | undefined;
}

function entryQueries(db: Kysely<Database>, siteId: string, instanceId: string) {
  const entryOf = (column: "model_id" | "current_version_id") =>
    sql<string>`(SELECT ${sql.ref(column)} FROM entries WHERE site_id = ${siteId} AND instance_id = ${instanceId})`;
  return [
    db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("instance_id", "=", instanceId).compile(),
    db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "=", entryOf("model_id")).compile(),
    db.selectFrom("versions").selectAll().where("site_id", "=", siteId).where("id", "=", entryOf("current_version_id")).compile(),
  ] as const;
}

function entryFrom(entries: EntryRow[], models: ModelRow[], versions: VersionRow[]): EntryTogether {
  const model = models[0];
  return { entry: entries[0], model: model ? toModel(model) : undefined, version: versions[0] };
}
