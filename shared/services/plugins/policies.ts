import type { PluginManifest } from "../../../schema/plugin-manifest";
import { sql, type Kysely } from "kysely";
import type { Database, PluginInstallationsTable } from "../../db/database";
import { AppError } from "../../errors";
import type { Actor } from "../lifecycle/context";
import { activeInstallations, declaresList } from "./active-installations";
import { installationGrant, manifestOf } from "./installations";
import { callPlugin, type RemoteEnv, type RemoteFailure } from "./remote-call";
import * as v from "valibot";

/**
 * Content policies (spec 2 rule 14; docs/plugin-policies.md): before a save (a create is a save),
 * restore, deletion, publication, unpublication or workflow move, every content policy of an
 * active plugin granted the entry's model is asked — all at once, with the same subject — and may
 * allow, refuse or (a `transform` policy, on a save) change the fields about to be written.
 * Called by the site's object before the write enters its queue (objects/site/policy-step.ts), so
 * a slow plugin never holds the site's other writers.
 */

export type PolicyOperation = "create" | "save" | "restore" | "delete" | "publish" | "unpublish" | "move";

/** What a policy is asked about. */
export interface PolicySubject {
  operation: PolicyOperation;
  /** The entry; null for a create. */
  instance_id: string | null;
  model_id: string;
  model_slug: string;
  /** The language written (the `locale` of the answers). */
  lang: string;
  /** The fields about to be written (a save), or the entry's current values (any other write), by key. */
  fields: Record<string, unknown>;
  /** Whether a transform may apply (a save carrying fields). */
  transformable: boolean;
}

/** `caller.via` sent to the plugin: how the write came in. */
export type CallerVia = "management_credential" | "admin" | "plugin" | "system";

export function callerVia(actor: Actor): CallerVia {
  if (actor.kind === "management_credential") return "management_credential";
  if (actor.kind === "plugin") return "plugin";
  if (actor.kind === "person") return "admin";
  return "system";
}

/** A `policy_results` entry of an answer (spec 2 rule 14). */
export interface PolicyResult {
  installation_id: string;
  plugin_name: string;
  policy_id: string;
  policy_label: string;
  locale: string;
  message: string | null;
  fields: string[];
  outcome: "transformed" | "unavailable";
  failure?: RemoteFailure;
}

/** What the policy step gives a write: the input to build with, the answer's extra keys, and how to explain a refusal of transformed values. */
export interface Prepared<I> {
  input: I;
  extra: { policy_results: PolicyResult[] } | null;
  /** A refusal of the write, turned into the transform's refusal when a transform wrote the refused values. */
  explain: (failure: { code: string; message: string; details?: Record<string, unknown> }) => AppError | null;
}

/**
 * Asks the policies of one command (by name, with its input, as the single write would); objects/site/policy-step.ts.
 * `beforeRemote` is called once, just before the first plugin is asked (not when no policy applies):
 * a write holding its place in the site's queue gives it up then (docs/write-fairness.md).
 */
export type PolicyAsker = <I extends object>(name: string, input: I, beforeRemote?: () => void) => Promise<Prepared<I>>;

type ManifestPolicy = PluginManifest["content_policies"][number];

/** One policy to ask, with its installation. */
export interface PolicyAsk {
  row: PluginInstallationsTable;
  manifest: PluginManifest;
  policy: ManifestPolicy;
}

/**
 * Whether the site has an active installation declaring a content policy: one row at most. Read
 * with a write's first reads at its turn in the queue (lifecycle/preload.ts): when it answers none,
 * the write's policy step has nothing to ask and is skipped (docs/write-fairness.md, "CPU per write").
 */
export function declaredPolicyQuery(db: Kysely<Database>, siteId: string) {
  // `state` and the manifest's list as literals: the partial index of the policy-declaring installations (migration 0065).
  return db.selectFrom("plugin_installations").select("id").where("site_id", "=", siteId).where("state", "=", sql.lit("active")).where(declaresList("content_policies")).limit(1).compile();
}

