import * as v from "valibot";
import { maxCharacters, plainText, readableName } from "../../schema/text";
import { AppError } from "../../shared/errors";
import type { Env } from "../../shared/env";
import { clientAddressOf } from "../../shared/net/client-address";
import { decodeCursor, encodeCursor } from "../../shared/public/cursor";
import { signingSecret } from "../../shared/public/signing-keys";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { storedCommentSettings, type CommentSettings } from "../../shared/services/comments/comment-settings";
import { READER_ACTOR } from "../../shared/services/comments/comments";
import { mintChallenge, solvedChallenge } from "../../shared/services/comments/proof-of-work";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { parse } from "../../shared/services/validation/parse";
import { settle, siteObject } from "../forward";
import { readJsonBody } from "../http/json-body";
import { json } from "../http/respond";
import { publicNotFound } from "./models";
import { checkNames, parseLimit } from "./params";
import type { PublicAnswer } from "./respond";

/** Public comments (docs/comments.md): challenge, list and post on the site host. */

/** A comment post's body cap: a comment, its author's name and a challenge fit well inside. */
const POST_MAX_BYTES = 32 * 1024;
const COMMENT_PAGE = 50;

/** The site's settings when comments are on for this model (else the public 404). */
function commentsOn(site: Site, model?: Model): CommentSettings {
  const settings = storedCommentSettings(site.settings.comments);
  if (!settings.enabled || (model && !settings.model_ids.includes(model.id))) throw publicNotFound();
  return settings;
}

/** GET /v1/_comments/challenge: a fresh proof-of-work challenge (never cached). */
export async function commentChallenge(d1: D1Database, site: Site, url: URL): Promise<Response> {
  checkNames(url, []);
  const settings = commentsOn(site);
  const challenge = await mintChallenge(d1, site.id, settings.difficulty, Date.now());
  return json({ data: challenge }, 200, { "cache-control": "no-store" });
}

/** The published item commented on, in the first language of the chain it has. */
async function publishedItem(d1: D1Database, site: Site, model: Model, slug: string, chain: string[]): Promise<{ instance_id: string; translation_group_id: string; lang: string }> {
  const rows = await d1
    .prepare("SELECT instance_id, translation_group_id, lang FROM published_items WHERE site_id = ? AND model_id = ? AND slug = ? AND lang IN (SELECT value FROM json_each(?))")
    .bind(site.id, model.id, slug, JSON.stringify(chain))
    .all<{ instance_id: string; translation_group_id: string; lang: string }>();
  const row = chain.map((lang) => rows.results.find((r) => r.lang === lang)).find((r) => r !== undefined);
  if (!row) throw publicNotFound();
  return row;
}

/** GET /v1/{model}/{slug}/comments?locale=&limit=&cursor=: approved comments of the item, oldest first. */
export async function listPublicComments(d1: D1Database, site: Site, model: Model, slug: string, chain: string[], url: URL, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale", "limit", "cursor"]);
  commentsOn(site, model);
  const limitText = url.searchParams.get("limit");
  const limit = limitText === null ? COMMENT_PAGE : parseLimit(limitText, 100);
  const item = await publishedItem(d1, site, model, slug, chain);
  const secret = await signingSecret(d1, "cursor");
  const shape = `comments:${site.id}:${item.translation_group_id}`;
  let after: { s: string; g: string } | undefined;
  const cursor = url.searchParams.get("cursor");
  if (cursor !== null) {
    const state = await decodeCursor(secret, cursor);
    if (!state || state.q !== shape) throw new AppError("invalid_request", "This cursor is not valid for this list.", { parameter: "cursor" });
    after = { s: state.s, g: state.g };
  }
  const rows = await d1
    .prepare(
      `SELECT id, author_name, body, lang AS locale, created_at FROM comments WHERE site_id = ? AND translation_group_id = ? AND status = 'approved'
       ${after ? "AND (created_at > ? OR (created_at = ? AND id > ?))" : ""} ORDER BY created_at, id LIMIT ?`,
    )
    .bind(...[site.id, item.translation_group_id, ...(after ? [after.s, after.s, after.g] : []), limit + 1])
    .all<{ id: string; author_name: string; body: string; locale: string; created_at: string }>();
  const data = rows.results.slice(0, limit);
  const last = data[data.length - 1];
  const next = rows.results.length > limit && last ? await encodeCursor(secret, { q: shape, s: last.created_at, g: last.id }) : null;
  return {
    body: JSON.stringify({ data, page: { limit, has_more: next !== null, next_cursor: next } }),
    tags: [cacheTag.site(site.id), cacheTag.comments(item.translation_group_id), cacheTag.item(item.translation_group_id)],
    cacheable,
  };
}

/** Text a reader writes: well-formed, no control characters (a comment body keeps its line breaks). */
const readerText = (max: number, lines: boolean) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    ...maxCharacters(max),
    plainText(lines),
  );

function postBody(settings: CommentSettings) {
  return v.strictObject({
    // A name shown beside the comment: readable like every name (no bidi override turning
    // "Admin\u202egnp.exe" into "Adminexe.png", no invisible characters).
    author_name: v.pipe(readerText(80, false), readableName()),
    body: readerText(settings.max_length, true),
    challenge: v.pipe(v.string(), v.maxLength(2000)),
    nonce: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,64}$/)),
  });
}

/**
 * POST /v1/{model}/{slug}/comments?locale=: a reader's comment on a published item of a model that
 * takes comments. Order: comments on for the model (404) → the item published (404) → body (400) →
 * proof of work (400 `comment_challenge_invalid`) → the client address's hourly window (429, in the
 * site's object with the write) → stored, pending by default (201).
 */
export async function postPublicComment(request: Request, env: Env, d1: D1Database, site: Site, model: Model, slug: string, chain: string[]): Promise<Response> {
  const settings = commentsOn(site, model);
  const item = await publishedItem(d1, site, model, slug, chain);
  const body = parse(postBody(settings), await readJsonBody(request, POST_MAX_BYTES));
  const challengeId = await solvedChallenge(d1, site.id, body.challenge, body.nonce, Date.now());
  if (!challengeId) throw new AppError("comment_challenge_invalid", "The challenge is not one of this site's, has expired, or the nonce does not solve it; ask GET /v1/_comments/challenge for a new one.");
  const address = clientAddressOf(request) ?? "unknown";
  const outcome = await settle<{ status: number; body: { id: string; status: string; created_at: string } }>(
    siteObject(env, site.id).command("postComment", {
      siteId: site.id,
      actor: READER_ACTOR,
      input: { model_id: model.id, translation_group_id: item.translation_group_id, instance_id: item.instance_id, lang: item.lang, author_name: body.author_name, body: body.body, challenge_id: challengeId },
      rate: { bucket: `comment:${address}`, limit: settings.per_hour, windowMs: 3_600_000, message: `At most ${settings.per_hour} comments an hour from one address.` },
    }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return json({ data: outcome.value.body }, 201, { "cache-control": "no-store" });
}
