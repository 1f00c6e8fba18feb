import type {
  AddLanguageInput,
  CreateEntryInput,
  MoveInput,
  PublishInput,
  RestoreVersionInput,
  SaveDraftInput,
  TrashInput,
  UnpublishInput,
} from "../../shared/services/lifecycle";
import type { Actor } from "../../shared/services/lifecycle";
import type { CreateModelInput } from "../../shared/services/models/create-model";
import type { ManualOrderInput } from "../../shared/services/models/manual-order";

/** How a surface asks for idempotency: the key's owner, the key, and a digest of the request. */
export interface IdempotencyRequest {
  scope: string;
  key: string;
  fingerprint: string;
  retentionMs: number;
}

/** Common part of every write sent to a SiteObject. */
export interface WriteRequest<I> {
  siteId: string;
  actor: Actor;
  input: I;
  idempotency?: IdempotencyRequest;
  /** The editing lease the caller holds on the instance, if it opened the editor. */
  leaseToken?: string;
  /**
   * A rate window to spend before anything else, in this same call (a management request whose
   * handler only runs this command: one Durable Object request instead of two). Past the limit the
   * command answers `rate_limited` with `retry_after` and `message`, and does nothing.
   */
  rate?: RateSpend;
}

export interface RateSpend {
  bucket: string;
  limit: number;
  windowMs: number;
  message: string;
}

/** A caller's rate window its first command spends (`spent` once a command carried it). */
export interface DeferredRate extends RateSpend {
  spent: boolean;
}

/** What a write answers: the HTTP status the surface should use, the body, and what followed. */
export interface WriteAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
  events: { id: string; name: string }[];
  /** Cache tags the write made stale and whether they were evicted (`reason` when not; docs/caching.md). */
  purge: { tags: string[]; evicted: boolean; reason?: string };
  /** For a write that orphans R2 objects (a media removal): whether their deletes are done. Absent on a replay. */
  cleanup?: "complete" | "pending";
}

export type CreateEntryRequest = WriteRequest<CreateEntryInput>;
export type SaveDraftRequest = WriteRequest<SaveDraftInput>;
export type AddLanguageRequest = WriteRequest<AddLanguageInput>;
export type PublishRequest = WriteRequest<PublishInput>;
export type UnpublishRequest = WriteRequest<UnpublishInput>;
export type MoveRequest = WriteRequest<MoveInput>;
export type TrashRequest = WriteRequest<TrashInput>;
export type PurgeRequest = WriteRequest<{ instance_id: string }>;
export type RestoreVersionRequest = WriteRequest<RestoreVersionInput>;
export type CreateModelRequest = WriteRequest<CreateModelInput>;
export type ManualOrderRequest = WriteRequest<ManualOrderInput>;
