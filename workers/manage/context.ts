import type { RouteSpec } from "../../schema/contract";
import type { Caller } from "../../shared/auth/caller";
import type { Env } from "../../shared/env";
import type { Site } from "../../shared/repositories/site-repository";
import type { Actor, LifecycleContext } from "../../shared/services/lifecycle";
import type { DeferredRate, IdempotencyRequest } from "../../objects/site/commands";

export type { DeferredRate };
import type { UploadedFile } from "../http/multipart-body";

/**
 * An authenticated management call before dispatch: who asks (a person's session or a credential,
 * shared/auth/caller.ts), the one site it may touch, and the authority it acts with now.
 */
export interface ManageAuthority {
  caller: Caller;
  site: Site;
  actor: Actor;
}

/** Everything a management handler gets: parsed input, authority, and the write's idempotency. */
export interface ManageCall {
  env: Env;
  request: Request;
  route: RouteSpec;
  site: Site;
  actor: Actor;
  /** Who asks: each consumer decides from it (a proposal's source, a launch's delegation, GET /site). */
  caller: Caller;
  ctx: LifecycleContext;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The file of a multipart route (RouteSpec.multipart), with the SHA-256 hex of its bytes. */
  upload: (UploadedFile & { sha256: string }) | undefined;
  /** Present on writes: the key, scoped to the caller (`callerKey`), and the request's fingerprint. */
  idempotency: IdempotencyRequest | undefined;
  /**
   * The request's rate window when it is not spent yet: the command this call sends spends it in
   * its own Durable Object request (workers/manage/router.ts, "one request to the site object").
   */
  rate?: DeferredRate;
}


export type ManageHandler = (call: ManageCall) => Promise<Response>;
