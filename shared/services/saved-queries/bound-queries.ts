import { AppError } from "../../errors";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { parseDefinition, queryIssues } from "./definition";

/** The saved queries bound to a model (its own reads, inside the site's write queue). */
export async function boundQueries(ctx: LifecycleContext, modelId: string): Promise<{ id: string; name: string; definition: string }[]> {
  const rows = await ctx.d1.prepare("SELECT id, name, definition FROM saved_queries WHERE site_id = ? AND model_id = ? ORDER BY name").bind(ctx.site.id, modelId).all<{ id: string; name: string; definition: string }>();
  return rows.results;
}

/**
 * Refuses a model change that would break a saved query bound to the model (spec: 409
 * `model_has_bound_queries` naming the queries): a field it names removed, renamed, made private,
 * or a filter field no longer a relation. Nothing is written.
 */
export async function requireQueriesKept(ctx: LifecycleContext, after: Pick<Model, "id" | "slug" | "fields">): Promise<void> {
  const broken = [];
  for (const query of await boundQueries(ctx, after.id)) {
    const issues = queryIssues(after, parseDefinition(query.definition));
    const all = [...issues.unknown, ...issues.private];
    if (all.length > 0) broken.push({ name: query.name, issues: all });
  }
  if (broken.length > 0) {
    throw new AppError("model_has_bound_queries", "Saved queries use what this change removes; change or delete them first.", { queries: broken.map((b) => b.name), details: broken });
  }
}

/** Refuses removing a model that saved queries are bound to. */
export async function requireNoBoundQueries(ctx: LifecycleContext, modelId: string): Promise<void> {
  const queries = await boundQueries(ctx, modelId);
  if (queries.length > 0) throw new AppError("model_has_bound_queries", "Saved queries are bound to this model; delete them first.", { queries: queries.map((q) => q.name) });
}
