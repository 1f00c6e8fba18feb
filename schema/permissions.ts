import * as v from "valibot";
import { isReservedFieldKey } from "./field-types";

/**
 * Permission sets: what a role (held by a person on a site) allows. The shape is stored as JSON
 * on the role and checked here whenever one is written; `shared/auth/permissions.ts` answers
 * questions against it. See docs/permissions.md.
 */

/** Names of things in messages: a string is quoted, anything else is shown as valibot received it. */
function unknownName(kind: string, issue: v.BaseIssue<unknown>): string {
  return typeof issue.input === "string"
    ? `unknown ${kind} "${issue.input}"`
    : `expected a ${kind} name, received ${issue.received}`;
}

/** A non-empty string naming something (model id, field id, language code). */
function nameString(kind: string) {
  return v.pipe(
    v.string((issue) => `expected a ${kind} (string), received ${issue.received}`),
    v.nonEmpty(`${kind} must not be empty`),
  );
}

/** A list whose items follow `item`. */
function listOf<TItem extends v.GenericSchema<unknown, string>>(kind: string, item: TItem) {
  return v.array(item, (issue) => `expected a list of ${kind}s, received ${issue.received}`);
}

/**
 * Objects in a permission set are plain JSON objects. valibot's object and record schemas also
 * accept arrays (`[]` would pass as an empty record), so an array is refused first.
 */
function notAnArray(what: string) {
  return v.custom<unknown>((input) => !Array.isArray(input), `expected ${what}, received an array`);
}

/**
 * Keys of a permission set's objects (model ids, language actions) that JavaScript objects already
 * use are refused, each at its own path (`models.toString`). valibot's record skips `__proto__`,
 * `constructor` and `prototype` without a word (a role asked for `constructor: ["read"]` was saved
 * with nothing), and a key such as `toString` made every later `set.models[id]` read the
 * prototype's function (a 500) — the same names field keys refuse (docs/permissions.md).
 */
function noReservedKeys(kind: string) {
  return v.rawCheck<unknown>(({ dataset, addIssue }) => {
    const input = dataset.value;
    if (typeof input !== "object" || input === null) return;
    for (const key of Object.keys(input)) {
      if (!isReservedFieldKey(key)) continue;
      const value = (input as Record<string, unknown>)[key];
      addIssue({
        message: `"${key}" is a name JavaScript objects already use; it cannot be a ${kind}`,
        path: [{ type: "object", origin: "value", input: input as Record<string, unknown>, key, value }],
      });
    }
  });
}

/** The message of a strict object: wrong type, missing key or unknown key. */
function strictMessage(what: string) {
  return (issue: v.StrictObjectIssue): string => {
    if (issue.expected === "never") return `unknown key ${issue.received}`;
    if (issue.path !== undefined) return `missing required key ${issue.expected}`;
    return `expected ${what}, received ${issue.received}`;
  };
}

const MODEL_OPERATIONS = [
  "read",
  "create",
  "update",
  "update:own",
  "delete",
  "publish",
  "unpublish",
  "restore",
] as const;

const SYSTEM_PERMISSIONS = [
  "site:settings",
  "site:infra",
  "site:plugins",
  "model:apply",
  "model:delete",
  "media:upload",
  "media:update",
  "media:delete",
  "role:manage",
  "data:import",
  "data:export",
  "content:restore",
] as const;

const LANGUAGE_ACTIONS = ["read", "create", "update", "delete", "restore", "review", "publish", "unpublish"] as const;

/** An operation on the entries of a model. `update:own` is `update` restricted to entries the person owns. */
export const ModelOperation = v.picklist(MODEL_OPERATIONS, (issue) => unknownName("model operation", issue));
export type ModelOperation = v.InferOutput<typeof ModelOperation>;

/** A site-wide permission not tied to a model. */
export const SystemPermission = v.picklist(SYSTEM_PERMISSIONS, (issue) => unknownName("system permission", issue));
export type SystemPermission = v.InferOutput<typeof SystemPermission>;

/** What is done to content in one language; language limits are keyed by these. */
export const LanguageAction = v.picklist(LANGUAGE_ACTIONS, (issue) => unknownName("language action", issue));
export type LanguageAction = v.InferOutput<typeof LanguageAction>;

/** A model id, or `"*"` for every model. */
const ModelKey = nameString("model id");

/** Field limits for one model (or `"*"`): absent `read`/`write` means that access is unlimited. */
const FieldLimitShape = v.strictObject(
  {
    read: v.optional(listOf("field id", nameString("field id"))),
    write: v.optional(listOf("field id", nameString("field id"))),
  },
  strictMessage("a field limit object ({ read?, write? })"),
);

