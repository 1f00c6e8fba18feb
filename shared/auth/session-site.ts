import { sql } from "kysely";
import { sha256Hex } from "../crypto/digest";
import { isoAt } from "../clock";
import { createDb } from "../db/client";
import { readTogether } from "../db/read-together";
import { toSite, type Site } from "../repositories/site-repository";
import { authorityQuery, type AuthorityRow } from "./person-authority";
import { isSessionSecret, liveSessionQuery, toSession, type Session } from "./sessions";

/**
 * A session request on a site (the admin's `X-Site-Id`), read in one D1 batch: the live session of
 * the cookie's secret, its person's membership on the named site (the person found through a
 * subquery on the session's digest) and the site. One round trip where the admin paid three; the
 * caller looks at them in its order of refusals (workers/admin/auth.ts).
 */
export interface SessionOnSite {
  session: Session | undefined;
  /** Only meaningful with a session: the membership row of its person on the site. */
  authority: AuthorityRow | undefined;
  site: Site | undefined;
}

export async function readSessionOnSite(d1: D1Database, secret: string, siteId: string, nowMs: number): Promise<SessionOnSite> {
  if (!isSessionSecret(secret)) return { session: undefined, authority: undefined, site: undefined };
  const db = createDb(d1);
  const digest = await sha256Hex(secret);
  const person = sql<string>`(${db.selectFrom("sessions").select("person_id").where("id_digest", "=", digest).where("expires_at", ">", isoAt(nowMs))})`;
  const [sessions, authorities, sites] = await readTogether(d1, [
    liveSessionQuery(db, digest, nowMs).compile(),
    authorityQuery(db, person, siteId).compile(),
    db.selectFrom("sites").selectAll().where("id", "=", siteId).compile(),
  ] as const);
  const session = sessions[0];
  const site = sites[0];
  return { session: session ? toSession(session) : undefined, authority: authorities[0], site: site ? toSite(site) : undefined };
}
