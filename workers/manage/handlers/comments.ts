import type * as v from "valibot";
import type { CommentSettingsBody } from "../../../schema/manage-comments";
import { decide } from "../../../shared/auth/permissions";
import { storedCommentSettings } from "../../../shared/services/comments/comment-settings";
import { commentView, type CommentRow } from "../../../shared/services/comments/comments";
import { modelRepository } from "../../../shared/repositories/model-repository";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { newestFirst } from "../newest-first";
import { commandResponse, runCommand, sendCommand } from "../respond";
import { rerunUnderKey } from "../rerun-under-key";

const COLUMNS = "id, model_id, translation_group_id, instance_id, lang, author_name, body, status, revision, moderated_by, moderated_at, created_at";

/** GET /comments: newest first, only on models (and languages) the caller may read. */
export async function listComments(call: ManageCall): Promise<Response> {
  const q = call.query as { status?: string; entry_id?: string; cursor?: string; limit?: string };
  const limit = Math.min(Number(q.limit ?? 50), 100);
  const page = await newestFirst(call.ctx.d1, call.site.id, ["comments", q.status ?? null, q.entry_id ?? null], q.cursor);
  const models = (await modelRepository(call.ctx.db, call.ctx.scope).list()).filter((m) => decide(call.actor.permissions, { operation: "read", modelId: m.id }).allowed).map((m) => m.id);
  const where = ["c.site_id = ?", "c.model_id IN (SELECT value FROM json_each(?))"];
  const binds: unknown[] = [call.site.id, JSON.stringify(models)];
  if (q.status) (where.push("c.status = ?"), binds.push(q.status));
  if (q.entry_id) {
    where.push("(c.translation_group_id = ? OR c.translation_group_id = (SELECT translation_group_id FROM entries WHERE site_id = ? AND instance_id = ?))");
    binds.push(q.entry_id, call.site.id, q.entry_id);
  }
  if (page.from) (where.push("(c.created_at < ? OR (c.created_at = ? AND c.id < ?))"), binds.push(page.from.createdAt, page.from.createdAt, page.from.id));
  const rows = await call.ctx.d1
    .prepare(`SELECT ${COLUMNS.split(", ").map((c) => `c.${c}`).join(", ")} FROM comments c WHERE ${where.join(" AND ")} ORDER BY c.created_at DESC, c.id DESC LIMIT ?`)
    .bind(...binds, limit + 1)
    .all<CommentRow>();
  // A language the caller may not read hides its comments too.
  const readable = rows.results.filter((r) => decide(call.actor.permissions, { operation: "read", modelId: r.model_id, lang: r.lang }).allowed);
  const next = rows.results.length > limit ? rows.results[limit] : undefined;
  return json({ data: readable.slice(0, limit).map(commentView), next_cursor: next ? await page.cursorAt(next) : null });
}

/**
 * POST /comments/{id}/moderate and DELETE /comments/{id}: spec 2 rule 4 — these run again when
 * repeated, so the key is not used to replay them: a repeat finds the comment moderated (409
 * `conflict` with its state) or gone (404). The write queue orders a repeat after the first. The
 * key still tells a repeat from a reuse (rerun-under-key.ts): another body under it is 409
 * `idempotency_key_reused`.
 */
export const moderateComment = (call: ManageCall) =>
  rerunUnderKey(call, async () =>
    commandResponse(await sendCommand({ ...call, idempotency: undefined }, "moderateComment", { id: call.params.id ?? "", ...(call.body as { status: "approved" | "rejected" | "spam" }) })),
  );
export const deleteComment = (call: ManageCall) =>
  rerunUnderKey(call, async () => commandResponse(await sendCommand({ ...call, idempotency: undefined }, "deleteComment", { id: call.params.id ?? "" })));

/** GET /settings/comments */
export async function getCommentSettings(call: ManageCall): Promise<Response> {
  return json({ comments: storedCommentSettings(call.site.settings.comments), revision: call.site.settings_revision });
}

/** PUT /settings/comments */
export const putCommentSettings = (call: ManageCall) => runCommand(call, "putCommentSettings", call.body as v.InferOutput<typeof CommentSettingsBody>);
