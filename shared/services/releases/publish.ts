import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import type { ReleaseRow } from "../../db/database";
import type { LifecycleContext, WritePlan, EventDraft } from "../lifecycle/context";
import type { EntryView } from "../lifecycle/entry-view";
import { pendingKey, type PendingTargets } from "../lifecycle/relation-targets";
import { publishEntry, unpublishEntry, type AlongsideChanges } from "../lifecycle/transitions";
import { entryRepository } from "../../repositories/entry-repository";
import { authorizeChanges, loadRelease, releaseChanges, releaseGuard, releaseView, requireUnpublished, type ReleaseChange, type ReleaseProblem, type ReleaseView } from "./releases";

/**
 * What publishing a release would do: every change as the ordinary publish or unpublish builds it
 * (validation, unique claims, redirects, the address, dependents), each seeing every other change
 * of the release as made — a link to an entry the release publishes renders as published, an
 * address the release frees is free. Nothing is written: `problems` lists each change refused.
 */
export interface ReleaseBuild {
  plans: { change: ReleaseChange; plan: WritePlan<EntryView> }[];
  problems: ReleaseProblem[];
  pending: PendingTargets;
}

export async function buildRelease(ctx: LifecycleContext, changes: readonly ReleaseChange[]): Promise<ReleaseBuild> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const versions = new Map((await Promise.all(changes.filter((c) => c.action === "publish").map((c) => entries.findVersion(c.version_id)))).flatMap((v) => (v ? [[v.id, v] as const] : [])));
  const pending: PendingTargets = new Map();
  for (const c of changes) {
    const version = versions.get(c.version_id);
    pending.set(
      pendingKey(c.translation_group_id, c.lang),
      c.action === "publish" && version ? { instance_id: c.instance_id, group_id: c.translation_group_id, model_id: c.model_id, lang: c.lang, slug: version.slug, label: version.label } : null,
    );
  }
  const alongside: AlongsideChanges = { pending, members: new Set(changes.map((c) => c.instance_id)) };
  const plans: ReleaseBuild["plans"] = [];
  const problems: ReleaseProblem[] = [];
  const addresses = new Map<string, number>();
  for (const [index, change] of changes.entries()) {
    try {
      // Two changes of the release at one address: the second is refused as the single route would refuse it after the first.
      const slug = change.action === "publish" ? versions.get(change.version_id)?.slug : null;
      if (slug) {
        const key = `${change.model_id}|${change.lang}|${slug}`;
        const first = addresses.get(key);
        if (first !== undefined) throw new AppError("slug_taken", "Another change of this release publishes an item at this address.", { slug, change: first });
        addresses.set(key, index);
      }
      const plan =
        change.action === "publish"
          ? await publishEntry(ctx, { instance_id: change.instance_id, expected_version_id: change.version_id }, alongside)
          : await unpublishEntry(ctx, { instance_id: change.instance_id, expected_published_version_id: change.version_id }, alongside);
      plans.push({ change, plan });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push({ index, instance_id: change.instance_id, lang: change.lang, action: change.action, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) });
    }
  }
  return { plans, problems, pending };
}

export interface PublishReleaseInput {
  release_id: string;
  expected_revision?: number;
}

/** Refusals meaning a pinned version is no longer the one its transition would move (spec 1: `scheduled_target_stale`). */
export const STALE_CHANGE_CODES: ReadonlySet<string> = new Set(["version_conflict", "workflow_conflict", "transition_unavailable", "entry_in_trash", "not_found"]);

/**
 * Publishes a release: validated as a whole first (any change refused: 422 `release_refused` with
 * every problem, nothing written), then every change in ONE batch — withdrawals before
 * publications, so an address one frees is free for another — with the release marked published.
 * The editing-lease guard asks about every entry language the release changes.
 */