/**
 * Every content policy of the site's active installations, in installation then manifest order
 * (one read; most sites have none, and then a write asks nothing more). Read before a write's
 * queued work when its site declares a policy (a single write learns whether at its turn:
 * `declaredPolicyQuery`), and by bulk actions, import steps and firing schedules; only
 * installations whose manifest declares a content policy come back, so a site's other plugins are
 * neither sent nor parsed (docs/write-fairness.md, "CPU per write").
 */
export async function sitePolicies(db: Kysely<Database>, siteId: string): Promise<PolicyAsk[]> {
  const rows = await activeInstallations(db, siteId, "content_policies");
  return rows.flatMap((row) => {
    const manifest = manifestOf(row);
    return manifest.content_policies.map((policy) => ({ row, manifest, policy }));
  });
}

/** The policies that apply to an entry of `modelId`: those whose installation is granted the model. */
export function policiesFor(all: readonly PolicyAsk[], modelId: string): PolicyAsk[] {
  return all.filter((ask) => installationGrant(ask.row).model_ids.includes(modelId));
}

const FieldKeys = v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(200));
const PolicyAnswerSchema = v.variant("outcome", [
  v.strictObject({ outcome: v.literal("allowed"), message: v.optional(v.pipe(v.string(), v.maxLength(500))) }),
  v.strictObject({
    outcome: v.literal("refused"),
    code: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/)),
    message: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
    fields: v.optional(FieldKeys, []),
  }),
  v.strictObject({ outcome: v.literal("transformed"), fields: v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown()), message: v.optional(v.pipe(v.string(), v.maxLength(500))) }),
]);
type PolicyAnswer = v.InferOutput<typeof PolicyAnswerSchema>;

type Asked = { ask: PolicyAsk; answer: PolicyAnswer } | { ask: PolicyAsk; failure: RemoteFailure; detail: string };

function names(ask: PolicyAsk, locale: string) {
  return { installation_id: ask.row.id, plugin_name: ask.manifest.name, policy_id: ask.policy.id, policy_label: ask.policy.label, locale };
}

async function askOne(env: RemoteEnv, ask: PolicyAsk, subject: PolicySubject, actor: Actor, now: number): Promise<Asked> {
  const secret = ask.row.event_secret;
  if (!secret) return { ask, failure: "address_refused", detail: "the plugin has no signing secret" };
  const answer = await callPlugin(env, {
    endpoint: ask.manifest.endpoint,
    path: `/policies/${ask.policy.id}`,
    secret,
    now,
    body: {
      kind: "policy",
      installation_id: ask.row.id,
      policy: ask.policy.id,
      mode: ask.policy.mode,
      operation: subject.operation,
      caller: { via: callerVia(actor), person_id: actor.id },
      entry: { instance_id: subject.instance_id, model_id: subject.model_id, model_slug: subject.model_slug, lang: subject.lang },
      locale: subject.lang,
      fields: subject.fields,
    },
  });
  if (!answer.ok) return { ask, failure: answer.failure, detail: answer.detail };
  if (answer.status !== 200) return { ask, failure: "invalid_answer", detail: `HTTP ${answer.status}` };
  const parsed = v.safeParse(PolicyAnswerSchema, answer.body);
  if (!parsed.success) return { ask, failure: "invalid_answer", detail: parsed.issues[0].message };
  return { ask, answer: parsed.output };
}

function transformInvalid(asked: PolicyAsk, locale: string, cause: { code: string; message: string; detail: unknown }): AppError {
  return new AppError("plugin_policy_transform_invalid", `The policy "${asked.policy.label}" of ${asked.manifest.name} changed the fields in a way that cannot be written.`, { ...names(asked, locale), cause });
}

/** The fields to write after every policy answered, and the answer's `policy_results`. */
export interface PolicyVerdict {
  fields: Record<string, unknown>;
  results: PolicyResult[];
  /** The policies whose transforms were applied (to name one when the transformed values are then refused). */
  transformedBy: PolicyAsk[];
}

