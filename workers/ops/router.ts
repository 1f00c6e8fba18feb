import { MoveSiteBody, MoveSitePath, opsSurface, OPS_BASE } from "../../schema/ops-api";
import { sha256Hex } from "../../shared/crypto/digest";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { parse } from "../../shared/services/validation";
import { readJsonBody } from "../http/json-body";
import { json } from "../http/respond";
import { malformedPath, methodNotAllowed, routeTable } from "../http/route-table";
import { expectValue, siteObject } from "../forward";

export { OPS_BASE };

const OPS_BODY_MAX_BYTES = 4096;

const match = routeTable(opsSurface.basePath, opsSurface.routes);

const notFound = () => new AppError("not_found", "No such admin route.");

/**
 * Operators' routes (schema/ops-api.ts) on the admin host: without an `OPS_TOKEN` secret they do
 * not exist (404, the admin host's own answer for an unknown path); with it, the bearer token must
 * be that secret (compared as SHA-256 digests, so the comparison takes the same time whatever it
 * holds) before the path or body is looked at.
 */
export async function handleOps(request: Request, env: Env): Promise<Response> {
  const secret = env.OPS_TOKEN;
  if (!secret) throw notFound();
  // The scheme is case-insensitive (RFC 9110 §11.1), as on the management and plugin surfaces.
  const given = /^Bearer +(\S+)$/i.exec((request.headers.get("authorization") ?? "").trim())?.[1] ?? "";
  if ((await sha256Hex(given)) !== (await sha256Hex(secret))) throw new AppError("unauthorized", "This route needs the operators' token.");
  const matched = await match(request);
  if (matched.kind === "none") throw notFound();
  if (matched.kind === "method_not_allowed") throw methodNotAllowed(matched.allow);
  if (matched.kind === "malformed") throw malformedPath();
  // One route today (moveSiteDatabase); a second would dispatch on matched.route.operationId.
  const { id } = parse(MoveSitePath, matched.params);
  const { binding } = parse(MoveSiteBody, await readJsonBody(request, OPS_BODY_MAX_BYTES));
  // The move runs in the site's object, under its write queue: no write of the site meanwhile.
  const answer = await expectValue(siteObject(env, id).moveDatabase(id, binding));
  return json(answer);
}
