import { AppError } from "../../errors";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { checkRevision, requireSettings } from "../settings/settings-revision";
import { writeSetting } from "../site-chrome/chrome-writes";
import type { CommentSettings } from "./comment-settings";

export type PutCommentSettingsInput = CommentSettings & { expected_revision?: number };

/**
 * PUT /settings/comments (`settings:write`; docs/comments.md): replaces the comment settings,
 * sharing the settings revision (409 `settings_changed`). The models named must be this site's.
 */
export async function putCommentSettings(ctx: LifecycleContext, input: PutCommentSettingsInput): Promise<WritePlan<{ comments: CommentSettings; revision: number }>> {
  requireSettings(ctx, "comment settings");
  checkRevision(ctx, input.expected_revision);
  const ids = [...new Set(input.model_ids)];
  const rows = ids.length === 0 ? [] : (await ctx.d1.prepare("SELECT id FROM models WHERE site_id = ? AND id IN (SELECT value FROM json_each(?))").bind(ctx.site.id, JSON.stringify(ids)).all<{ id: string }>()).results;
  const known = new Set(rows.map((r) => r.id));
  const issues = ids.filter((id) => !known.has(id)).map((id) => ({ path: "model_ids", message: `"${id}" is not a model of this site` }));
  if (issues.length > 0) throw new AppError("invalid_request", "The comment settings are not valid.", { issues });
  const value: CommentSettings = { enabled: input.enabled, model_ids: ids, moderation: input.moderation, difficulty: input.difficulty, max_length: input.max_length, per_hour: input.per_hour };
  return writeSetting(ctx, "comments", value, "site.comments_update");
}
