import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import { controlDatabase, SITE_DATABASE_BINDINGS, DEFAULT_SITE_DATABASE, siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError, type Failure } from "../../shared/errors";
import { modelRepository } from "../../shared/repositories/model-repository";
import { storedSet } from "../../shared/services/people/rules";
import type { ProposalSource } from "../../shared/services/proposals/entry-proposals";
import type { BlockedChange, ProposedDefinition } from "../../shared/services/models/apply-model";
import { settle, siteObject } from "../forward";
import type { WriteAnswer } from "../../objects/site/commands";
import type { ModelProposalView } from "../../shared/services/proposals/model-proposals";

/** Sites one fleet proposal reaches at most (each is one call of that site's object). */
export const FLEET_MAX_SITES = 100;

/** How a fleet proposal is recorded on each site (docs/fleet-models.md, "Source"). */
export const OPERATORS_SOURCE: ProposalSource = { kind: "management", id: "operators", label: "Operators" };

export type FleetResult =
  | { site_id: string; slug: string; proposal_id: string; mode: "create" | "update"; changes: BlockedChange[] }
  | { site_id: string; slug: string; error: Failure };

interface SiteRef {
  id: string;
  slug: string;
  suspended_at: string | null;
}

async function fleetSites(env: Env, sites: string[] | "all"): Promise<SiteRef[]> {
  const control = controlDatabase(env);
  if (sites === "all") {
    const all = (await control.prepare("SELECT id, slug, suspended_at FROM sites ORDER BY slug LIMIT ?").bind(FLEET_MAX_SITES + 1).all<SiteRef>()).results;
    if (all.length > FLEET_MAX_SITES) throw new AppError("invalid_request", `"all" reaches more than ${FLEET_MAX_SITES} sites; name them in lists of at most ${FLEET_MAX_SITES}.`);
    return all;
  }
  const found: SiteRef[] = [];
  for (const ref of [...new Set(sites)]) {
    const row = await control.prepare(`SELECT id, slug, suspended_at FROM sites WHERE ${ref.startsWith("site_") ? "id" : "slug"} = ?`).bind(ref).first<SiteRef>();
    if (!row) throw new AppError("not_found", `No such site: ${ref}.`, { site: ref });
    found.push(row);
  }
  return found;
}

/**
 * POST /api/ops/model-proposals (docs/fleet-models.md): one model definition proposed to each site
 * as a model proposal, through the site's object like any proposal. The model is found by slug on
 * each site: there, an update proposal over the model as it is now (its fields matched by key get
 * that site's field ids); elsewhere, a create proposal. The proposer acts with the site's seeded
 * administrator role's permissions. Each site's proposal carries a per-site idempotency key derived
 * from the operator's key, so a retried fleet request never proposes twice on a site. A site that
 * refuses (suspended, a name taken, a definition its models make invalid) gets its error in the
 * answer; the others still get their proposal.
 */
export async function proposeToFleet(env: Env, opsKey: string, input: { sites: string[] | "all"; definition: ProposedDefinition; note?: string | undefined }): Promise<{ data: FleetResult[] }> {
  if (input.definition.fields.some((f) => f.id !== undefined)) throw new AppError("invalid_request", "A fleet proposal names fields by key, never by id (ids differ from site to site).");
  const sites = await fleetSites(env, input.sites);
  const data: FleetResult[] = [];
  for (const site of sites) {
    if (site.suspended_at !== null) {
      data.push({ site_id: site.id, slug: site.slug, error: { code: "site_suspended", message: "This site is suspended." } });
      continue;
    }
    data.push(await proposeToSite(env, opsKey, site, input));
  }
  return { data };
}

