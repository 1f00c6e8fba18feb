import { decide } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { guard } from "../../db/batch";
import type { CommentsTable } from "../../db/tables-content";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authorize } from "../lifecycle/authorize";
import { cacheTag, type Actor, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { storedCommentSettings } from "./comment-settings";

/**
 * Comments (issue #29 item 5; docs/comments.md): the public post, moderation and deletes, each one
 * write in the site's object. Spec 2 rule 4 lists moderation and deletes among the commands that
 * run again: a moderation repeated after it committed finds the comment already in that state and
 * answers 409 `conflict` with the comment as it is; a repeated delete answers 404 `not_found`.
 */

export type CommentStatus = CommentsTable["status"];
export type CommentRow = Omit<CommentsTable, "site_id" | "challenge_id">;

/** A comment as the management API shows it. */
export interface CommentView {
  id: string;
  model_id: string;
  translation_group_id: string;
  instance_id: string;
  lang: string;
  author_name: string;
  body: string;
  status: CommentStatus;
  revision: number;
  moderated_by: string | null;
  moderated_at: string | null;
  created_at: string;
}

/** Who posts from the site host: a reader, no one the site knows; it may do nothing else. */
export const READER_ACTOR: Actor = { kind: "system", id: "reader", permissions: { models: {}, system: [] } };

const COLUMNS = "id, model_id, translation_group_id, instance_id, lang, author_name, body, status, revision, moderated_by, moderated_at, created_at";

export function commentView(row: CommentRow): CommentView {
  return { id: row.id, model_id: row.model_id, translation_group_id: row.translation_group_id, instance_id: row.instance_id, lang: row.lang, author_name: row.author_name, body: row.body, status: row.status, revision: row.revision, moderated_by: row.moderated_by, moderated_at: row.moderated_at, created_at: row.created_at };
}

export async function readComment(d1: D1Database, siteId: string, id: string): Promise<CommentRow | null> {
  return d1.prepare(`SELECT ${COLUMNS} FROM comments WHERE site_id = ? AND id = ?`).bind(siteId, id).first<CommentRow>();
}

/** A comment on a model the actor may read, or the one `not_found` (a comment elsewhere is none of theirs). */
async function readableComment(ctx: LifecycleContext, id: string): Promise<CommentRow> {
  const row = await readComment(ctx.d1, ctx.site.id, id);
  if (!row || !decide(ctx.actor.permissions, { operation: "read", modelId: row.model_id, lang: row.lang }).allowed) throw new AppError("not_found", "No such comment.");
  return row;
}

export interface PostCommentInput {
  model_id: string;
  translation_group_id: string;
  instance_id: string;
  lang: string;
  author_name: string;
  body: string;
  /** The solved proof-of-work challenge's id (checked by the worker; spent here). */
  challenge_id: string;
}

/** The public post (POST /v1/{model}/{slug}/comments): stored as the settings say (pending by default). */
export async function postComment(ctx: LifecycleContext, input: PostCommentInput): Promise<WritePlan<{ id: string; status: CommentStatus; created_at: string }>> {
  const settings = storedCommentSettings(ctx.site.settings.comments);
  // Checked again inside the queue: settings or the item may have changed since the worker looked.
  if (!settings.enabled || !settings.model_ids.includes(input.model_id)) throw new AppError("not_found", "Not found.");
  const live = await ctx.d1.prepare("SELECT 1 AS ok FROM published_items WHERE site_id = ? AND instance_id = ?").bind(ctx.site.id, input.instance_id).first();
  if (!live) throw new AppError("not_found", "Not found.");
  const spent = await ctx.d1.prepare("SELECT 1 AS ok FROM comments WHERE site_id = ? AND challenge_id = ?").bind(ctx.site.id, input.challenge_id).first();
  if (spent) throw new AppError("comment_challenge_invalid", "This challenge was used already; ask for a new one.");
  const at = isoAt(ctx.clock.now());
  const id = newId("cmt");
  const status: CommentStatus = settings.moderation;
  return {
    statements: [
      guard(ctx.db, "comment_challenge_invalid", "NOT EXISTS (SELECT 1 FROM comments WHERE site_id = ? AND challenge_id = ?)", [ctx.site.id, input.challenge_id]),
      ctx.db
        .insertInto("comments")
        .values({ id, site_id: ctx.site.id, model_id: input.model_id, translation_group_id: input.translation_group_id, instance_id: input.instance_id, lang: input.lang, author_name: input.author_name, body: input.body, status, challenge_id: input.challenge_id, revision: 1, moderated_by: null, moderated_at: null, created_at: at })
        .compile(),
    ],
    answer: { id, status, created_at: at },
    status: 201,
    events: [{ name: "comment.posted", payload: { comment_id: id, translation_group_id: input.translation_group_id, model_id: input.model_id, lang: input.lang, status } }],
    purgeTags: status === "approved" ? [cacheTag.comments(input.translation_group_id)] : [],
    // The text is the reader's: the audit names the comment, not what it says.
    audit: { action: "comment.post", targetKind: "comment", targetId: id, details: { translation_group_id: input.translation_group_id, status } },
    locks: [],
  };
}

export interface ModerateCommentInput {
  id: string;
  status: Exclude<CommentStatus, "pending">;
}

/** POST /comments/{id}/moderate: approve, reject or mark as spam. */
export async function moderateComment(ctx: LifecycleContext, input: ModerateCommentInput): Promise<WritePlan<CommentView>> {
  const row = await readableComment(ctx, input.id);
  authorize(ctx.actor, { operation: "update", modelId: row.model_id, lang: row.lang, access: "write" });
  if (row.status === input.status) {
    throw new AppError("conflict", `The comment is ${row.status} already.`, { comment: commentView(row) });
  }
  const at = isoAt(ctx.clock.now());
  const after: CommentRow = { ...row, status: input.status, revision: row.revision + 1, moderated_by: ctx.actor.id, moderated_at: at };
  const served = row.status === "approved" || input.status === "approved";
  return {
    statements: [
      guard(ctx.db, "conflict", "EXISTS (SELECT 1 FROM comments WHERE site_id = ? AND id = ? AND revision = ?)", [ctx.site.id, row.id, row.revision]),
      ctx.db.updateTable("comments").set({ status: after.status, revision: after.revision, moderated_by: after.moderated_by, moderated_at: at }).where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile(),
    ],
    answer: commentView(after),
    events: [{ name: "comment.moderated", payload: { comment_id: row.id, translation_group_id: row.translation_group_id, from: row.status, to: input.status } }],
    purgeTags: served ? [cacheTag.comments(row.translation_group_id)] : [],
    audit: { action: "comment.moderate", targetKind: "comment", targetId: row.id, details: { from: row.status, to: input.status } },
    locks: [],
  };
}

/** DELETE /comments/{id}: gone for good (a repeat: 404 not_found). */
export async function deleteComment(ctx: LifecycleContext, input: { id: string }): Promise<WritePlan<{ id: string; deleted: true }>> {
  const row = await readableComment(ctx, input.id);
  authorize(ctx.actor, { operation: "delete", modelId: row.model_id, lang: row.lang, access: "write" });
  return {
    statements: [ctx.db.deleteFrom("comments").where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile()],
    answer: { id: row.id, deleted: true },
    events: [{ name: "comment.deleted", payload: { comment_id: row.id, translation_group_id: row.translation_group_id, status: row.status } }],
    purgeTags: row.status === "approved" ? [cacheTag.comments(row.translation_group_id)] : [],
    audit: { action: "comment.delete", targetKind: "comment", targetId: row.id, details: { status: row.status, translation_group_id: row.translation_group_id } },
    locks: [],
  };
}
