import { CreateManagementCredentialBody } from "../../schema/admin-bodies";
import {
  createManagementCredential,
  listManagementCredentials,
  revokeManagementCredential,
} from "../../shared/services/credentials/management-credentials";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** GET /api/management-credentials: the site's credentials, never their secrets. */
export async function listCredentials(call: SiteCall): Promise<Response> {
  return json({ data: await listManagementCredentials(call.ctx) });
}

/** POST /api/management-credentials: 201 with the secret, shown this once. */
export async function createCredential(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, CreateManagementCredentialBody);
  return json(await createManagementCredential(call.ctx, body), 201);
}

/** DELETE /api/management-credentials/{id}: revokes; the next management request with it is refused. */
export async function revokeCredential(call: SiteCall): Promise<Response> {
  return json(await revokeManagementCredential(call.ctx, call.params[0] ?? ""));
}
