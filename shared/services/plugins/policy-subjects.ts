import type { Kysely } from "kysely";
import type { FieldValue } from "../../../schema/model-definition";
import { toKeyedValues } from "../../content/validate-fields";
import type { Database } from "../../db/database";
import { toModel } from "../../repositories/model-repository";
import type { Site } from "../../repositories/site-repository";
import { PAGE_MODEL_SLUG } from "../pages/page-model";
import type { PolicyOperation, PolicySubject } from "./policies";

/**
 * Which writes ask content policies, and about what (spec 2 rule 14; docs/plugin-policies.md,
 * "Which writes"). A save (create, save, add language, proposal apply) sends the fields about to be
 * written and may be transformed; publish, unpublish (also a plugin's transitions), workflow move,
 * Trash, purge, restore from the Trash and version restore send the entry's current values (a
 * version restore: the restored version's) and may only be allowed or refused. Any other command
 * asks no policy. A command naming no entry we can find asks none either: its own checks refuse it.
 */

const ENTRY_WRITES: Readonly<Record<string, PolicyOperation>> = {
  publish: "publish",
  pluginPublish: "publish",
  unpublish: "unpublish",
  pluginUnpublish: "unpublish",
  move: "move",
  trash: "delete",
  purge: "delete",
  restore: "restore",
  restoreVersion: "restore",
};

/**
 * Writes of several entry languages at once, asked as each language's single publish or unpublish
 * would be (docs/plugin-policies.md, "Releases and schedules"): a release (`publishRelease`, on
 * demand or fired by the alarm) and a schedule the alarm fires (`fireSchedule`, input
 * `{ action, pins }`: the pins it is about to move). Never transformable.
 */
export const SET_COMMANDS: ReadonlySet<string> = new Set(["publishRelease", "fireSchedule"]);

/** The commands that ask content policies. */
export const POLICY_COMMANDS: ReadonlySet<string> = new Set(["createEntry", "saveDraft", "addLanguage", "applyProposal", "savePage", ...Object.keys(ENTRY_WRITES), ...SET_COMMANDS]);

/** One entry language a set command changes, in its order: what its single route would be. */
export interface SetMember {
  index: number;
  command: "publish" | "unpublish";
  instance_id: string;
}

/** The members of a set command (a release's changes, a firing schedule's pins); empty for any other command. */
export async function setMembers(db: Kysely<Database>, site: Site, command: string, input: Input): Promise<SetMember[]> {
  if (command === "publishRelease") {
    const row = await db.selectFrom("releases").select("changes").where("site_id", "=", site.id).where("id", "=", str(input.release_id) ?? "").executeTakeFirst();
    if (!row) return [];
    const changes = JSON.parse(row.changes) as { instance_id: string; action: "publish" | "unpublish" }[];
    return changes.map((c, index) => ({ index, command: c.action, instance_id: c.instance_id }));
  }
  if (command === "fireSchedule") {
    const action = input.action === "unpublish" ? "unpublish" : "publish";
    const pins = Array.isArray(input.pins) ? (input.pins as { instance_id?: unknown }[]) : [];
    return pins.flatMap((pin, index) => (typeof pin.instance_id === "string" ? [{ index, command: action, instance_id: pin.instance_id } as const] : []));
  }
  return [];
}

type Input = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const obj = (value: unknown): Record<string, unknown> | undefined => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

async function modelOf(db: Kysely<Database>, siteId: string, modelId: string) {
  const row = await db.selectFrom("models").selectAll().where("site_id", "=", siteId).where("id", "=", modelId).executeTakeFirst();
  return row ? toModel(row) : undefined;
}

async function entryOf(db: Kysely<Database>, siteId: string, instanceId: string) {
  return db
    .selectFrom("entries")
    .select(["instance_id", "model_id", "lang", "current_version_id"])
    .where("site_id", "=", siteId)
    .where("instance_id", "=", instanceId)
    .executeTakeFirst();
}

