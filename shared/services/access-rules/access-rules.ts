import type { SiteSettings } from "../../content/site-settings";
import { AppError } from "../../errors";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { checkRevision, requireSettings, settingsUpdate } from "../settings/settings-revision";

/**
 * Access-proxy rules (spec 2 rule 15: a role "named by an access-proxy rule" cannot be deleted;
 * issue #29 item 8; docs/access-rules.md). Driftwood's reading: the website in front of the
 * public API gates member-only paths of its own (for example `/members/`) by the roles of the
 * signed-in person; the CMS keeps those rules, serves them to the website as data, and refuses to
 * delete a role a rule names. Stored in the site settings (`access_rules`), sharing their revision.
 */

export const MAX_ACCESS_RULES = 50;

export interface AccessRule {
  /** A path prefix of the website, starting with "/". */
  path_prefix: string;
  /** Role ids of the site allowed through; people without one of them are refused by the website. */
  role_ids: string[];
}

export interface AccessRulesView {
  rules: (AccessRule & { roles: { id: string; slug: string }[] })[];
  revision: number;
}

/** Stored rules, or none when absent or malformed. */
export function storedAccessRules(settings: SiteSettings): AccessRule[] {
  const raw = settings.access_rules;
  if (raw === null || typeof raw !== "object" || !Array.isArray((raw as { rules?: unknown }).rules)) return [];
  return (raw as { rules: AccessRule[] }).rules;
}

async function roleSlugs(ctx: LifecycleContext): Promise<Map<string, string>> {
  const rows = await ctx.db.selectFrom("roles").select(["id", "slug"]).where("site_id", "=", ctx.site.id).execute();
  return new Map(rows.map((r) => [r.id, r.slug]));
}

/** The rules with each role's slug, for the website (GET /settings/access-rules). */
export async function accessRulesView(ctx: LifecycleContext): Promise<AccessRulesView> {
  const slugs = await roleSlugs(ctx);
  return {
    rules: storedAccessRules(ctx.site.settings).map((r) => ({ ...r, roles: r.role_ids.map((id) => ({ id, slug: slugs.get(id) ?? "" })) })),
    revision: ctx.site.settings_revision,
  };
}

export interface PutAccessRulesInput {
  rules: AccessRule[];
  expected_revision?: number;
}

/** PUT /settings/access-rules: replaces the rules. Every role named must be a role of the site. */
export async function putAccessRules(ctx: LifecycleContext, input: PutAccessRulesInput): Promise<WritePlan<AccessRulesView>> {
  requireSettings(ctx, "access rules");
  const site = ctx.site;
  checkRevision(ctx, input.expected_revision);
  const slugs = await roleSlugs(ctx);
  const issues: { path: string; message: string }[] = [];
  const prefixes = new Set<string>();
  input.rules.forEach((rule, i) => {
    if (prefixes.has(rule.path_prefix)) issues.push({ path: `rules[${i}].path_prefix`, message: "a path prefix is named twice" });
    prefixes.add(rule.path_prefix);
    rule.role_ids.forEach((id, j) => {
      if (!slugs.has(id)) issues.push({ path: `rules[${i}].role_ids[${j}]`, message: `"${id}" is not a role of this site` });
    });
  });
  if (issues.length > 0) throw new AppError("invalid_request", "The access rules are not valid.", { issues });
  const rules = input.rules.map((r) => ({ path_prefix: r.path_prefix, role_ids: [...new Set(r.role_ids)] }));
  const after: SiteSettings = { ...site.settings, access_rules: { rules } };
  const revision = site.settings_revision + 1;
  return {
    statements: [
      settingsUpdate(ctx, after),
    ],
    answer: { rules: rules.map((r) => ({ ...r, roles: r.role_ids.map((id) => ({ id, slug: slugs.get(id) ?? "" })) })), revision },
    events: [{ name: "site.settings_updated", payload: { revision, changed: ["access_rules"] } }],
    purgeTags: [],
    audit: { action: "site.access_rules_update", targetKind: "site", targetId: site.id, details: { rules } },
  };
}

/** Refuses deleting a role an access rule names (spec 2 rule 15), naming the rules' paths. */
export function requireRoleNotInAccessRules(settings: SiteSettings, roleId: string): void {
  const naming = storedAccessRules(settings).filter((r) => r.role_ids.includes(roleId));
  if (naming.length > 0) {
    throw new AppError("role_in_access_rule", "Access rules name this role; change them first.", { path_prefixes: naming.map((r) => r.path_prefix) });
  }
}
