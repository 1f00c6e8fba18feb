/**
 * Roles of the app's signed-in accounts (docs/generated-backend.md, "Sessions and roles"):
 * `access/roles.json` names up to 32 roles, each with per-model operation rights, and the default
 * role a non-admin sign-up gets. The legacy roles always exist: `admin` (every right, manages
 * accounts) and `user` (the reads of every model unless the file says otherwise).
 */
import { OPERATIONS, type Operation, type SiteSchema } from "./schema-types.js";

export const MAX_ROLES = 32;
export const ADMIN_ROLE = "admin";
export const USER_ROLE = "user";
const ROLE_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Per model API name (or `*`): the operations (or `*`) a role may run. */
export type RoleRights = Record<string, string[]>;

export interface RolesConfig {
  defaultRole: string;
  roles: Record<string, RoleRights>;
}

/** What an absent `access/roles.json` means: the two legacy roles, sign-ups become `user`. */
export const LEGACY_ROLES: RolesConfig = {
  defaultRole: USER_ROLE,
  roles: { [ADMIN_ROLE]: { "*": ["*"] }, [USER_ROLE]: { "*": ["findMany", "findManyPaginated", "findUnique"] } },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The problems of a roles file, or [] when it is valid. */
export function rolesProblems(value: unknown, schema: SiteSchema): string[] {
  if (!isObject(value)) return ["roles.json must be an object { defaultRole, roles }."];
  const problems: string[] = [];
  for (const key of Object.keys(value)) if (key !== "defaultRole" && key !== "roles") problems.push(`roles.json has an unknown key "${key}".`);
  if (!isObject(value.roles)) return [...problems, "roles.json: roles must be an object of role name → rights."];
  const names = new Set([...Object.keys(value.roles), ADMIN_ROLE, USER_ROLE]);
  if (names.size > MAX_ROLES) problems.push(`roles.json names ${names.size} roles (admin and user included); at most ${MAX_ROLES}.`);
  const models = new Set(schema.models.map((m) => m.api));
  for (const [name, rights] of Object.entries(value.roles)) {
    if (!ROLE_NAME.test(name)) problems.push(`roles.json: role "${name}" must be 1 to 32 lower-case letters, digits, _ or -, starting with a letter.`);
    if (!isObject(rights)) {
      problems.push(`roles.json: roles.${name} must be an object of model → operations.`);
      continue;
    }
    for (const [model, operations] of Object.entries(rights)) {
      if (model !== "*" && !models.has(model)) problems.push(`roles.json: roles.${name} names "${model}", which is not a model of this backend.`);
      if (!Array.isArray(operations) || operations.some((op) => op !== "*" && !(OPERATIONS as readonly unknown[]).includes(op))) {
        problems.push(`roles.json: roles.${name}.${model} must be an array of ${OPERATIONS.join(", ")} or "*".`);
      }
    }
  }
  if (typeof value.defaultRole !== "string" || !names.has(value.defaultRole)) problems.push("roles.json: defaultRole must name a role.");
  else if (value.defaultRole === ADMIN_ROLE) problems.push("roles.json: defaultRole cannot be admin (sign-ups are never administrators).");
  return problems;
}

/** The roles file parsed (legacy roles added), or an Error listing its problems. */
export function loadRoles(raw: unknown, schema: SiteSchema): RolesConfig {
  if (raw === undefined) return LEGACY_ROLES;
  const problems = rolesProblems(raw, schema);
  if (problems.length > 0) throw new Error(`access/roles.json is invalid:\n  ${problems.join("\n  ")}`);
  const config = raw as RolesConfig;
  return { defaultRole: config.defaultRole, roles: { ...LEGACY_ROLES.roles, ...config.roles, [ADMIN_ROLE]: { "*": ["*"] } } };
}

/** Whether `role` may run `operation` on `model` (an unknown role — one removed from the file — may nothing). */
export function roleAllows(config: RolesConfig, role: string, model: string, operation: Operation): boolean {
  if (role === ADMIN_ROLE) return true;
  const rights = config.roles[role];
  if (rights === undefined || !Object.hasOwn(config.roles, role)) return false;
  return [rights[model], rights["*"]].some((ops) => ops !== undefined && (ops.includes("*") || ops.includes(operation)));
}

/** Whether `role` writes `model` (an editor, who also reads its private fields). */
export function roleEdits(config: RolesConfig, role: string, model: string): boolean {
  return (["create", "update", "delete"] as const).some((op) => roleAllows(config, role, model, op));
}

/**
 * What the router asks of the sessions (runtime/sessions.ts implements it): kept here so the router
 * and the CMS's type-check, which embed the router, never load the session library.
 */
export interface SessionHandler {
  /** `/api/auth/*`; `service`: the caller is the service bearer. */
  handle(request: Request, service: boolean): Promise<Response>;
  /** The signed-in account of a request, or null. */
  userOf(request: Request): Promise<{ id: string; role: string } | null>;
}
