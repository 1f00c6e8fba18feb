import {
  AddHostBody,
  CopySiteBody,
  DeleteSiteBody,
  FleetReportQuery,
  ProposeModelBody,
  CreateSiteBody,
  EmptyBody,
  InviteAdministratorBody,
  MoveSiteBody,
  opsSurface,
  OPS_BASE,
  SiteHostPath,
  SiteRefPath,
} from "../../schema/ops-api";
import type { CompiledQuery } from "kysely";
import { systemClock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { addOpsSiteHost, createOpsSite, findOpsSite, getOpsSite, inviteOpsSiteAdministrator, listOpsSites, removeOpsSiteHost, setOpsSiteSuspended, type OpsSiteView } from "../../shared/services/sites/ops-sites";
import { parse } from "../../shared/services/validation/parse";
import { DRIFTWOOD_VERSION } from "../../shared/version";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { cloudflarePurger, purgeAfterCommit } from "../../shared/public/cache-purge";
import { readJsonBody } from "../http/json-body";
import { json } from "../http/respond";
import { malformedPath, methodNotAllowed, routeTable } from "../http/route-table";
import { expectValue, siteObject } from "../forward";
import { idempotencyKey, requestFingerprint } from "../manage/idempotency-key";
import { adminOrigin } from "../oauth/origin";
import { opsCaller } from "./caller";
import { claimOps, completeOps, completeStatement, freeOps } from "./idempotency";
import { dryRunCopy, runCopy } from "./copy";
import { runDelete } from "./delete";
import { fleetReport, proposeToFleet } from "./fleet-proposals";

export { OPS_BASE };

const OPS_BODY_MAX_BYTES = 4096;

// HEAD answers like GET (RFC 9110 §9.3.2), as on the management, admin and public surfaces.
const match = routeTable(opsSurface.basePath, opsSurface.routes, { headAsGet: true });

const notFound = () => new AppError("not_found", "No such admin route.");

/** A keyed write: runs `work` once per Idempotency-Key, replaying the first answer after that. */
type Keyed = (status: number, work: (extra: (answer: OpsSiteView) => CompiledQuery[]) => Promise<unknown>, ownBatch?: { stored: (answer: unknown) => unknown }) => Promise<Response>;

/** An invitation's answer as kept for replay: never its link, whose token is stored only as a digest (docs/people.md). */
const withoutLink = (answer: unknown): unknown => {
  if (answer === null || typeof answer !== "object") return answer;
  const { link: _link, ...rest } = answer as Record<string, unknown>;
  return rest;
};

/**
 * Operators' routes (schema/ops-api.ts, docs/operations-api.md) on the admin host, for the
 * operators' token or a superadmin's admin session (./caller.ts), decided before the path or body
 * is looked at.
 */
export async function handleOps(request: Request, env: Env): Promise<Response> {
  await opsCaller(request, env);
  const matched = await match(request);
  if (matched.kind === "none") throw notFound();
  if (matched.kind === "method_not_allowed") throw methodNotAllowed(matched.allow);
  if (matched.kind === "malformed") throw malformedPath();
  const { route, params } = matched;
  const clock = systemClock;
  const body = route.method === "get" ? undefined : await readJsonBody(request, OPS_BODY_MAX_BYTES);

  const keyed: Keyed = async (status, work, ownBatch) => {
    const key = idempotencyKey(request);
    const path = new URL(request.url).pathname;
    const claim = await claimOps(env.DB, clock, key, await requestFingerprint(request.method, path, body));
    if (claim.kind === "replay") {
      const first = JSON.parse(claim.body) as unknown;
      const replayed = first !== null && typeof first === "object" && !Array.isArray(first) ? { ...first, replayed: true } : first;
      return json(replayed, claim.status);
    }
    try {
      const answer = await work((view) => (ownBatch ? [] : [completeStatement(env.DB, clock, key, status, view)]));
      if (ownBatch) await completeOps(env.DB, clock, key, status, ownBatch.stored(answer));
      return json(answer, status);
    } catch (error) {
      await freeOps(env.DB, key).catch(() => undefined);
      throw error;
    }
  };

  switch (route.operationId) {
    case "getServiceInfo":
      return json({ name: "driftwood", version: DRIFTWOOD_VERSION });
    case "listSites":
      return json({ data: await listOpsSites(env) });
    case "getSite":
      return json(await getOpsSite(env, parse(SiteRefPath, params).id));
    case "createSite": {
      const input = parse(CreateSiteBody, body);
      return keyed(201, (extra) => createOpsSite(env, clock, input, extra));
    }
    case "addSiteHost": {
      const { id } = parse(SiteRefPath, params);
      const { host } = parse(AddHostBody, body);
      return keyed(201, (extra) => addOpsSiteHost(env, clock, id, host, extra));
    }
    case "removeSiteHost": {
      const { id, host } = parse(SiteHostPath, params);
      parse(EmptyBody, body);
      return keyed(200, (extra) => removeOpsSiteHost(env, clock, id, host, extra));
    }
    case "suspendSite":
    case "resumeSite": {
      const { id } = parse(SiteRefPath, params);
      parse(EmptyBody, body);
      const suspend = route.operationId === "suspendSite";
      return keyed(200, async (extra) => {
        const view = await setOpsSiteSuspended(env, clock, id, suspend, extra);
        // The edge cache may hold the site's public answers (docs/caching.md): purge them, so a
        // suspended site stops being served at once rather than when they expire.
        if (suspend) await purgeAfterCommit(env, cloudflarePurger(env), [cacheTag.site(view.id)]);
        return view;
      });
    }
    case "inviteSiteAdministrator": {
      const { id } = parse(SiteRefPath, params);
      const { email } = parse(InviteAdministratorBody, body);
      return keyed(201, () => inviteOpsSiteAdministrator(env, clock, id, email, adminOrigin(request, env)), { stored: withoutLink });
    }
    case "copySite": {
      const { id } = parse(SiteRefPath, params);
      const parsed = parse(CopySiteBody, body);
      const input = { to: parsed.to, into: parsed.into, content: parsed.content ?? false, media: parsed.media ?? false };
      // A dry run writes nothing, so it needs no key (a key sent is ignored).
      if (parsed.dry_run === true) return dryRunCopy(env, id, input);
      const key = idempotencyKey(request);
      return runCopy(env, clock, key, await requestFingerprint(request.method, new URL(request.url).pathname, body), id, input);
    }
    case "deleteSite": {
      const { id } = parse(SiteRefPath, params);
      const { confirm } = parse(DeleteSiteBody, body);
      const key = idempotencyKey(request);
      return runDelete(env, clock, key, await requestFingerprint(request.method, new URL(request.url).pathname, body), id, confirm);
    }
    case "proposeModelToSites": {
      const input = parse(ProposeModelBody, body);
      const key = idempotencyKey(request);
      // Each site's proposal commits in its own object: the fleet answer is stored once all are made.
      return keyed(201, () => proposeToFleet(env, key, input), { stored: (answer) => answer });
    }
    case "fleetModelProposals": {
      const { model } = parse(FleetReportQuery, Object.fromEntries(new URL(request.url).searchParams));
      return json(await fleetReport(env, model));
    }
    case "moveSiteDatabase": {
      const { id: ref } = parse(SiteRefPath, params);
      const { binding } = parse(MoveSiteBody, body);
      // Named by id or slug like every site route here; the object is the id's (404 for neither).
      const { id } = await findOpsSite(env, ref);
      // The move runs in the site's object, under its write queue: no write of the site meanwhile.
      // It takes no Idempotency-Key: it is repeatable by itself (a second move to the same binding answers moved: false).
      const answer = await expectValue(siteObject(env, id).moveDatabase(id, binding));
      return json(answer);
    }
    default:
      throw notFound();
  }
}