export async function publishRelease(ctx: LifecycleContext, input: PublishReleaseInput): Promise<WritePlan<ReleaseView>> {
  const row = await loadRelease(ctx, input.release_id);
  const changes = releaseChanges(row);
  authorizeChanges(ctx, changes);
  requireUnpublished(row, input.expected_revision);
  const built = await buildRelease(ctx, changes);
  if (built.problems.length > 0) {
    const stale = built.problems.every((p) => STALE_CHANGE_CODES.has(p.code));
    throw new AppError("release_refused", `${built.problems.length} of ${changes.length} changes cannot be made; nothing was published.`, { problems: built.problems, stale });
  }
  const ordered = [...built.plans.filter((p) => p.change.action === "unpublish"), ...built.plans.filter((p) => p.change.action === "publish")];
  const now = isoAt(ctx.clock.now());
  const published: ReleaseRow = { ...row, state: "published", published_at: now, updated_at: now, revision: row.revision + 1, outcome_code: null, outcome_message: null, outcome_details: null };
  const statements: CompiledQuery[] = [
    releaseGuard(ctx, row),
    ...ordered.flatMap((p) => p.plan.statements),
    ctx.db
      .updateTable("releases")
      .set({ state: "published", published_at: now, updated_at: now, revision: published.revision, outcome_code: null, outcome_message: null, outcome_details: null })
      .where("id", "=", row.id)
      .compile(),
  ];
  const events: EventDraft[] = [
    ...ordered.flatMap((p) => p.plan.events.map((e) => ({ ...e, payload: { ...e.payload, release_id: row.id } }))),
    { name: "release.published", payload: { release_id: row.id, name: row.name, changes } },
  ];
  return {
    statements,
    answer: releaseView(published),
    events,
    purgeTags: [...new Set(ordered.flatMap((p) => p.plan.purgeTags))],
    locks: changes.map((c) => c.instance_id),
    audit: { action: "release.publish", targetKind: "release", targetId: row.id, details: { changes, by: ctx.actor.id } },
  };
}

export interface EndReleaseInput {
  release_id: string;
  state: "stale" | "failed";
  code: string;
  message: string;
  problems: ReleaseProblem[];
}

/** Ends a timed firing that did not publish: `stale` (`scheduled_target_stale`) or `failed` with the refusal, its audit row and event. */
export async function endRelease(ctx: LifecycleContext, input: EndReleaseInput): Promise<WritePlan<ReleaseView>> {
  const row = await ctx.db.selectFrom("releases").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", input.release_id).executeTakeFirst();
  if (!row || row.state !== "open") throw new AppError("workflow_conflict", "The release is no longer open.");
  const now = isoAt(ctx.clock.now());
  const code = input.state === "stale" ? "scheduled_target_stale" : input.code;
  const message = input.state === "stale" ? "A pinned version is no longer the one its transition would move; nothing was published." : input.message;
  const ended: ReleaseRow = { ...row, state: input.state, outcome_code: code, outcome_message: message, outcome_details: JSON.stringify(input.problems), updated_at: now, revision: row.revision + 1 };
  return {
    statements: [
      releaseGuard(ctx, row),
      ctx.db.updateTable("releases").set({ state: ended.state, outcome_code: code, outcome_message: message, outcome_details: ended.outcome_details, updated_at: now, revision: ended.revision }).where("id", "=", row.id).compile(),
    ],
    answer: releaseView(ended),
    events: [{ name: `release.${input.state}`, payload: { release_id: row.id, name: row.name, code, problems: input.problems } }],
    purgeTags: [],
    locks: [],
    audit: { action: `release.${input.state}`, targetKind: "release", targetId: row.id, details: { created_by: row.created_by, code, problems: input.problems } },
  };
}

/** Open releases with a time due by `now` (oldest first), and when the next one is due. */
export async function dueReleases(ctx: Pick<LifecycleContext, "d1" | "site">, now: number, limit: number): Promise<{ due: ReleaseRow[]; more: boolean; nextDueAt: number | null }> {
  const at = isoAt(now);
  const rows = await ctx.d1.prepare("SELECT * FROM releases WHERE site_id = ? AND state = 'open' AND at IS NOT NULL AND at <= ? ORDER BY at, id LIMIT ?").bind(ctx.site.id, at, limit + 1).all<ReleaseRow>();
  const next = await ctx.d1.prepare("SELECT MIN(at) AS t FROM releases WHERE site_id = ? AND state = 'open' AND at > ?").bind(ctx.site.id, at).first<{ t: string | null }>();
  return { due: rows.results.slice(0, limit), more: rows.results.length > limit, nextDueAt: next?.t ? Date.parse(next.t) : null };
}
