import { CreateSiteTokenBody } from "../../schema/admin-bodies";
import { createSiteToken, listSiteTokens, revokeSiteToken } from "../../shared/services/credentials/site-tokens";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** GET /api/site-tokens: the site's tokens, never their secrets. */
export async function listTokens(call: SiteCall): Promise<Response> {
  return json({ data: await listSiteTokens(call.ctx) });
}

/** POST /api/site-tokens: 201 with the secret, shown this once. */
export async function createToken(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, CreateSiteTokenBody);
  return json(await createSiteToken(call.ctx, body), 201);
}

/** DELETE /api/site-tokens/{id}: revokes; the next public request with the token is refused. */
export async function revokeToken(call: SiteCall): Promise<Response> {
  return json(await revokeSiteToken(call.ctx, call.params[0] ?? ""));
}
