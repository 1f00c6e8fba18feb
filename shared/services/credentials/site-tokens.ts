import { modelsNotHeld } from "../../auth/grant-bounds";
import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { newSecret, sha256Hex } from "../../crypto/digest";
import type { SiteApiTokensTable } from "../../db/database";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import { listSecrets, revokeSecret, type SecretKind } from "./revocable-secrets";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * Site API tokens (`dw_site_…`): read access to named private models of one site on the public
 * API. Managing them needs `site:settings`. The secret is returned once by {@link createSiteToken}
 * and stored only as its SHA-256 digest; `shared/public/site-tokens.ts` checks it on every read,
 * so a revocation holds on the next request.
 */

/** A token as lists show it: never the secret, never its digest. */
export interface SiteTokenView {
  id: string;
  name: string;
  model_ids: string[];
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** The answer of a creation: the only time the secret is shown. */
export interface CreatedSiteToken {
  id: string;
  name: string;
  model_ids: string[];
  created_at: string;
  token: string;
}

function requireSettings(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) {
    throw new AppError("missing_permission", 'Missing permission "site:settings".');
  }
}

function toView(row: SiteApiTokensTable): SiteTokenView {
  return {
    id: row.id,
    name: row.name,
    model_ids: JSON.parse(row.model_ids) as string[],
    created_by: row.created_by,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * Creates a token reading the given models of the site (ids; repeats are dropped). Unknown ids:
 * 422 unknown_model; models the creator may not read now: 422 grant_not_held with `model_ids`.
 */
export async function createSiteToken(ctx: LifecycleContext, input: { name: string; model_ids: readonly string[] }): Promise<CreatedSiteToken> {
  requireSettings(ctx);
  const modelIds = [...new Set(input.model_ids)];
  const found = new Set((await modelRepository(ctx.db, ctx.scope).findMany(modelIds)).map((m) => m.id));
  const unknown = modelIds.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new AppError("unknown_model", "Some model ids are not models of this site.", { model_ids: unknown });
  }
  // A token reads without its creator: only models the creator may read now can be handed to it.
  const notHeld = modelsNotHeld(ctx.actor.permissions, modelIds);
  if (notHeld.length > 0) throw new AppError("grant_not_held", "Only models you may read can be granted.", { model_ids: notHeld });
  const id = newId("tok");
  const token = newSecret("dw_site_");
  const createdAt = isoAt(ctx.clock.now());
  const statement = ctx.db
    .insertInto("site_api_tokens")
    .values({
      id,
      site_id: ctx.site.id,
      name: input.name,
      digest: await sha256Hex(token),
      model_ids: JSON.stringify(modelIds),
      created_by: ctx.actor.id,
      created_at: createdAt,
      revoked_at: null,
    })
    .compile();
  const answer: CreatedSiteToken = { id, name: input.name, model_ids: modelIds, created_at: createdAt, token };
  await commitPlan(ctx, {
    statements: [statement],
    answer,
    events: [],
    purgeTags: [],
    audit: { action: "site_token.create", targetKind: "site_api_token", targetId: id, details: { name: input.name, model_ids: modelIds } },
  });
  return answer;
}

const SITE_TOKENS: SecretKind<"site_api_tokens"> = { table: "site_api_tokens", auditName: "site_token", targetKind: "site_api_token", notFound: "No such site API token." };

/** Every token of the site, newest first, revoked ones included (with `revoked_at`). */
export async function listSiteTokens(ctx: LifecycleContext): Promise<SiteTokenView[]> {
  requireSettings(ctx);
  return (await listSecrets(ctx, SITE_TOKENS)).map(toView);
}

/**
 * Revokes a token of the site. Revoking a revoked token answers it unchanged (nothing written);
 * a token of another site or no token is 404 not_found.
 */
export async function revokeSiteToken(ctx: LifecycleContext, tokenId: string): Promise<SiteTokenView> {
  requireSettings(ctx);
  return toView(await revokeSecret(ctx, SITE_TOKENS, tokenId));
}
