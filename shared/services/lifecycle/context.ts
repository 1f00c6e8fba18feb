import type { CompiledQuery, Kysely } from "kysely";
import type { Clock } from "../../clock";
import type { AppError } from "../../errors";
import type { Database } from "../../db/database";
import type { SiteScope } from "../../db/site-scope";
import type { PermissionSet } from "../../../schema/permissions";
import type { Site } from "../../repositories/site-repository";
import type { Preloaded } from "./preload";

/** Who asks for a change. Every surface (admin, management, plugin, seed) resolves one of these. */
export interface Actor {
  kind: "person" | "management_credential" | "plugin" | "system";
  /** The person acting (for a credential: its creator; for a plugin: the delegating person). */
  id: string;
  credentialId?: string;
  /** A management credential's scopes: what it may hand out in a role write (spec 2 rule 15). */
  scopes?: readonly string[];
  installationId?: string;
  /** The effective permissions: for credentials already intersected with scopes and models. */
  permissions: PermissionSet;
}

/** Everything a lifecycle service needs about where it runs. */
export interface LifecycleContext {
  db: Kysely<Database>;
  d1: D1Database;
  scope: SiteScope;
  site: Site;
  actor: Actor;
  clock: Clock;
  /** What the versions this write makes record as written through, over the actor's credential or installation (an import job: `import:<id>`). */
  writtenVia?: string;
  /** Rows read with the site before the plan (lifecycle/preload.ts), taken by the loaders instead of a read. */
  preloaded?: Preloaded;
}

export interface EventDraft {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * A change ready to commit: statements for one D1 batch, the answer, the events it causes and the
 * cache tags it makes stale. Services build plans; `commitPlan` adds audit, outbox and idempotency
 * rows and commits them together, so a change and its record can never disagree.
 */
export interface WritePlan<T> {
  statements: CompiledQuery[];
  answer: T;
  events: EventDraft[];
  purgeTags: string[];
  audit: { action: string; targetKind: string; targetId: string; details?: Record<string, unknown> };
  /** The success status when it depends on what the plan found (a reused upload is 200, not 201); else the command's. */
  status?: number;
  /**
   * R2 objects the write orphans (a media removal): noted in the site's object before the batch and
   * deleted after it commits; what fails is retried by the object's alarm (docs/media.md, "Remove").
   */
  objectCleanup?: { mediaId: string; objectKeys: string[] };
  /**
   * The entry languages (instance ids) whose editing leases guard this write (docs/content-rules.md,
   * "Editing locks"); the first is the language the command names, which an editing token is for.
   * Absent: the `instance_id` the command's input names, if any. `[]`: no lease guards the write.
   */
  locks?: readonly string[];
  /**
   * A check the plan leaves to its batch (a unique index, a guard) instead of reading first: when
   * the batch refuses, this turns the bare refusal into the answer the read would have given
   * (its details), reading only then. `commitPlan` calls it right after the refusal (in the site's write queue).
   */
  explain?: (refusal: AppError) => Promise<AppError>;
}

/**
 * Cache tags. `m:` is on every answer about a model (a model change evicts them all); `l:` only on
 * lists and searches of it (a publication evicts those); `i:` on every answer that mentions an item.
 */
export const cacheTag = {
  site: (siteId: string) => `s:${siteId}`,
  model: (modelId: string) => `m:${modelId}`,
  list: (modelId: string) => `l:${modelId}`,
  item: (groupId: string) => `i:${groupId}`,
  /** The site's public redirect answers (`/v1/_redirects`, `/v1/_redirects/resolve`): purged on any rule change. */
  redirects: (siteId: string) => `r:${siteId}`,
  /** Every stored copy of a media item's files (public delivery): purged when the item is replaced or removed. */
  media: (mediaId: string) => `f:${mediaId}`,
  /** An item's public comments (docs/comments.md): purged when one of them is posted approved, moderated or deleted. */
  comments: (groupId: string) => `c:${groupId}`,
};
