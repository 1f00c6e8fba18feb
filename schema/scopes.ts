import * as v from "valibot";

/**
 * Scopes of a management credential (docs/management-credentials.md): which commands of the
 * management API it may run. What it may then do is also limited by its creator's role, re-read on
 * every request (`shared/auth/management-authority.ts`).
 */

const SCOPES = [
  "content:read",
  "content:write",
  "content:propose",
  "pages:write",
  "media:write",
  "lifecycle:publish",
  "content:trash",
  "content:purge",
  "workflow:move",
  "workflow:assign",
  "settings:write",
  "schema:propose",
  "schema:write",
  "data:import",
  "data:export",
  "roles:write",
  "plugins:use",
] as const;

/** One scope of a management credential. */
export const Scope = v.picklist(SCOPES, (issue) =>
  typeof issue.input === "string" ? `unknown scope "${issue.input}"` : `expected a scope name, received ${issue.received}`,
);
export type Scope = v.InferOutput<typeof Scope>;

/** Every scope, in canonical order. */
export const ALL_SCOPES: readonly Scope[] = Scope.options;

/** The scope every credential holds, whether asked for or not. */
export const ALWAYS_INCLUDED_SCOPE: Scope = "content:read";

/** Scopes as a credential stores them: `content:read` added, repeats dropped, canonical order. */
export function normaliseScopes(scopes: readonly Scope[]): Scope[] {
  const held = new Set<Scope>([ALWAYS_INCLUDED_SCOPE, ...scopes]);
  return ALL_SCOPES.filter((scope) => held.has(scope));
}

/** Whether a string names a scope (narrows, e.g. a route's scope read from a contract). */
export function isScope(value: string): value is Scope {
  return v.is(Scope, value);
}
