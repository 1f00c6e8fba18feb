import { sql, type Kysely } from "kysely";
import { PLUGIN_PAGE, type ContentSummary } from "../../../schema/plugin-protocol";
import type { FieldValue } from "../../../schema/model-definition";
import { decide, readableFieldIds } from "../../auth/permissions";
import { availableTransitions } from "../../content/workflow";
import { toKeyedValues } from "../../content/validate-fields";
import type { Database, EntryRow, PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import { toModel } from "../../repositories/model-repository";
import { createDb } from "../../db/client";
import { readTogether } from "../../db/read-together";
import type { Actor } from "../lifecycle/context";
import { installationGrant } from "./installations";

/**
 * What a plugin reads through the protocol (docs/plugins.md, "Protocol v1"): content summaries of
 * its granted models, and one entry with its draft fields. Only `content:read` opens these; the
 * `workflow` key appears only with `workflow:read`. Entries in the Trash or of another site do not
 * exist for the plugin (content_not_found); an entry of a model outside the grant is
 * capability_refused, as a list of that model is.
 */

type SummaryRow = Pick<
  EntryRow,
  | "instance_id" | "primary_instance_id" | "translation_group_id" | "model_id" | "lang" | "label" | "slug" | "current_version_id" | "published_version_id" | "workflow_state" | "workflow_revision" | "trashed_at"
> & { model_slug: string };

const SUMMARY_COLUMNS = [
  "entries.instance_id",
  "entries.primary_instance_id",
  "entries.translation_group_id",
  "entries.model_id",
  "entries.lang",
  "entries.label",
  "entries.slug",
  "entries.current_version_id",
  "entries.published_version_id",
  "entries.workflow_state",
  "entries.workflow_revision",
  "entries.trashed_at",
  "models.slug as model_slug",
] as const;

function refuseCapability(message: string, details?: Record<string, unknown>): AppError {
  return new AppError("capability_refused", message, details);
}

/** The protocol's transitions: publish and unpublish only (editorial moves are not offered to plugins). */
export function protocolWorkflow(entry: Parameters<typeof availableTransitions>[0] & { workflow_revision: number }) {
  return {
    state: entry.workflow_state,
    revision: entry.workflow_revision,
    transitions: availableTransitions(entry).flatMap((t) => (t.kind === "publish" || t.kind === "unpublish" ? [{ to: t.to, kind: t.kind }] : [])),
  };
}

/** A summary with exactly the spec's keys; `workflow` only when the plugin may read workflows. */
export function toSummary(row: SummaryRow, withWorkflow: boolean): ContentSummary {
  const summary: ContentSummary = {
    instance_id: row.instance_id,
    primary_instance_id: row.primary_instance_id,
    translation_group_id: row.translation_group_id,
    model_id: row.model_id,
    model_slug: row.model_slug,
    lang: row.lang,
    label: row.label,
    slug: row.slug,
    current_version_id: row.current_version_id,
    published_version_id: row.published_version_id,
  };
  if (withWorkflow) summary.workflow = protocolWorkflow(row);
  return summary;
}

/** Refuses unless the installation holds `capability`. */
export function requireCapability(installation: PluginInstallationsTable, capability: string): void {
  if (!installationGrant(installation).capabilities.some((c) => c === capability)) {
    throw refuseCapability(`The plugin is not granted "${capability}".`, { capability });
  }
}

function mayReadWorkflow(installation: PluginInstallationsTable): boolean {
  return installationGrant(installation).capabilities.includes("workflow:read");
}

export interface ContentListInput {
  model_id: string;
  published?: "true" | "false";
  after?: string;
  limit?: string;
}

export interface ContentPageAnswer {
  data: ContentSummary[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}

/** GET /content: a page of one granted model's entries outside the Trash, by instance id. */
export async function listContent(db: Kysely<Database>, installation: PluginInstallationsTable, input: ContentListInput): Promise<ContentPageAnswer> {
  requireCapability(installation, "content:read");
  if (!installationGrant(installation).model_ids.includes(input.model_id)) {
    throw refuseCapability("The plugin is not granted this model.", { model_id: input.model_id });
  }
  const limit = input.limit === undefined ? PLUGIN_PAGE.default : Number(input.limit);
  let query = db
    .selectFrom("entries")
    .innerJoin("models", (join) => join.onRef("models.id", "=", "entries.model_id").onRef("models.site_id", "=", "entries.site_id"))
    .select(SUMMARY_COLUMNS)
    .where("entries.site_id", "=", installation.site_id)
    .where("entries.model_id", "=", input.model_id)
    .where("entries.trashed_at", "is", null);
  if (input.published === "true") query = query.where("entries.published_version_id", "is not", null);
  if (input.published === "false") query = query.where("entries.published_version_id", "is", null);
  if (input.after !== undefined) query = query.where("entries.instance_id", ">", input.after);
  const rows = await query.orderBy("entries.instance_id", "asc").limit(limit + 1).execute();
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const withWorkflow = mayReadWorkflow(installation);
  return {
    data: page.map((row) => toSummary(row, withWorkflow)),
    page: { limit, has_more: hasMore, next_cursor: hasMore ? (page.at(-1)?.instance_id ?? null) : null },
  };
}

type GrantedEntryRow = SummaryRow & Pick<EntryRow, "owner_id" | "published_at" | "updated_at">;

/** The entry `instanceId` of the installation's site with its model's slug (none: unknown here). */
function grantedEntryQuery(db: Kysely<Database>, siteId: string, instanceId: string) {
  return db
    .selectFrom("entries")
    .innerJoin("models", (join) => join.onRef("models.id", "=", "entries.model_id").onRef("models.site_id", "=", "entries.site_id"))
    .select([...SUMMARY_COLUMNS, "entries.owner_id", "entries.published_at", "entries.updated_at"])
    .where("entries.site_id", "=", siteId)
    .where("entries.instance_id", "=", instanceId);
}

/**
 * One entry the plugin may see. Unknown, another site's or in the Trash: 404 content_not_found;
 * an entry of this site whose model the grant does not cover: 403 capability_refused (spec 1:
 * "capability or model not granted").
 */
export async function findGrantedEntry(db: Kysely<Database>, installation: PluginInstallationsTable, instanceId: string): Promise<GrantedEntryRow> {
  return grantedEntry(installation, await grantedEntryQuery(db, installation.site_id, instanceId).executeTakeFirst());
}

/** The refusals of `findGrantedEntry` over the row it reads. */
function grantedEntry(installation: PluginInstallationsTable, row: GrantedEntryRow | undefined): GrantedEntryRow {
  if (!row) throw new AppError("content_not_found", "No such content in this installation's scope.");
  // The model is asked before the Trash state, so nothing about content outside the grant is told.
  if (!installationGrant(installation).model_ids.includes(row.model_id)) throw refuseCapability("The plugin is not granted this entry's model.");
  if (row.trashed_at !== null) throw new AppError("content_not_found", "No such content in this installation's scope.");
  return row;
}

export interface ContentItemAnswer extends ContentSummary {
  fields: Record<string, FieldValue>;
  published_at: string | null;
  updated_at: string;
}

/**
 * GET /content/{instance_id}: the summary, the draft's fields by key, and times. With a delegate
 * (`delegation_id`), the person must be able to read the entry now, and only fields they may read
 * are shown. The entry, its model and its current version's fields are read in one D1 batch
 * (keyed through subqueries on the entry); they are looked at in the documented order.
 */
export async function readContent(
  d1: D1Database,
  installation: PluginInstallationsTable,
  instanceId: string,
  resolveDelegate: (() => Promise<Actor>) | null,
): Promise<ContentItemAnswer> {
  requireCapability(installation, "content:read");
  const db = createDb(d1);
  const siteId = installation.site_id;
  const entryOf = (column: "model_id" | "current_version_id") =>
    sql<string>`(SELECT ${sql.ref(column)} FROM entries WHERE site_id = ${siteId} AND instance_id = ${instanceId})`;
  const [entries, models, versions] = await readTogether(d1, [
    grantedEntryQuery(db, siteId, instanceId).compile(),
    db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "=", entryOf("model_id")).compile(),
    db.selectFrom("versions").select("fields").where("site_id", "=", siteId).where("id", "=", entryOf("current_version_id")).compile(),
  ] as const);
  const row = grantedEntry(installation, entries[0]);
  const model = models[0] ? toModel(models[0]) : undefined;
  if (!model) throw new AppError("content_not_found", "No such content in this installation's scope.");
  // The delegation is checked after the capability and the content, in the documented order.
  const delegate = resolveDelegate ? await resolveDelegate() : null;
  if (delegate) {
    const read = decide(delegate.permissions, { operation: "read", modelId: row.model_id, lang: row.lang, actorId: delegate.id });
    if (!read.allowed) throw new AppError("requester_unauthorized", "The person behind the delegation may not read this entry.");
  }
  // No current version: the subquery names none, and no row answers.
  const version = versions[0];
  const stored = version ? (JSON.parse(version.fields) as Record<string, FieldValue>) : {};
  const readable = delegate ? new Set(readableFieldIds(delegate.permissions, model.id, model.fields.map((f) => f.id))) : null;
  const visible: Record<string, FieldValue> = {};
  for (const [id, value] of Object.entries(stored)) if (readable === null || readable.has(id)) visible[id] = value;
  return {
    ...toSummary(row, mayReadWorkflow(installation)),
    fields: toKeyedValues(model.fields, visible),
    published_at: row.published_at,
    updated_at: row.updated_at,
  };
}
