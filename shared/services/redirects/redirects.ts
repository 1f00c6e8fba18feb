import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import type { RedirectRow } from "../../db/database";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { livePageAt } from "../pages/live-pages";
import { canonicalPath, checkRules, findRule, isPattern, resolve, type RedirectRule, type RedirectStatus, type Resolution, type RuleProblem } from "./rules";

/** Redirect rules of a site (docs/redirects.md): writes through the site's object, with every check of the whole set. */
export interface RedirectView extends RedirectRule {
  note: string | null;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface RedirectInput {
  source: string;
  target?: string | null;
  status: RedirectStatus;
  note?: string | null;
}

/** A stored rule as answered; its source in the one form of a path (rules.ts `canonicalPath`), also for rows written before it. */
export const redirectView = ({ site_id: _site, status, ...row }: RedirectRow): RedirectView => ({ ...row, source: canonicalPath(row.source), status: status as RedirectStatus });

export async function loadRules(ctx: Pick<LifecycleContext, "db" | "site">): Promise<RedirectView[]> {
  return (await ctx.db.selectFrom("redirects").selectAll().where("site_id", "=", ctx.site.id).orderBy("source").execute()).map(redirectView);
}

function requireSettings(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) throw new AppError("missing_permission", "Redirects are a site setting: they need site:settings.");
}

