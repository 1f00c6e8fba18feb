import {
  LanguageAction,
  ModelOperation,
  SystemPermission,
  type FieldLimit,
  type LanguageLimits,
  type PermissionLimits,
  type PermissionSet,
} from "../../schema/permissions";

/**
 * Answers to "may this person do X on model M, field F, language L" — pure functions over a
 * {@link PermissionSet}. No I/O: callers load the set (a role's, or a credential's already
 * intersected with its scopes) and turn a refusal into an AppError. See docs/permissions.md.
 */

/** Every model operation, in canonical order. */
export const ALL_MODEL_OPERATIONS: readonly ModelOperation[] = ModelOperation.options;

/** Every system permission, in canonical order. */
export const ALL_SYSTEM_PERMISSIONS: readonly SystemPermission[] = SystemPermission.options;

/** Every language action, in canonical order. */
export const ALL_LANGUAGE_ACTIONS: readonly LanguageAction[] = LanguageAction.options;

/** The language action a model operation is limited by (`limits.languages[action]`). */
export const LANGUAGE_ACTION_FOR_OPERATION: Readonly<Record<ModelOperation, LanguageAction>> = {
  read: "read",
  create: "create",
  update: "update",
  "update:own": "update",
  delete: "delete",
  publish: "publish",
  unpublish: "unpublish",
  restore: "restore",
};

/** The model id that stands for every model, in `models` and in `limits.fields`. */
const EVERY_MODEL = "*";

/** One question put to {@link decide}. */
export interface AccessQuestion {
  /** The operation asked for. `update:own` is answered like `update` (ownership decides). */
  operation: ModelOperation;
  /** The model whose entries are concerned. */
  modelId: string;
  /** The language of the content concerned, checked against the language limit of the operation. */
  lang?: string;
  /** Fields written (or read); checked against the field limits of the model. */
  fieldIds?: readonly string[];
  /** The entry's owner (person id), for `update:own`. `null`: the entry has no owner. */
  ownerId?: string | null;
  /** The person asking, for `update:own`. */
  actorId?: string;
  /** Which field limit applies. Default: `read` for operation `read`, otherwise `write`. */
  access?: "read" | "write";
}

/** The answer of {@link decide}: allowed, or the refusal code (all 403) with a message for people. */
export type AccessAnswer =
  | { allowed: true }
  | {
      allowed: false;
      code: "missing_permission" | "not_owner" | "field_denied" | "locale_denied";
      message: string;
      /** For `field_denied`: every refused field id. */
      fields?: string[];
      /** For `locale_denied`: the refused language. */
      lang?: string;
    };

const ALLOWED: AccessAnswer = { allowed: true };

function inCanonicalOrder<T extends string>(all: readonly T[], held: ReadonlySet<T>): T[] {
  return all.filter((item) => held.has(item));
}

/** The field limit entry governing a model: its own entry when present, otherwise the `"*"` entry. */
function fieldLimitFor(set: PermissionSet, modelId: string): FieldLimit | undefined {
  const fields = set.limits?.fields;
  if (fields === undefined) return undefined;
  return (Object.hasOwn(fields, modelId) ? fields[modelId] : undefined) ?? fields[EVERY_MODEL];
}

/** The field ids allowed for an access to a model, or `undefined` when unlimited. */
function fieldList(set: PermissionSet, modelId: string, access: "read" | "write"): readonly string[] | undefined {
  return fieldLimitFor(set, modelId)?.[access];
}

/** The language codes allowed for a language action, or `undefined` when unlimited. */
function languageList(set: PermissionSet, action: LanguageAction): readonly string[] | undefined {
  return set.limits?.languages?.[action];
}

/**
 * The model operations a set grants on a model: those of `models[modelId]` united with those of
 * `models["*"]`, in canonical order, without repeats.
 */
export function modelOperations(set: PermissionSet, modelId: string): ModelOperation[] {
  // Own keys only: a set is a parsed JSON object, and `models.toString` must never be the prototype's function.
  const own = Object.hasOwn(set.models, modelId) ? set.models[modelId] : undefined;
  const held = new Set<ModelOperation>([...(own ?? []), ...(set.models[EVERY_MODEL] ?? [])]);
  return inCanonicalOrder(ALL_MODEL_OPERATIONS, held);
}

