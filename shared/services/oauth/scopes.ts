import { ALL_SCOPES, isScope, normaliseScopes, type Scope } from "../../../schema/scopes";
import { OAuthError } from "./errors";

/**
 * The `scope` parameter of OAuth requests: scope names separated by spaces (RFC 6749 §3.3), each
 * one of the management scopes (`schema/scopes.ts`). Asking for no scope asks for every scope
 * (spec 2); an unknown name is `invalid_scope`. As for a management credential, `content:read`
 * is always held and the result is in canonical order.
 */
export function parseScopeParameter(raw: string | null | undefined): Scope[] {
  const names = (raw ?? "").split(" ").filter((name) => name.length > 0);
  return resolveScopes(names);
}

/** Scope names as a list (the /connect page's kept scopes): unknown → `invalid_scope`, none → every scope. */
export function resolveScopes(names: readonly string[]): Scope[] {
  if (names.length === 0) return [...ALL_SCOPES];
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) throw new OAuthError("invalid_scope", `Unknown scope: ${unknown.join(", ")}.`);
  return normaliseScopes(names.filter(isScope));
}

/** Scopes as the `scope` parameter of an answer. */
export function scopeString(scopes: readonly string[]): string {
  return scopes.join(" ");
}