/** Whether an absolute target parses as a URL (its `*`, if any, read as a letter) and names no user or password. */
function absoluteTargetOk(target: string): boolean {
  try {
    const url = new URL(target.replaceAll("*", "x"));
    return url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** The shape of one rule: a source path (one `*` at most), and a target as its status asks. */
export function requireRuleShape(rule: { source: string; target?: string | null; status: RedirectStatus }): void {
  const issue = (path: string, message: string) => new AppError("invalid_request", "The redirect is not valid.", { issues: [{ path, message }] });
  // Control characters never reach a path raw (a browser sends `%00`, which stays escaped in the one form of a path): a rule holding one could never match.
  if (!/^\/[^\s\p{Cc}?#]*$/u.test(rule.source) || rule.source.length > 512) throw issue("source", "A path starting with /, without spaces, control characters, query or fragment (at most 512 characters).");
  if ((rule.source.match(/\*/g) ?? []).length > 1) throw issue("source", "A pattern has one * at most.");
  // Browsers and every URL parser resolve `.` and `..` segments (also as %2E) before a request is sent, so a source holding one could never match (probe-30 leftover).
  if (canonicalPath(rule.source).split("/").some((segment) => segment === "." || segment === "..")) throw issue("source", "A path without . or .. segments: browsers resolve them before asking, so the rule could never match.");
  const gone = rule.status === 410 || rule.status === 451;
  if (gone && rule.target) throw issue("target", `A ${rule.status} rule has no target.`);
  if (!gone && !rule.target) throw issue("target", `A ${rule.status} rule needs a target.`);
  if (rule.target) {
    // A site path never starts with `//` or `/\`: browsers read both as another host (an open redirect).
    if (!/^(\/(?![/\\])[^\s\p{Cc}#\\]*|https:\/\/[^\s\p{Cc}/?#\\]+(\/[^\s\p{Cc}#]*)?)$/u.test(rule.target) || rule.target.length > 1000) throw issue("target", "A path starting with a single / (not // or /\\), or an absolute https URL.");
    // An absolute target is where a visitor is sent: a URL a browser can open (a port past 65535 is none), never one carrying credentials (as redirect URIs of apps refuse user info).
    if (rule.target.startsWith("https://") && !absoluteTargetOk(rule.target)) throw issue("target", "An absolute https URL a browser can open, without user name or password.");
    if (rule.target.includes("*") && !isPattern(rule.source)) throw issue("target", "Only a pattern's target may repeat its * .");
  }
}

/** The first problem of a rule set as the refusal of the write that makes it. */
function refusal(problem: RuleProblem): AppError {
  return new AppError(problem.code, problem.message, { rule: problem.rule, ...(problem.other ? { other: problem.other } : {}), ...(problem.chain ? { chain: problem.chain } : {}) });
}

/**
 * The published item the website serves at an address the rule's source matches (exact, or any
 * address a pattern covers), through the models' `site_path` and the published pages' paths
 * (docs/redirects.md, "Live addresses").
 */
export async function liveItemAt(ctx: Pick<LifecycleContext, "db" | "d1" | "scope" | "site">, source: string, exceptModelId?: string): Promise<{ instance_id: string; model_id: string; lang: string; address: string } | undefined> {
  // `exceptModelId`: a page's own model (pages meet each other through their slugs, docs/pages.md).
  const models = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => m.settings.site_path !== null && m.id !== exceptModelId);
  const star = source.indexOf("*");
  const prefix = star < 0 ? source : source.slice(0, star);
  const suffix = star < 0 ? "" : source.slice(star + 1);
  for (const model of models) {
    // The address of each published item of the model, built from its template (`{slug}`, `{lang}`).
    const row = await ctx.d1
      .prepare(
        `SELECT instance_id, model_id, lang, address FROM (
           SELECT p.instance_id, p.model_id, p.lang, replace(replace(?, '{slug}', p.slug), '{lang}', p.lang) AS address
             FROM published_items p WHERE p.site_id = ? AND p.model_id = ? AND p.slug IS NOT NULL)
          WHERE CASE WHEN ? = 0 THEN address = ?
            ELSE substr(address, 1, ?) = ? AND (? = '' OR substr(address, -length(?)) = ?) AND length(address) > ? END
          LIMIT 1`,
      )
      .bind(model.settings.site_path, ctx.site.id, model.id, star < 0 ? 0 : 1, source, prefix.length, prefix, suffix, suffix, suffix, prefix.length + suffix.length)
      .first<{ instance_id: string; model_id: string; lang: string; address: string }>();
    if (row) return row;
  }
  // Published pages are served at their paths (docs/pages.md, "Addresses"); a page's own check leaves them out.
  return exceptModelId === undefined ? livePageAt(ctx, source) : undefined;
}

async function requireNoLiveItem(ctx: LifecycleContext, rule: { id: string; source: string }): Promise<void> {
  const live = await liveItemAt(ctx, rule.source);
  if (live) {
    throw new AppError("redirect_address_live", `A published item is served at ${live.address}; a redirect there would hide it.`, { rule: { id: rule.id, source: rule.source }, item: { instance_id: live.instance_id, model_id: live.model_id, lang: live.lang, address: live.address } });
  }
}

function ruleEvents(name: string, r: RedirectRule) {
  return [{ name, payload: { redirect_id: r.id, source: r.source, target: r.target, status: r.status } }];
}

/** POST /redirects. */
export async function createRedirect(ctx: LifecycleContext, input: RedirectInput): Promise<WritePlan<RedirectView>> {
  requireSettings(ctx);
  requireRuleShape(input);
  const at = isoAt(ctx.clock.now());
  const row: RedirectRow = { id: newId("rdr"), site_id: ctx.site.id, source: canonicalPath(input.source), target: input.target ?? null, status: input.status, note: input.note ?? null, revision: 0, created_by: ctx.actor.id, created_at: at, updated_at: at };
  const view = redirectView(row);
  const current = await loadRules(ctx);
  const problem = checkRules([...current, view]).find((p) => p.rule.id === view.id || p.other?.id === view.id);
  if (problem) throw refusal(problem);
  await requireNoLiveItem(ctx, view);
  return {
    statements: [ctx.db.insertInto("redirects").values(row).compile()],
    answer: view,
    events: ruleEvents("redirect.created", view),
    purgeTags: [cacheTag.redirects(ctx.site.id)],
    locks: [],
    audit: { action: "redirect.create", targetKind: "redirect", targetId: row.id, details: { source: row.source, target: row.target, status: row.status } },
  };
}

/** PUT /redirects/{id}: named keys change; the whole set is checked again. */
export async function updateRedirect(ctx: LifecycleContext, input: Partial<RedirectInput> & { id: string; expected_revision?: number }): Promise<WritePlan<RedirectView>> {
  requireSettings(ctx);
  const current = await loadRules(ctx);
  const before = current.find((r) => r.id === input.id);
  if (!before) throw new AppError("not_found", "No such redirect.");
  if (input.expected_revision !== undefined && input.expected_revision !== before.revision) throw new AppError("settings_changed", "The redirect changed since you read it.", { revision: before.revision });
  const after: RedirectView = {
    ...before,
    source: input.source !== undefined ? canonicalPath(input.source) : before.source,
    target: input.target !== undefined ? input.target : before.target,
    status: input.status ?? before.status,
    note: input.note !== undefined ? input.note : before.note,
    revision: before.revision + 1,
    updated_at: isoAt(ctx.clock.now()),
  };
  requireRuleShape(after);
  const problem = checkRules(current.map((r) => (r.id === after.id ? after : r))).find((p) => p.rule.id === after.id || p.other?.id === after.id || p.code === "redirect_cycle");
  if (problem) throw refusal(problem);
  if (after.source !== before.source) await requireNoLiveItem(ctx, after);
  const { id, source, target, status, note, revision, updated_at } = after;
  return {
    statements: [ctx.db.updateTable("redirects").set({ source, target, status, note, revision, updated_at }).where("site_id", "=", ctx.site.id).where("id", "=", id).compile()],
    answer: after,
    events: ruleEvents("redirect.updated", after),
    purgeTags: [cacheTag.redirects(ctx.site.id)],
    locks: [],
    audit: { action: "redirect.update", targetKind: "redirect", targetId: id, details: { source, target, status } },
  };
}

/** DELETE /redirects/{id}. */
export async function deleteRedirect(ctx: LifecycleContext, input: { id: string }): Promise<WritePlan<{ id: string; source: string; deleted: true }>> {
  requireSettings(ctx);
  const row = await ctx.db.selectFrom("redirects").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", input.id).executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such redirect.");
  return {
    statements: [ctx.db.deleteFrom("redirects").where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile()],
    answer: { id: row.id, source: row.source, deleted: true },
    events: [{ name: "redirect.deleted", payload: { redirect_id: row.id, source: row.source } }],
    purgeTags: [cacheTag.redirects(ctx.site.id)],
    locks: [],
    audit: { action: "redirect.delete", targetKind: "redirect", targetId: row.id, details: { source: row.source } },
  };
}

/** The rule holding an address (publishing an item there is refused naming it). */
export async function redirectAt(ctx: Pick<LifecycleContext, "db" | "site">, address: string): Promise<RedirectRule | undefined> {
  return findRule(await loadRules(ctx), address)?.rule;
}

export interface ReviewInput {
  rules: RedirectInput[];
  /** The rules replace the site's set (an import); by default they join it, a rule with a source already there replacing that one. */
  replace?: boolean;
  /** More addresses to resolve beside the proposed sources. */
  paths?: string[];
}

export interface ReviewAnswer {
  valid: boolean;
  problems: (RuleProblem | { code: "redirect_address_live"; message: string; rule: { id: string; source: string }; item: { instance_id: string; model_id: string; lang: string; address: string } })[];
  resolutions: (Resolution & { rule_id?: string; chain: boolean })[];
}

/**
 * The redirect review route (spec 2: writes nothing, no key): what a set of proposed rules would do
 * — every problem a write would be refused for (each naming its rule), chains, and what each
 * proposed source (and any address asked) resolves to.
 */
export async function reviewRedirects(ctx: LifecycleContext, input: ReviewInput): Promise<ReviewAnswer> {
  input.rules.forEach((r) => requireRuleShape(r));
  // The addresses asked are site paths, as `GET /v1/_redirects/resolve?path=` takes them (never resolved as given).
  (input.paths ?? []).forEach((path, i) => {
    if (!/^\/[^\s?#]*$/.test(path)) throw new AppError("invalid_request", "Each of paths is a site path starting with / (no query or fragment, at most 512 characters).", { issues: [{ path: `paths.${i}`, message: "A site path starting with /." }] });
  });
  const proposed: RedirectRule[] = input.rules.map((r, i) => ({ id: `proposed:${i}`, source: canonicalPath(r.source), target: r.target ?? null, status: r.status }));
  const sources = new Set(proposed.map((r) => r.source));
  const kept = input.replace ? [] : (await loadRules(ctx)).filter((r) => !sources.has(r.source));
  const set = [...kept, ...proposed];
  const problems: ReviewAnswer["problems"] = [...checkRules(set)];
  for (const rule of proposed) {
    const live = await liveItemAt(ctx, rule.source);
    if (live) problems.push({ code: "redirect_address_live", message: `A published item is served at ${live.address}.`, rule: { id: rule.id, source: rule.source }, item: live });
  }
  const asked = [...proposed.map((r) => ({ rule_id: r.id, path: isPattern(r.source) ? r.source.replace("*", "x") : r.source })), ...(input.paths ?? []).map((path) => ({ rule_id: undefined, path }))];
  const resolutions = asked.map(({ rule_id, path }) => {
    const resolution = resolve(set, path);
    return { ...resolution, ...(rule_id ? { rule_id } : {}), chain: resolution.hops.length > 1 };
  });
  return { valid: problems.length === 0, problems, resolutions };
}