async function proposeToSite(env: Env, opsKey: string, site: SiteRef, input: { definition: ProposedDefinition; note?: string | undefined }): Promise<FleetResult> {
  const control = createDb(controlDatabase(env));
  const role = await control.selectFrom("roles").select(["permissions"]).where("site_id", "=", site.id).where("slug", "=", "admin").where("seeded", "=", 1).executeTakeFirst();
  if (!role) return { site_id: site.id, slug: site.slug, error: { code: "unknown_role", message: "This site has no seeded administrator role." } };
  const db = createDb(await siteScopedDatabase(env, site.id));
  const model = (await modelRepository(db, siteScope(site.id)).list()).find((m) => m.slug === input.definition.model.slug);
  const byKey = new Map(model?.fields.map((f) => [f.key, f.id]) ?? []);
  const definition: ProposedDefinition = model
    ? { model: input.definition.model, fields: input.definition.fields.map((f) => (byKey.has(f.key) ? { ...f, id: byKey.get(f.key) } : f)) }
    : input.definition;
  const request = {
    siteId: site.id,
    actor: { kind: "system" as const, id: OPERATORS_SOURCE.id, permissions: storedSet(role.permissions) },
    input: {
      mode: model ? ("update" as const) : ("create" as const),
      ...(model ? { model_id: model.id, base_updated_at: model.updated_at } : {}),
      definition,
      ...(input.note !== undefined ? { note: input.note } : {}),
      source: OPERATORS_SOURCE,
    },
    idempotency: { scope: "operators", key: `${opsKey}:${site.id}`, fingerprint: await sha256Hex(JSON.stringify(definition) + (input.note ?? "")), retentionMs: 30 * 24 * 60 * 60 * 1000 },
  };
  const outcome = await settle<WriteAnswer<ModelProposalView>>(siteObject(env, site.id).command("createModelProposal", request));
  if (!outcome.ok) return { site_id: site.id, slug: site.slug, error: outcome.error };
  const proposal = outcome.value.body;
  return { site_id: site.id, slug: site.slug, proposal_id: proposal.id, mode: proposal.mode, changes: proposal.changes };
}

export interface FleetReportRow {
  site_id: string;
  slug: string;
  open: number;
  applied: number;
  dismissed: number;
  /** Open update proposals whose model changed (or went away) since they were made. */
  stale: number;
}

/**
 * GET /api/ops/model-proposals[?model=slug]: per site, the operators' model proposals by state, and
 * how many open ones are stale. One grouped query per database (two: states, stale), whatever the
 * number of sites.
 */
export async function fleetReport(env: Env, model: string | undefined): Promise<{ data: FleetReportRow[] }> {
  const sites = (await controlDatabase(env).prepare("SELECT id, slug FROM sites ORDER BY slug").all<{ id: string; slug: string }>()).results;
  const rows = new Map<string, FleetReportRow>(sites.map((s) => [s.id, { site_id: s.id, slug: s.slug, open: 0, applied: 0, dismissed: 0, stale: 0 }]));
  const databases = new Set<D1Database>();
  for (const binding of SITE_DATABASE_BINDINGS) {
    const d1 = binding === DEFAULT_SITE_DATABASE ? env.DB : env[binding];
    if (d1) databases.add(d1);
  }
  const ours = `json_extract(p.source, '$.id') = ?${model === undefined ? "" : " AND json_extract(p.definition, '$.model.slug') = ?"}`;
  const params = model === undefined ? [OPERATORS_SOURCE.id] : [OPERATORS_SOURCE.id, model];
  for (const d1 of databases) {
    const [states, stale] = await d1.batch<Record<string, unknown>>([
      d1.prepare(`SELECT p.site_id AS site_id, p.state AS state, COUNT(*) AS n FROM model_proposals p WHERE ${ours} GROUP BY p.site_id, p.state`).bind(...params),
      d1
        .prepare(
          `SELECT p.site_id AS site_id, COUNT(*) AS n FROM model_proposals p LEFT JOIN models m ON m.id = p.model_id WHERE ${ours} AND p.state = 'open' AND p.mode = 'update' AND (m.id IS NULL OR m.updated_at <> p.base_updated_at) GROUP BY p.site_id`,
        )
        .bind(...params),
    ]);
    for (const r of (states?.results ?? []) as { site_id: string; state: "open" | "applied" | "dismissed"; n: number }[]) {
      const row = rows.get(r.site_id);
      if (row) row[r.state] += r.n;
    }
    for (const r of (stale?.results ?? []) as { site_id: string; n: number }[]) {
      const row = rows.get(r.site_id);
      if (row) row.stale += r.n;
    }
  }
  return { data: [...rows.values()] };
}
