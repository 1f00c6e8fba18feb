import { ALL_SCOPES, type Scope } from "../../schema/scopes";
import type { ManagementCredential } from "./management-authority";

/**
 * Who asks a management handler (docs/management-api.md, "Who asks"): a person in their own admin
 * session (`/api/v1` on the admin host, workers/admin/manage-bridge.ts), or a credential acting
 * for its person — a `dwm_` management credential or an OAuth connection's `dwo_` access token
 * (shared/auth/management-authority.ts). What the call may do is its `Actor`, re-read on every
 * request, either way; the caller says who asks, for what a consumer records or binds to (a
 * proposal's source, a plugin launch's delegation, GET /site).
 */
export type Caller = SessionCaller | CredentialCaller;

/** A person in their own session: every scope, every model; no credential to record or bind to. */
export interface SessionCaller {
  kind: "session";
  person: { id: string; name: string };
}

/** A credential acting for its person, within its scopes and models. */
export interface CredentialCaller {
  kind: "credential";
  credential: ManagementCredential;
}

/** The scopes the caller holds: a credential's own; every scope for a session (scopes narrow credentials, never the person). */
export function callerScopes(caller: Caller): readonly Scope[] {
  return caller.kind === "session" ? ALL_SCOPES : caller.credential.scopes;
}

/** Whether the caller holds a scope (a route's scope is checked before its own permission check). */
export function callerHasScope(caller: Caller, scope: Scope): boolean {
  return callerScopes(caller).includes(scope);
}

/** The models the caller is limited to, or `null` for every model (a session; a credential without a model list). */
export function callerModelIds(caller: Caller): string[] | null {
  return caller.kind === "session" ? null : caller.credential.model_ids;
}

/**
 * The caller's own namespace for Idempotency-Keys and its rate-limit window on the site: the
 * credential's id, or `person:<person id>` for a session, so a person's keys and requests are
 * their own and never meet a credential's (`mcr_…`, `con_…`). Only a key: nothing reads a caller
 * back from it. The values are stored (the site object's idempotency ledger and rate windows), so
 * they must not change: a retry across a deploy still finds its key.
 */
export function callerKey(caller: Caller): string {
  return caller.kind === "session" ? `person:${caller.person.id}` : caller.credential.id;
}