/**
 * Asks every policy at once and decides, in this order: a refusal (first in policy order) → 422
 * plugin_policy_refused; an enforcing policy unavailable → 503 plugin_policy_unavailable (an
 * advisory one: `policy_results` with outcome `unavailable`, the write proceeds); a transform that
 * is not allowed (a `validate` policy, a write that is not a save, a field not being written) →
 * 422 plugin_policy_transform_invalid; two transforms giving one field different values → 422
 * plugin_policy_transform_conflict. Otherwise the fields with every transform applied.
 */
export async function askPolicies(env: RemoteEnv, asks: readonly PolicyAsk[], subject: PolicySubject, actor: Actor, now: number): Promise<PolicyVerdict> {
  const locale = subject.lang;
  const asked = await Promise.all(asks.map((ask) => askOne(env, ask, subject, actor, now)));
  for (const one of asked) {
    if ("answer" in one && one.answer.outcome === "refused") {
      // The plugin's own code and message travel as `refusal` (the envelope's `code` is plugin_policy_refused).
      throw new AppError("plugin_policy_refused", one.answer.message, { ...names(one.ask, locale), refusal: { code: one.answer.code, message: one.answer.message }, fields: one.answer.fields });
    }
  }
  const results: PolicyResult[] = [];
  for (const one of asked) {
    if (!("failure" in one)) continue;
    if (!(one.ask.policy.advisory ?? false)) {
      throw new AppError("plugin_policy_unavailable", `The policy "${one.ask.policy.label}" of ${one.ask.manifest.name} could not be asked; nothing was written.`, { ...names(one.ask, locale), failure: one.failure, detail: one.detail });
    }
    results.push({ ...names(one.ask, locale), message: null, fields: [], outcome: "unavailable", failure: one.failure });
  }
  const fields = { ...subject.fields };
  const setBy = new Map<string, { ask: PolicyAsk; value: string }>();
  const transformedBy: PolicyAsk[] = [];
  for (const one of asked) {
    if (!("answer" in one) || one.answer.outcome !== "transformed") continue;
    const { ask, answer } = one;
    if (ask.policy.mode !== "transform") throw transformInvalid(ask, locale, { code: "transform_not_allowed", message: "A validate policy may only allow or refuse.", detail: null });
    if (!subject.transformable) throw transformInvalid(ask, locale, { code: "transform_not_applicable", message: `Only a save may be transformed, not a ${subject.operation}.`, detail: { operation: subject.operation } });
    const stray = Object.keys(answer.fields).filter((key) => !Object.hasOwn(subject.fields, key));
    if (stray.length > 0) throw transformInvalid(ask, locale, { code: "field_not_written", message: "A transform may only change fields being written.", detail: { fields: stray } });
    for (const [key, value] of Object.entries(answer.fields)) {
      const text = JSON.stringify(value) ?? "null";
      const earlier = setBy.get(key);
      if (earlier && earlier.value !== text) {
        throw new AppError("plugin_policy_transform_conflict", `Two policies changed "${key}" differently; nothing was written.`, {
          field: key,
          policies: [names(earlier.ask, locale), names(ask, locale)],
        });
      }
      setBy.set(key, { ask, value: text });
      fields[key] = value;
    }
    transformedBy.push(ask);
    results.push({ ...names(ask, locale), message: answer.message ?? null, fields: Object.keys(answer.fields), outcome: "transformed" });
  }
  return { fields, results, transformedBy };
}

/** A save refused for values a transform wrote: the transform was invalid (cause: the refusal). */
export function transformRefused(verdict: PolicyVerdict, locale: string, refusal: { code: string; message: string; details?: unknown }): AppError | null {
  const first = verdict.transformedBy[0];
  if (!first) return null;
  return transformInvalid(first, locale, { code: refusal.code, message: refusal.message, detail: refusal.details ?? null });
}
