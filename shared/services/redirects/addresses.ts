import { AppError } from "../../errors";
import { isoAt } from "../../clock";
import { newId } from "../../ids";
import type { CompiledQuery } from "kysely";
import type { Model } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext } from "../lifecycle/context";
import { livePageAt } from "../pages/live-pages";
import { loadRules } from "./redirects";
import { checkRules, findRule } from "./rules";

/** Where the website serves an item of a model with a `site_path` (`/blog/{slug}`), or null. */
export function siteAddress(model: Pick<Model, "settings">, lang: string, slug: string | null): string | null {
  const template = model.settings.site_path;
  if (template === null || slug === null) return null;
  return template.replace("{slug}", slug).replace("{lang}", lang);
}

/**
 * Spec 3: "publishing at an address held by a redirect is refused naming the rule". And, when the
 * publish moves a served item to a new slug and asks for it (`redirect_old_address`), the 301 from
 * its old address, written in the publish's batch (docs/redirects.md, "Slug changes").
 */
export async function addressStatements(
  ctx: LifecycleContext,
  model: Model,
  lang: string,
  slug: string | null,
  served: { slug: string | null } | undefined,
  redirectOld: boolean,
): Promise<{ statements: CompiledQuery[]; purgeTags: string[] }> {
  const address = siteAddress(model, lang, slug);
  if (address === null) return { statements: [], purgeTags: [] };
  const rules = await loadRules(ctx);
  const holder = findRule(rules, address)?.rule;
  if (holder) throw new AppError("address_redirected", `A redirect holds ${address}; change or remove it before publishing there.`, { address, rule: { id: holder.id, source: holder.source } });
  // A published page served at this address (its path, docs/pages.md "Addresses") keeps it.
  const page = await livePageAt(ctx, address);
  if (page && page.model_id !== model.id) throw new AppError("address_taken", `A published page is served at ${address}.`, { address, item: page });
  const old = served ? siteAddress(model, lang, served.slug) : null;
  if (!redirectOld || old === null || old === address) return { statements: [], purgeTags: [] };
  const at = isoAt(ctx.clock.now());
  const rule = { id: newId("rdr"), source: old, target: address, status: 301 as const };
  const problem = checkRules([...rules.filter((r) => r.source !== old), rule]).find((p) => p.rule.id === rule.id || p.other?.id === rule.id);
  if (problem) throw new AppError(problem.code, `The redirect from the old address cannot be made: ${problem.message}`, { rule: problem.rule, ...(problem.other ? { other: problem.other } : {}) });
  const existing = rules.find((r) => r.source === old);
  const write = existing
    ? ctx.db.updateTable("redirects").set({ target: address, status: 301, revision: existing.revision + 1, updated_at: at }).where("id", "=", existing.id).compile()
    : ctx.db.insertInto("redirects").values({ ...rule, site_id: ctx.site.id, note: "Made when the item moved to a new slug.", revision: 0, created_by: ctx.actor.id, created_at: at, updated_at: at }).compile();
  return { statements: [write], purgeTags: [cacheTag.redirects(ctx.site.id)] };
}