/**
 * THE answer to "may this person do `operation` on model `modelId` (in language `lang`, touching
 * fields `fieldIds`)". Checks, in order, stopping at the first refusal:
 *
 * 1. `missing_permission` — the operation is not among {@link modelOperations}. `update` (and
 *    `update:own`) is satisfied by `update`, or by `update:own`;
 * 2. `not_owner` — only `update:own` is held and `ownerId` is not `actorId` (an entry without owner,
 *    or a question without actor, is not owned);
 * 3. `locale_denied` — `lang` is given, the operation's language action has a limit, and `lang` is
 *    not in it;
 * 4. `field_denied` — a field limit applies to the model (its own entry, else `"*"`) for the access
 *    (`read` for operation read, else `write`, unless `access` says otherwise) and some of
 *    `fieldIds` are outside it; `fields` lists every refused id.
 */
export function decide(set: PermissionSet, q: AccessQuestion): AccessAnswer {
  const held = new Set(modelOperations(set, q.modelId));

  if (q.operation === "update" || q.operation === "update:own") {
    if (!held.has("update")) {
      if (!held.has("update:own")) {
        return {
          allowed: false,
          code: "missing_permission",
          message: `Missing permission "update" on model "${q.modelId}".`,
        };
      }
      const owns = q.ownerId !== undefined && q.ownerId !== null && q.actorId !== undefined && q.ownerId === q.actorId;
      if (!owns) {
        return {
          allowed: false,
          code: "not_owner",
          message: `Only entries you own may be updated on model "${q.modelId}" (permission "update:own").`,
        };
      }
    }
  } else if (!held.has(q.operation)) {
    return {
      allowed: false,
      code: "missing_permission",
      message: `Missing permission "${q.operation}" on model "${q.modelId}".`,
    };
  }

  if (q.lang !== undefined) {
    const action = LANGUAGE_ACTION_FOR_OPERATION[q.operation];
    const languages = languageList(set, action);
    if (languages !== undefined && !languages.includes(q.lang)) {
      return {
        allowed: false,
        code: "locale_denied",
        message: `Language "${q.lang}" is not allowed for "${action}".`,
        lang: q.lang,
      };
    }
  }

  if (q.fieldIds !== undefined && q.fieldIds.length > 0) {
    const access = q.access ?? (q.operation === "read" ? "read" : "write");
    const allowedFields = fieldList(set, q.modelId, access);
    if (allowedFields !== undefined) {
      const refused = [...new Set(q.fieldIds.filter((id) => !allowedFields.includes(id)))];
      if (refused.length > 0) {
        return {
          allowed: false,
          code: "field_denied",
          message: `Not allowed to ${access} field${refused.length === 1 ? "" : "s"} ${refused
            .map((id) => `"${id}"`)
            .join(", ")} on model "${q.modelId}".`,
          fields: refused,
        };
      }
    }
  }

  return ALLOWED;
}

/** Whether a set holds a system permission. */
export function hasSystemPermission(set: PermissionSet, permission: SystemPermission): boolean {
  return set.system.includes(permission);
}

/**
 * The field ids a set's read field limit allows on a model, or `undefined` when reads of the model
 * are not limited by field (every field, including fields added later).
 */
export function readFieldLimit(set: PermissionSet, modelId: string): readonly string[] | undefined {
  return fieldList(set, modelId, "read");
}

/**
 * Of `allFieldIds` (a model's fields, in order), those the read field limit allows. Only field
 * limits are applied here: whether the model may be read at all is {@link decide}'s question.
 */
export function readableFieldIds(set: PermissionSet, modelId: string, allFieldIds: readonly string[]): string[] {
  const allowed = fieldList(set, modelId, "read");
  return allowed === undefined ? [...allFieldIds] : allFieldIds.filter((id) => allowed.includes(id));
}

/**
 * Of `allFieldIds` (a model's fields, in order), those the write field limit allows. Only field
 * limits are applied here: whether the entry may be written at all is {@link decide}'s question.
 */
export function writableFieldIds(set: PermissionSet, modelId: string, allFieldIds: readonly string[]): string[] {
  const allowed = fieldList(set, modelId, "write");
  return allowed === undefined ? [...allFieldIds] : allFieldIds.filter((id) => allowed.includes(id));
}