async function versionFields(db: Kysely<Database>, siteId: string, versionId: string | null): Promise<Record<string, FieldValue>> {
  if (!versionId) return {};
  const row = await db.selectFrom("versions").select("fields").where("site_id", "=", siteId).where("id", "=", versionId).executeTakeFirst();
  return row ? (JSON.parse(row.fields) as Record<string, FieldValue>) : {};
}

/** The subject of a command's policies, or null when it asks none. */
export async function policySubject(db: Kysely<Database>, site: Site, command: string, input: Input): Promise<PolicySubject | null> {
  if (!POLICY_COMMANDS.has(command)) return null;
  if (command === "savePage") return pageSaveSubject(db, site, input);
  if (command === "createEntry") {
    const model = await modelOf(db, site.id, str(input.model_id) ?? "");
    const fields = obj(input.fields);
    if (!model || !fields) return null;
    return { operation: "create", instance_id: null, model_id: model.id, model_slug: model.slug, lang: str(input.lang) ?? site.default_lang, fields: { ...fields }, transformable: true };
  }
  let instanceId = str(input.instance_id);
  let fields = obj(input.fields);
  if (command === "applyProposal") {
    const proposal = await db.selectFrom("entry_proposals").select(["instance_id", "fields"]).where("site_id", "=", site.id).where("id", "=", str(input.proposal_id) ?? "").executeTakeFirst();
    if (!proposal) return null;
    instanceId = proposal.instance_id;
    fields = obj(JSON.parse(proposal.fields) as unknown);
  }
  const entry = await entryOf(db, site.id, instanceId ?? "");
  if (!entry) return null;
  const model = await modelOf(db, site.id, entry.model_id);
  if (!model) return null;
  const base = { instance_id: entry.instance_id, model_id: model.id, model_slug: model.slug };
  if (command === "saveDraft" || command === "applyProposal") {
    return fields ? { ...base, operation: "save", lang: entry.lang, fields: { ...fields }, transformable: command === "saveDraft" } : null;
  }
  if (command === "addLanguage") {
    return { ...base, instance_id: null, operation: "save", lang: str(input.lang) ?? entry.lang, fields: { ...(fields ?? {}) }, transformable: fields !== undefined };
  }
  const operation = ENTRY_WRITES[command];
  if (!operation) return null;
  const versionId = command === "restoreVersion" ? (str(input.version_id) ?? null) : entry.current_version_id;
  const values = toKeyedValues(model.fields, await versionFields(db, site.id, versionId));
  return { ...base, operation, lang: entry.lang, fields: values as Record<string, unknown>, transformable: false };
}

/**
 * The page editor's save (`savePage`, docs/pages.md) is a create of the page model without `id`,
 * else a save of that page: asked exactly as `createEntry` / `saveDraft` would be, so a page cannot
 * go round a policy its entry routes are held to. A parent given as `parent_id` is not a field
 * value here (the policy sees it when given as the parent field). An `id` that is no page asks
 * nothing: the save's own checks refuse it.
 */
async function pageSaveSubject(db: Kysely<Database>, site: Site, input: Input): Promise<PolicySubject | null> {
  // `fields` is optional here (a page created or moved by its slug alone): that save is asked too,
  // with no values, as an added language without fields is, and may then only be allowed or refused.
  const fields = obj(input.fields);
  const asked = { fields: { ...(fields ?? {}) }, transformable: fields !== undefined };
  const id = str(input.id);
  const model = await db.selectFrom("models").select(["id", "slug"]).where("site_id", "=", site.id).where("slug", "=", PAGE_MODEL_SLUG).where("kind", "=", "collection").executeTakeFirst();
  if (!model) return null;
  if (id === undefined) {
    return { operation: "create", instance_id: null, model_id: model.id, model_slug: model.slug, lang: str(input.lang) ?? site.default_lang, ...asked };
  }
  const entry = await entryOf(db, site.id, id);
  if (!entry || entry.model_id !== model.id) return null;
  return { operation: "save", instance_id: entry.instance_id, model_id: model.id, model_slug: model.slug, lang: entry.lang, ...asked };
}

/** The command's input with the fields a transform wrote. */
export function withFields(input: Input, fields: Record<string, unknown>): Input {
  return { ...input, fields };
}
