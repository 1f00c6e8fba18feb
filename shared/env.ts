import type { SiteObject } from "../objects/site/site-object";

/** Bindings and variables of the router worker (wrangler.jsonc). */
export interface Env {
  /** The control database (the directory) and the default site database (docs/scale.md). */
  DB: D1Database;
  /** A second site database; the list of site databases is SITE_DATABASE_BINDINGS (shared/db/site-databases.ts). */
  DB_2: D1Database;
  /** Enables the operators' routes (POST /api/ops/…) when set; absent → they answer 404. */
  OPS_TOKEN?: string;
  /** Rows (R2 objects included) one site-copy request copies (default 400; tests set a few, docs/site-copy.md). */
  OPS_COPY_STEP_ROWS?: string;
  /** Rows (R2 objects included) one site-delete request removes (default 2000; docs/site-delete.md). */
  OPS_DELETE_STEP_ROWS?: string;
  MEDIA: R2Bucket;
  SITE: DurableObjectNamespace<SiteObject>;
  EVENTS: Queue<EventMessage>;
  /** The admin UI's built files (admin/dist, wrangler.jsonc `assets`), served on the admin host. */
  ASSETS: Fetcher;
  ADMIN_HOST: string;
  PUBLIC_CACHE_MAX_AGE: string;
  /** How long an isolate keeps site and model configuration for public reads (ms; default 5000). */
  CONFIG_CACHE_MS?: string;
  /** Tests only: the sync retention window in seconds (default 30 days; docs/sync.md). */
  SYNC_RETENTION_SECONDS?: string;
  /** Local runs and tests only: how soon unconsumed events are sent again (ms; default 45000; shared/events/timing.ts). */
  EVENT_RESEND_AFTER_MS?: string;
  /** Management API requests per credential per minute (default 600). */
  MANAGE_RATE_LIMIT?: string;
  /** Tests only: plugin protocol requests per installation per minute (default the spec's 120; schema/plugin-protocol.ts). */
  PLUGIN_RATE_LIMIT?: string;
  /** The write bench only: note each write's phases (scripts/bench/write-tracer.ts; docs/write-fairness.md). */
  BENCH_WRITE_PHASES?: string;
  /**
   * The admin streamed upload's limit in bytes, when the deployment's plan allows more (or less)
   * than the default 100 MB: a whole number from 1 to 5,000,000,000 (docs/media.md).
   */
  MEDIA_REQUEST_BODY_LIMIT_BYTES?: string;
  CF_PURGE_ZONE_ID?: string;
  CF_PURGE_API_TOKEN?: string;
  /** Optional stand-in for api.cloudflare.com (tests bind a fake); without it purges use `fetch`. */
  CF_PURGE_API?: Fetcher;
  /** Optional stand-in for outbound webhook requests (tests bind a fake receiver); without it deliveries use `fetch`. */
  WEBHOOK_FETCH?: Fetcher;
  /** Optional stand-in for calls to plugins' operations and policies (tests bind a fake plugin); without it they use `fetch`. */
  PLUGIN_FETCH?: Fetcher;
  /** Plugin policy calls per site per minute (default 600; docs/plugin-policies.md, "Budget"); tests lower it. */
  PLUGIN_POLICY_BUDGET?: string;
  /**
   * `true` only in local development (set by `npm start` and the end-to-end dev server, never in
   * wrangler.jsonc): outbound calls may then reach loopback hosts (docs/outbound-addresses.md).
   */
  OUTBOUND_ALLOW_LOOPBACK?: string;
  /**
   * Local development only (set by `npm start`, `npm run dev` and the end-to-end dev server, never
   * in wrangler.jsonc): how many bytes of a refused request's unread body are drained before
   * answering (default 1 MiB; workers/http/drain-body.ts).
   */
  UNREAD_BODY_DRAIN_BYTES?: string;
}

/** What the outbound event queue carries: a pointer to the outbox row, never a secret. */
export interface EventMessage {
  event_id: string;
  site_id: string;
}