/**
 * Whether the set reads the whole of a model: `read` held, with no field limit and no language
 * limit on reading. Only such a model can be handed to something that reads without the person's
 * limits (a site API token, a plugin grant; docs/permissions.md, "Grants beyond the granter").
 */
export function readsWholeModel(set: PermissionSet, modelId: string): boolean {
  return modelOperations(set, modelId).includes("read") && fieldList(set, modelId, "read") === undefined && languageList(set, "read") === undefined;
}

/** Of `languages` (a site's language codes, in order), those the `read` language limit allows. */
export function readableLanguages(set: PermissionSet, languages: readonly string[]): string[] {
  const allowed = languageList(set, "read");
  return allowed === undefined ? [...languages] : languages.filter((lang) => allowed.includes(lang));
}

/** Two limit lists combined: an absent list is unlimited, two lists keep what both allow (order of `a`). */
function intersectList(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (a === undefined) return b === undefined ? undefined : [...new Set(b)];
  if (b === undefined) return [...new Set(a)];
  return [...new Set(a.filter((item) => b.includes(item)))];
}

/** Operations both sides grant, where `update` on one side and `update:own` on the other make `update:own`. */
function intersectOperations(a: ReadonlySet<ModelOperation>, b: ReadonlySet<ModelOperation>): ModelOperation[] {
  const both = new Set([...a].filter((op) => b.has(op)));
  const ownA = a.has("update") || a.has("update:own");
  const ownB = b.has("update") || b.has("update:own");
  if (ownA && ownB && !both.has("update")) both.add("update:own");
  return inCanonicalOrder(ALL_MODEL_OPERATIONS, both);
}

function isEmptyFieldLimit(limit: FieldLimit): boolean {
  return limit.read === undefined && limit.write === undefined;
}

