import { findSession } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { requireCsrfOnWrite } from "../admin/auth";
import { sessionSecretOf } from "../admin/cookies";

/** Who runs an operators' route: a script with the deployment's token, or a superadmin in the admin. */
export type OpsCaller = { kind: "token" } | { kind: "superadmin"; personId: string };

const notFound = () => new AppError("not_found", "No such admin route.");
const needsToken = () => new AppError("unauthorized", "This route needs the operators' token.");

/**
 * The caller of an `/api/ops` request (docs/operations-api.md, "Who may call"), decided before the
 * path or body is read:
 * - `Authorization: Bearer <OPS_TOKEN>` — the operators' token, compared as SHA-256 digests (the
 *   comparison takes the same time whatever it holds). Without an `OPS_TOKEN` secret no token
 *   exists and the surface answers 404, the admin host's answer for an unknown path.
 * - no Authorization header and the admin's session cookie of a person flagged superadmin — the
 *   superadmin screens. This needs no `OPS_TOKEN`: the flag is set by whoever runs the deployment,
 *   never through a site. Writes carry the session's CSRF token (403 `csrf_failed`), as every
 *   admin write does.
 * Anyone else: 404 when the deployment has no token, 401 when it has one.
 */
export async function opsCaller(request: Request, env: Env): Promise<OpsCaller> {
  const token = env.OPS_TOKEN;
  const authorization = request.headers.get("authorization");
  const cookieSecret = sessionSecretOf(request);
  if (authorization === null && cookieSecret) {
    const session = await findSession(createDb(env.DB), cookieSecret, systemClock.now());
    if (session?.person.superadmin) {
      await requireCsrfOnWrite(request, session);
      return { kind: "superadmin", personId: session.person.id };
    }
  }
  if (!token) throw notFound();
  // The scheme is case-insensitive (RFC 9110 §11.1), as on the management and plugin surfaces.
  const given = /^Bearer +(\S+)$/i.exec((authorization ?? "").trim())?.[1] ?? "";
  if ((await sha256Hex(given)) !== (await sha256Hex(token))) throw needsToken();
  return { kind: "token" };
}
