/**
 * A site's comment settings (docs/comments.md), kept in the site settings under `comments` and
 * written whole by `putCommentSettings` (`settings:write`). Comments are off until enabled.
 */
export interface CommentSettings {
  /** Readers may post (the public routes answer 404 while off). */
  enabled: boolean;
  /** Ids of the models whose published items take comments. */
  model_ids: string[];
  /** Where a new comment starts: `pending` (the default: a moderator approves it) or `approved`. */
  moderation: "pending" | "approved";
  /** Proof-of-work difficulty: leading zero bits the reader's hash must have (8 to 24; 18 ≈ a quarter second in a browser). */
  difficulty: number;
  /** Longest comment body, in characters. */
  max_length: number;
  /** Comments one client address may post per hour on the site. */
  per_hour: number;
}

export const DEFAULT_COMMENT_SETTINGS: Readonly<CommentSettings> = { enabled: false, model_ids: [], moderation: "pending", difficulty: 18, max_length: 2000, per_hour: 10 };

/** The stored settings with defaults for what is missing (a site that never set them: comments off). */
export function storedCommentSettings(raw: unknown): CommentSettings {
  if (raw === null || typeof raw !== "object") return { ...DEFAULT_COMMENT_SETTINGS };
  return { ...DEFAULT_COMMENT_SETTINGS, ...(raw as Partial<CommentSettings>) };
}