/** Language limits: per language action, the language codes allowed. An absent action is unlimited. */
const LanguageLimitsShape = v.record(
  LanguageAction,
  v.optional(listOf("language code", nameString("language code"))),
  (issue) => `expected an object of language action → language codes, received ${issue.received}`,
);

/** Limits narrowing a permission set. Absent means unlimited. */
const LimitsShape = v.strictObject(
  {
    fields: v.optional(
      v.pipe(
        notAnArray("an object of model id → field limit"),
        noReservedKeys("model id"),
        v.record(
          ModelKey,
          v.pipe(notAnArray("a field limit object ({ read?, write? })"), FieldLimitShape),
          (issue) => `expected an object of model id → field limit, received ${issue.received}`,
        ),
      ),
    ),
    languages: v.optional(v.pipe(notAnArray("an object of language action → language codes"), noReservedKeys("language action"), LanguageLimitsShape)),
  },
  strictMessage("a limits object ({ fields?, languages? })"),
);

/**
 * A permission set, as held by a role.
 *
 * - `models`: model id (or `"*"` for every model) → operations allowed on its entries.
 * - `system`: site-wide permissions.
 * - `limits.fields`: model id (or `"*"`) → field ids that may be read / written.
 * - `limits.languages`: language action → language codes it may be done in.
 */
export const PermissionSet = v.strictObject(
  {
    models: v.pipe(
      notAnArray("an object of model id → operations"),
      noReservedKeys("model id"),
      v.record(
        ModelKey,
        listOf("model operation", ModelOperation),
        (issue) => `expected an object of model id → operations, received ${issue.received}`,
      ),
    ),
    system: listOf("system permission", SystemPermission),
    limits: v.optional(v.pipe(notAnArray("a limits object ({ fields?, languages? })"), LimitsShape)),
  },
  strictMessage("a permission set object ({ models, system, limits? })"),
);
export type PermissionSet = v.InferOutput<typeof PermissionSet>;

/** The limits part of a permission set. */
export type PermissionLimits = NonNullable<PermissionSet["limits"]>;
/** Field limits of one model (or of `"*"`). */
export type FieldLimit = v.InferOutput<typeof FieldLimitShape>;
/** Language limits: language action → allowed language codes. */
export type LanguageLimits = v.InferOutput<typeof LanguageLimitsShape>;

type PathKey = string | number;

/** Keys a strict object at `parent` allows, for reporting every unknown key (valibot stops at the first). */
function knownKeysAt(parent: readonly PathKey[]): readonly string[] | undefined {
  if (parent.length === 0) return Object.keys(PermissionSet.entries);
  if (parent.length === 1 && parent[0] === "limits") return Object.keys(LimitsShape.entries);
  if (parent.length === 3 && parent[0] === "limits" && parent[1] === "fields") {
    return Object.keys(FieldLimitShape.entries);
  }
  return undefined;
}

/** `models["*"][2]`, `limits.fields.article.read[0]`. */
function formatPath(keys: readonly PathKey[]): string {
  let out = "";
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function reason(keys: readonly PathKey[], message: string): string {
  return keys.length === 0 ? message : `${formatPath(keys)}: ${message}`;
}

function pathKeys(path: readonly v.IssuePathItem[] | undefined): PathKey[] {
  const keys: PathKey[] = [];
  for (const item of path ?? []) {
    if (typeof item.key === "string" || typeof item.key === "number") keys.push(item.key);
  }
  return keys;
}

/**
 * Every reason a raw permission set is invalid, each naming the offending value and where it is
 * (for example `models.article[1]: unknown model operation "publsh"`). Empty when the input is a
 * valid {@link PermissionSet}. Used for the `invalid_permissions` refusal, which lists every reason.
 */
export function describePermissionProblems(input: unknown): string[] {
  const result = v.safeParse(PermissionSet, input);
  if (result.success) return [];
  const reasons: string[] = [];
  for (const issue of result.issues) {
    const keys = pathKeys(issue.path);
    const last = issue.path?.[issue.path.length - 1];
    if (issue.type === "strict_object" && issue.expected === "never" && last?.type === "object") {
      const parent = keys.slice(0, -1);
      const known = knownKeysAt(parent);
      if (known !== undefined) {
        const allowed = known.join(", ");
        for (const key of Object.keys(last.input)) {
          if (!known.includes(key)) reasons.push(reason([...parent, key], `unknown key "${key}" (allowed: ${allowed})`));
        }
        continue;
      }
    }
    reasons.push(reason(keys, issue.message));
  }
  return [...new Set(reasons)];
}