function intersectFieldLimits(a: PermissionSet, b: PermissionSet): Record<string, FieldLimit> | undefined {
  const fieldsA = a.limits?.fields ?? {};
  const fieldsB = b.limits?.fields ?? {};
  const keys = new Set([...Object.keys(fieldsA), ...Object.keys(fieldsB)]);
  if (keys.size === 0) return undefined;
  const result: Record<string, FieldLimit> = {};
  for (const key of keys) {
    const limit: FieldLimit = {};
    const read = intersectList(fieldList(a, key, "read"), fieldList(b, key, "read"));
    const write = intersectList(fieldList(a, key, "write"), fieldList(b, key, "write"));
    if (read !== undefined) limit.read = read;
    if (write !== undefined) limit.write = write;
    result[key] = limit;
  }
  // An empty entry only matters when it overrides a "*" entry with limits; otherwise drop it.
  const every = result[EVERY_MODEL];
  if (every === undefined || isEmptyFieldLimit(every)) {
    for (const [key, limit] of Object.entries(result)) if (isEmptyFieldLimit(limit)) delete result[key];
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function intersectLanguageLimits(a: PermissionSet, b: PermissionSet): LanguageLimits | undefined {
  const result: LanguageLimits = {};
  for (const action of ALL_LANGUAGE_ACTIONS) {
    const list = intersectList(languageList(a, action), languageList(b, action));
    if (list !== undefined) result[action] = list;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * What both sets allow; the result is never wider than either side.
 *
 * - Model operations per model id: for each id named on either side, the operations both grant on
 *   it (a `"*"` on one side applies to every id named on the other). `"*"` appears in the result
 *   only when both sides have `"*"`, and a model id lists only what the result's `"*"` does not
 *   already grant. `update` against `update:own` gives `update:own`.
 * - System permissions: those both hold, in the order of `a`.
 * - Field and language limits: lists are intersected; an absent limit is unlimited, so the other
 *   side's limit is kept. Field limits are combined per model id as each side resolves it (own
 *   entry, else `"*"`).
 */
export function intersectPermissionSets(a: PermissionSet, b: PermissionSet): PermissionSet {
  const models: Record<string, ModelOperation[]> = {};
  const bothEvery = a.models[EVERY_MODEL] !== undefined && b.models[EVERY_MODEL] !== undefined;
  const every = bothEvery ? intersectOperations(new Set(a.models[EVERY_MODEL]), new Set(b.models[EVERY_MODEL])) : [];
  if (bothEvery && every.length > 0) models[EVERY_MODEL] = every;
  const modelIds = new Set([...Object.keys(a.models), ...Object.keys(b.models)]);
  modelIds.delete(EVERY_MODEL);
  for (const modelId of modelIds) {
    const ops = intersectOperations(new Set(modelOperations(a, modelId)), new Set(modelOperations(b, modelId)))
      // What the result's "*" grants need not be repeated on the model.
      .filter((op) => !every.includes(op));
    if (ops.length > 0) models[modelId] = ops;
  }

  const system = [...new Set(a.system.filter((p) => b.system.includes(p)))];

  const limits: PermissionLimits = {};
  const fields = intersectFieldLimits(a, b);
  const languages = intersectLanguageLimits(a, b);
  if (fields !== undefined) limits.fields = fields;
  if (languages !== undefined) limits.languages = languages;

  return Object.keys(limits).length > 0 ? { models, system, limits } : { models, system };
}

function describeModel(modelId: string): string {
  return modelId === EVERY_MODEL ? `every model ("*")` : `model "${modelId}"`;
}

function listText(items: readonly string[]): string {
  return items.map((item) => `"${item}"`).join(", ");
}

/**
 * Whether `inner` grants nothing beyond `outer` (a role may only hand out what its holder has).
 * Each reason names what is not held:
 *
 * - a model operation `inner` grants on a model id (or `"*"`) that `outer` does not grant there
 *   (`update:own` is covered by `update`);
 * - a system permission `outer` does not hold;
 * - a loosened limit: a field or language limit of `outer` that `inner` lacks, or ids/codes
 *   `inner` allows beyond it.
 */
export function isWithin(inner: PermissionSet, outer: PermissionSet): { within: boolean; reasons: string[] } {
  const reasons: string[] = [];

  for (const [modelId, ops] of Object.entries(inner.models)) {
    const outerOps = new Set(
      modelId === EVERY_MODEL ? (outer.models[EVERY_MODEL] ?? []) : modelOperations(outer, modelId),
    );
    const missing = inCanonicalOrder(
      ALL_MODEL_OPERATIONS,
      new Set(ops.filter((op) => !outerOps.has(op) && !(op === "update:own" && outerOps.has("update")))),
    );
    for (const op of missing) reasons.push(`operation "${op}" on ${describeModel(modelId)} is not held`);
  }

  for (const permission of inCanonicalOrder(ALL_SYSTEM_PERMISSIONS, new Set(inner.system))) {
    if (!outer.system.includes(permission)) reasons.push(`system permission "${permission}" is not held`);
  }

  const fieldKeys = new Set([
    EVERY_MODEL,
    ...Object.keys(inner.limits?.fields ?? {}),
    ...Object.keys(outer.limits?.fields ?? {}),
  ]);
  for (const modelId of fieldKeys) {
    for (const access of ["read", "write"] as const) {
      const outerList = fieldList(outer, modelId, access);
      if (outerList === undefined) continue;
      const innerList = fieldList(inner, modelId, access);
      if (innerList === undefined) {
        reasons.push(
          `field limit loosened: ${access} on ${describeModel(modelId)} is unlimited but limited to [${listText(outerList)}]`,
        );
        continue;
      }
      const extra = [...new Set(innerList.filter((id) => !outerList.includes(id)))];
      if (extra.length > 0) {
        reasons.push(`field limit loosened: ${access} of ${listText(extra)} on ${describeModel(modelId)} is not held`);
      }
    }
  }

  for (const action of ALL_LANGUAGE_ACTIONS) {
    const outerList = languageList(outer, action);
    if (outerList === undefined) continue;
    const innerList = languageList(inner, action);
    if (innerList === undefined) {
      reasons.push(`language limit loosened: "${action}" is unlimited but limited to [${listText(outerList)}]`);
      continue;
    }
    const extra = [...new Set(innerList.filter((lang) => !outerList.includes(lang)))];
    if (extra.length > 0) reasons.push(`language limit loosened: "${action}" in ${listText(extra)} is not held`);
  }

  return { within: reasons.length === 0, reasons };
}
