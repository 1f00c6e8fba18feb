/**
 * A second demo person: an Editor on site `demo` (not on `other`), so two people can work on the
 * same entry locally — leases, take-over, lock lost (docs/admin-ui-lifecycle.md) — before anyone
 * has been invited. Idempotent: an existing person of that email is left as it is.
 */
import { createDb } from "../../shared/db/client";
import { commit } from "../../shared/db/batch";
import { grantMembership, provisionPerson } from "../../shared/services/sites/provision";

/** The demo editor's login. Documented in docs/local-run.md; never use it outside a local database. */
export const DEMO_EDITOR = { email: "editor@demo.localhost", password: "driftwood-editor", name: "Demo Editor" } as const;

/** Creates the demo editor and its Editor membership on `siteId` unless the person exists. */
export async function ensureDemoEditor(d1: D1Database, siteId: string, at: string): Promise<{ email: string; password: string }> {
  const db = createDb(d1);
  const login = { email: DEMO_EDITOR.email, password: DEMO_EDITOR.password };
  const existing = await db.selectFrom("persons").select("id").where("email", "=", DEMO_EDITOR.email).executeTakeFirst();
  if (existing) return login;
  const role = await db.selectFrom("roles").select("id").where("site_id", "=", siteId).where("slug", "=", "editor").executeTakeFirst();
  if (!role) throw new Error("site demo has no editor role");
  const person = await provisionPerson(db, { email: DEMO_EDITOR.email, name: DEMO_EDITOR.name, password: DEMO_EDITOR.password }, at);
  await commit(d1, [...person.statements, grantMembership(db, siteId, person.personId, role.id, at)]);
  return login;
}
