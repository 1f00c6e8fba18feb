/**
 * The demo seed: two sites, one admin, models and content, written through the real services
 * (provisionSite, createModel, createEntry, addLanguage, publishEntry, unpublishEntry, trashEntry)
 * and committed with commitPlan, so published snapshots are exactly what the lifecycle builds.
 *
 * Idempotent: when site `demo` already exists nothing is written and the existing ids are read back.
 * Runs inside workerd: from scripts/seed/seed-worker.ts (npm run seed) and from the integration test.
 *
 * This file holds seedDemo itself; the parts live in sibling files of one purpose each:
 * demo-spec.ts (login, sites, result), seed-clock.ts, seed-apply.ts, demo-models.ts, demo-site.ts,
 * other-site.ts and read-demo.ts (reading the demo back).
 */
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { isoAt } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById, type Site } from "../../shared/repositories/site-repository";
import { trashEntry, type Actor, type LifecycleContext } from "../../shared/services/lifecycle";
import { grantMembership, provisionPerson, provisionSite } from "../../shared/services/sites/provision";
import { DEMO_ADMIN, DEMO_SITES, type DemoSeedResult, type SeedEnv } from "./demo-spec";
import { seedDemoSite } from "./demo-site";
import { seedOtherSite } from "./other-site";
import { readDemo, requireComplete } from "./read-demo";
import { apply } from "./seed-apply";
import { SeedClock, SETUP_AT } from "./seed-clock";

export {
  DEMO_ADMIN,
  DEMO_SITES,
  IncompleteSeedError,
  type DemoCounts,
  type DemoSeedResult,
  type DemoSite,
  type DemoSiteSpec,
  type SeedEnv,
} from "./demo-spec";
export { readDemo } from "./read-demo";

function adminActor(personId: string): Actor {
  const role = SEEDED_ROLES.find((r) => r.slug === "admin");
  if (!role) throw new Error("no seeded admin role");
  // The seed acts as the system, on behalf of the demo admin (who then owns the entries).
  return { kind: "system", id: personId, permissions: structuredClone(role.permissions) };
}

/** Seeds the demo unless site `demo` exists; either way answers the ids as D1 holds them. */
export async function seedDemo(env: SeedEnv): Promise<DemoSeedResult> {
  const log: string[] = [];
  const db = createDb(env.DB);
  const existing = await db.selectFrom("sites").select("id").where("slug", "=", "demo").executeTakeFirst();
  if (existing) {
    await requireComplete(env.DB, existing.id);
    log.push("Site demo already exists: nothing written.");
    return { created: false, ...(await readDemo(env.DB)), log };
  }

  const clock = new SeedClock();
  const setupAt = isoAt(SETUP_AT);

  // 1. The admin person, both sites, their hosts and roles, and the memberships: one atomic batch,
  //    so either both sites exist or neither does.
  const person = await db.selectFrom("persons").select("id").where("email", "=", DEMO_ADMIN.email).executeTakeFirst();
  const provisionedPerson = person ? undefined : await provisionPerson(db, { email: DEMO_ADMIN.email, name: DEMO_ADMIN.name, password: DEMO_ADMIN.password }, setupAt);
  const personId = person?.id ?? provisionedPerson?.personId ?? "";
  const statements = [...(provisionedPerson?.statements ?? [])];
  const siteIds: string[] = [];
  for (const spec of DEMO_SITES) {
    const provisioned = provisionSite(
      db,
      { slug: spec.slug, name: spec.name, default_lang: spec.default_lang, languages: [...spec.languages], hosts: [spec.host], settings: structuredClone(spec.settings) },
      setupAt,
    );
    const adminRole = provisioned.roleIds.admin;
    if (!adminRole) throw new Error("provisionSite made no admin role");
    statements.push(...provisioned.statements, grantMembership(db, provisioned.siteId, personId, adminRole, setupAt));
    siteIds.push(provisioned.siteId);
  }
  await commit(env.DB, statements);
  log.push(`Created ${DEMO_ADMIN.email} and sites ${DEMO_SITES.map((s) => s.slug).join(", ")}.`);

  const [demoSite, otherSite] = await Promise.all(siteIds.map((id) => findSiteById(db, id)));
  if (!demoSite || !otherSite) throw new Error("sites not created");
  const actor = adminActor(personId);
  const context = (site: Site): LifecycleContext => ({ db, d1: env.DB, scope: siteScope(site.id), site, actor, clock });

  const demo = context(demoSite);
  const trashCandidate = await seedDemoSite(env, demo, clock, log);
  await seedOtherSite(context(otherSite), clock, log);

  // Last step, on purpose: a trashed article in `demo` marks a complete seed (see requireComplete).
  clock.set(null);
  await apply(demo, trashEntry(demo, { instance_id: trashCandidate }));
  log.push("Moved 1 article to Trash.");

  return { created: true, ...(await readDemo(env.DB)), log };
}
