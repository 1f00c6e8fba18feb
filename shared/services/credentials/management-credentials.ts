import * as v from "valibot";
import { normaliseScopes, Scope } from "../../../schema/scopes";
import { hasSystemPermission } from "../../auth/permissions";
import { grantProblems } from "../../auth/scope-ceiling";
import { isoAt } from "../../clock";
import { newSecret, sha256Hex } from "../../crypto/digest";
import type { ManagementCredentialsTable } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import { listSecrets, revokeSecret, type SecretKind } from "./revocable-secrets";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * Management credentials (`dwm_…`): a script's or agent's access to one site's management API,
 * acting as the person who created it, narrowed by scopes and models. Managing them needs
 * `site:settings`; only what the creator holds now can be granted. The secret is returned once by
 * {@link createManagementCredential} and stored only as its SHA-256 digest;
 * `shared/auth/management-authority.ts` reads the row and the creator's role on every request, so
 * a revocation holds on the next request. No usage counter or last-used time is kept.
 * See docs/management-credentials.md.
 */

/** A credential as lists show it: never the secret, never its digest. */
export interface ManagementCredentialView {
  id: string;
  name: string;
  scopes: Scope[];
  model_ids: string[] | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

/** The answer of a creation: the only time the secret is shown. */
export interface CreatedManagementCredential {
  id: string;
  name: string;
  scopes: Scope[];
  model_ids: string[] | null;
  created_at: string;
  token: string;
}

export interface CreateManagementCredentialInput {
  /** 1 to 80 characters (the route trims it). */
  name: string;
  /** Scopes asked for; `content:read` is always added, repeats dropped. */
  scopes: readonly Scope[];
  /** Models of this site it may touch; absent or `null`: every model, including later ones. */
  model_ids?: readonly string[] | null;
}

function requireSettings(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) {
    throw new AppError("missing_permission", 'Missing permission "site:settings".');
  }
}

function toView(row: ManagementCredentialsTable): ManagementCredentialView {
  return {
    id: row.id,
    name: row.name,
    scopes: v.parse(v.array(Scope), JSON.parse(row.scopes)),
    model_ids: row.model_ids === null ? null : (JSON.parse(row.model_ids) as string[]),
    created_by: row.created_by,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * Creates a credential acting as the person asking. Refusals, in order: the actor is not a person
 * (403 `forbidden`: a credential never mints another, which would escape its own narrowing); no
 * `site:settings` (403 `missing_permission`); a name outside 1..80 characters (400); model ids
 * that are not this site's models (422 `unknown_model` with `model_ids`); scopes or models the
 * person does not hold now (422 `grant_not_held` with `scopes` and/or `model_ids`). Nothing is
 * written on a refusal.
 */
export async function createManagementCredential(ctx: LifecycleContext, input: CreateManagementCredentialInput): Promise<CreatedManagementCredential> {
  if (ctx.actor.kind !== "person") {
    throw new AppError("forbidden", "Only a signed-in person creates management credentials.");
  }
  requireSettings(ctx);
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) throw new AppError("invalid_request", "The name must be 1 to 80 characters.");
  const scopes = normaliseScopes(input.scopes);
  const modelIds = input.model_ids === undefined || input.model_ids === null ? null : [...new Set(input.model_ids)];

  const models = modelRepository(ctx.db, ctx.scope);
  if (modelIds !== null) {
    const found = new Set((await models.findMany(modelIds)).map((m) => m.id));
    const unknown = modelIds.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new AppError("unknown_model", "Some model ids are not models of this site.", { model_ids: unknown });
    }
  }
  const siteModelIds = modelIds === null ? (await models.list()).map((m) => m.id) : [];
  const problems = grantProblems(ctx.actor.permissions, scopes, modelIds, siteModelIds);
  if (problems.scopes.length > 0 || problems.model_ids.length > 0) {
    const details: Record<string, unknown> = {};
    if (problems.scopes.length > 0) details.scopes = problems.scopes;
    if (problems.model_ids.length > 0) details.model_ids = problems.model_ids;
    throw new AppError("grant_not_held", "Only what you hold now can be granted.", details);
  }

  const id = newId("mcr");
  const token = newSecret("dwm_");
  const createdAt = isoAt(ctx.clock.now());
  const statement = ctx.db
    .insertInto("management_credentials")
    .values({
      id,
      site_id: ctx.site.id,
      name,
      digest: await sha256Hex(token),
      scopes: JSON.stringify(scopes),
      model_ids: modelIds === null ? null : JSON.stringify(modelIds),
      created_by: ctx.actor.id,
      created_at: createdAt,
      revoked_at: null,
    })
    .compile();
  const answer: CreatedManagementCredential = { id, name, scopes, model_ids: modelIds, created_at: createdAt, token };
  await commitPlan(ctx, {
    statements: [statement],
    answer,
    events: [],
    purgeTags: [],
    audit: {
      action: "management_credential.create",
      targetKind: "management_credential",
      targetId: id,
      details: { name, scopes, model_ids: modelIds },
    },
  });
  return answer;
}

const CREDENTIALS: SecretKind<"management_credentials"> = {
  table: "management_credentials",
  auditName: "management_credential",
  targetKind: "management_credential",
  notFound: "No such management credential.",
};

/** Every credential of the site, newest first, revoked ones included (with `revoked_at`). */
export async function listManagementCredentials(ctx: LifecycleContext): Promise<ManagementCredentialView[]> {
  requireSettings(ctx);
  return (await listSecrets(ctx, CREDENTIALS)).map(toView);
}

/**
 * Revokes a credential of the site: the next request with it gets 401. Revoking a revoked
 * credential answers it unchanged (nothing written); a credential of another site or none is
 * 404 not_found.
 */
export async function revokeManagementCredential(ctx: LifecycleContext, credentialId: string): Promise<ManagementCredentialView> {
  requireSettings(ctx);
  return toView(await revokeSecret(ctx, CREDENTIALS, credentialId));
}
