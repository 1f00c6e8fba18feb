import { env } from "cloudflare:test";
import { AppError } from "../../shared/errors";
import { hashPassword, type PasswordHash } from "../../shared/auth/passwords";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import { systemClock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { databaseByBinding, scopedOver, type SiteDatabaseBinding } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById, type Site } from "../../shared/repositories/site-repository";
import type { Model } from "../../shared/repositories/model-repository";
import { commitPlan, type Actor, type LifecycleContext, type WritePlan } from "../../shared/services/lifecycle";
import { createModel, type CreateModelInput } from "../../shared/services/models/create-model";
import { grantMembership, provisionPerson, provisionSite } from "../../shared/services/sites/provision";

let counter = 0;

const passwordHashes = new Map<string, Promise<PasswordHash>>();
/**
 * The hash of a fixture password, made once per runtime: every seeded site creates a person, and
 * a PBKDF2 hash at the production work factor costs ≈ 20–40 ms of CPU (thousands of people in the
 * suite). The work factor stays the production one, so signing in costs what it costs in production.
 */
export function fixturePasswordHash(password: string): Promise<PasswordHash> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    passwordHashes.set(password, hash);
  }
  return hash;
}
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export function roleActor(personId: string, role: "admin" | "editor" | "author" | "viewer"): Actor {
  const seeded = SEEDED_ROLES.find((r) => r.slug === role);
  if (!seeded) throw new Error(`no role ${role}`);
  return { kind: "person", id: personId, permissions: structuredClone(seeded.permissions) };
}

export interface SeededSite {
  site: Site;
  host: string;
  adminId: string;
  admin: Actor;
  ctx: (actor?: Actor) => LifecycleContext;
  person: (role: "admin" | "editor" | "author" | "viewer") => Promise<Actor>;
}

/** A fresh site with its own host, seeded roles and an admin person. */
export async function seedSite(options: { languages?: string[]; settings?: Record<string, unknown>; database?: SiteDatabaseBinding } = {}): Promise<SeededSite> {
  const db = createDb(env.DB);
  const slug = unique("site");
  const host = `${slug}.test`;
  const at = new Date().toISOString();
  const languages = options.languages ?? ["en", "fr"];
  const provisioned = provisionSite(db, { slug, name: slug, default_lang: languages[0] ?? "en", languages, hosts: [host], settings: options.settings ?? {}, ...(options.database ? { database: options.database } : {}) }, at);
  const admin = await provisionPerson(db, { email: `${slug}@example.test`, name: "Admin", password: "correct horse" }, at, fixturePasswordHash("correct horse"));
  // A site on another database: its foreign-key anchor there first (shared/db/site-anchor.ts).
  if (options.database) await commit(databaseByBinding(env, options.database), provisioned.siteStatements);
  await commit(env.DB, [
    ...provisioned.statements,
    ...admin.statements,
    grantMembership(db, provisioned.siteId, admin.personId, provisioned.roleIds.admin ?? "", at),
  ]);
  const site = await findSiteById(db, provisioned.siteId);
  if (!site) throw new Error("site not created");
  const adminActor = roleActor(admin.personId, "admin");
  // A site on another database gets the same handle as the worker and the site's object build.
  const d1 = scopedOver(env.DB, databaseByBinding(env, options.database ?? "DB"));
  const siteDb = createDb(d1);
  const ctx = (actor: Actor = adminActor): LifecycleContext => ({ db: siteDb, d1, scope: siteScope(site.id), site, actor, clock: systemClock });
  const person = async (role: "admin" | "editor" | "author" | "viewer"): Promise<Actor> => {
    const p = await provisionPerson(db, { email: `${unique(role)}@example.test`, name: role, password: "pw" }, at, fixturePasswordHash("pw"));
    await commit(env.DB, [...p.statements, grantMembership(db, site.id, p.personId, provisioned.roleIds[role] ?? "", at)]);
    return roleActor(p.personId, role);
  };
  return { site, host, adminId: admin.personId, admin: adminActor, ctx, person };
}

/** Commits a plan directly (tests of services; the DO path is tested separately). */
export async function apply<T>(ctx: LifecycleContext, plan: Promise<WritePlan<T>>): Promise<T> {
  return (await commitPlan(ctx, await plan)).answer;
}

export async function addModel(ctx: LifecycleContext, input: CreateModelInput): Promise<Model> {
  return apply(ctx, createModel(ctx, input));
}

/** author, category and article (relations to both, a private field, media) like the demo. */
export async function blogModels(ctx: LifecycleContext): Promise<{ author: Model; category: Model; article: Model; note: Model }> {
  const author = await addModel(ctx, {
    slug: "author",
    name: "Author",
    i18n: false,
    fields: [
      { key: "name", label: "Name", type: "text", required: true, title: true },
      { key: "bio", label: "Bio", type: "long_text" },
    ],
  });
  const category = await addModel(ctx, {
    slug: "category",
    name: "Category",
    i18n: true,
    fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }],
  });
  const article = await addModel(ctx, {
    slug: "article",
    name: "Article",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 200 } },
      { key: "summary", label: "Summary", type: "long_text" },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "author", label: "Author", type: "relation", targets: [author.id] },
      { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] },
      { key: "cover", label: "Cover", type: "media" },
      { key: "internal_note", label: "Internal note", type: "text", private: true },
    ],
  });
  const note = await addModel(ctx, {
    slug: "note",
    name: "Note",
    is_public: false,
    fields: [{ key: "title", label: "Title", type: "text", required: true }],
  });
  return { author, category, article, note };
}

/** The AppError a promise rejects with; anything else (or success) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** How many versions an entry language has in D1 (a refused write must leave it unchanged). */
export async function versionCount(instanceId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(instanceId).first<{ n: number }>())?.n ?? -1;
}
