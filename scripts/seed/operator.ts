/**
 * The demo operator: a person flagged superadmin and a member of no site, so the superadmin screens
 * (Sites: create, hosts, invite an administrator, suspend, copy, delete — docs/operations-api.md)
 * can be tried locally. Idempotent: an existing person of that email is left as it is.
 */
import { createDb } from "../../shared/db/client";
import { commit } from "../../shared/db/batch";
import { provisionPerson } from "../../shared/services/sites/provision";

/** The demo operator's login. Documented in docs/local-run.md; never use it outside a local database. */
export const DEMO_OPERATOR = { email: "operator@demo.localhost", password: "driftwood-operator", name: "Demo Operator" } as const;

/** Creates the demo operator unless the person exists. */
export async function ensureDemoOperator(d1: D1Database, at: string): Promise<{ email: string; password: string }> {
  const db = createDb(d1);
  const login = { email: DEMO_OPERATOR.email, password: DEMO_OPERATOR.password };
  const existing = await db.selectFrom("persons").select("id").where("email", "=", DEMO_OPERATOR.email).executeTakeFirst();
  if (existing) return login;
  const person = await provisionPerson(db, { ...DEMO_OPERATOR, is_superadmin: true }, at);
  await commit(d1, person.statements);
  return login;
}
