import type { RouteSpec } from "../../schema/contract";
import type { Env } from "../../shared/env";
import type { Site } from "../../shared/repositories/site-repository";
import type { Actor, LifecycleContext } from "../../shared/services/lifecycle";
import type { DeferredRate, IdempotencyRequest } from "../../objects/site/commands";

export type { DeferredRate };
import type { UploadedFile } from "../http/multipart-body";

/** The credential a management request authenticated with (never its secret). */
export interface CredentialInfo {
  /** A `dwm_` management credential, or an OAuth connection's `dwo_` access token (docs/oauth.md). */
  kind: "management_credential" | "oauth_connection" | "admin_session";
  id: string;
  name: string;
  scopes: string[];
  model_ids: string[] | null;
}

/** Everything a management handler gets: parsed input, authority, and the write's idempotency. */
export interface ManageCall {
  env: Env;
  request: Request;
  route: RouteSpec;
  site: Site;
  actor: Actor;
  credential: CredentialInfo;
  ctx: LifecycleContext;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The file of a multipart route (RouteSpec.multipart), with the SHA-256 hex of its bytes. */
  upload: (UploadedFile & { sha256: string }) | undefined;
  /** Present on writes: the key, scoped to the credential, and the request's fingerprint. */
  idempotency: IdempotencyRequest | undefined;
  /**
   * The request's rate window when it is not spent yet: the command this call sends spends it in
   * its own Durable Object request (workers/manage/router.ts, "one request to the site object").
   */
  rate?: DeferredRate;
}


export type ManageHandler = (call: ManageCall) => Promise<Response>;
