// Driftwood plugin protocol v1: operation types generated from schema/ by `npm run contract`. Do not edit.

export interface PluginOperations {
  /** GET /api/plugin/v1/context */
  getContext: {
    method: "GET";
    path: "/api/plugin/v1/context";
    params: never;
    query: Record<string, never>;
    body: never;
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "installation_id": string;
        "site": {
          "id": string;
          "name": string;
          "default_lang": string;
        };
        "protocol_version": number;
        "capabilities": Array<string>;
        "model_ids": Array<string>;
      };
    };
  };
  /** GET /api/plugin/v1/content — scope content:read */
  listContent: {
    method: "GET";
    path: "/api/plugin/v1/content";
    params: never;
    query: {
      "model_id": string;
      "published"?: "true" | "false";
      "after"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "data": Array<{
          "instance_id": string;
          "primary_instance_id": string;
          "translation_group_id": string | null;
          "model_id": string;
          "model_slug": string;
          "lang": string;
          "label": string | null;
          "slug": string | null;
          "current_version_id": string | null;
          "published_version_id": string | null;
          "workflow"?: {
            "state": string;
            "revision": number;
            "transitions": Array<{
              "to": string;
              "kind": "publish" | "unpublish";
            }>;
          };
        }>;
        "page": {
          "limit": number;
          "has_more": boolean;
          "next_cursor": string | null;
        };
      };
    };
  };
  /** GET /api/plugin/v1/content/{instance_id} — scope content:read */
  getContent: {
    method: "GET";
    path: "/api/plugin/v1/content/{instance_id}";
    params: {
      "instance_id": string;
    };
    query: {
      "delegation_id"?: string;
    };
    body: never;
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "instance_id": string;
        "primary_instance_id": string;
        "translation_group_id": string | null;
        "model_id": string;
        "model_slug": string;
        "lang": string;
        "label": string | null;
        "slug": string | null;
        "current_version_id": string | null;
        "published_version_id": string | null;
        "workflow"?: {
          "state": string;
          "revision": number;
          "transitions": Array<{
            "to": string;
            "kind": "publish" | "unpublish";
          }>;
        };
        "fields": {
          [key: string]: unknown;
        };
        "published_at": string | null;
        "updated_at": string;
      };
    };
  };
  /** POST /api/plugin/v1/content/{instance_id}/transitions — scope workflow:publish | workflow:unpublish */
  transitionContent: {
    method: "POST";
    path: "/api/plugin/v1/content/{instance_id}/transitions";
    params: {
      "instance_id": string;
    };
    query: Record<string, never>;
    body: {
      "kind": "publish";
      "expected_current_version_id": string;
      "expected_workflow_revision": number;
      "delegation_id": string;
    } | {
      "kind": "unpublish";
      "expected_published_version_id": string;
      "expected_workflow_revision": number;
      "delegation_id": string;
    };
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "instance_id": string;
        "primary_instance_id": string;
        "translation_group_id": string | null;
        "model_id": string;
        "model_slug": string;
        "lang": string;
        "label": string | null;
        "slug": string | null;
        "current_version_id": string | null;
        "published_version_id": string | null;
        "workflow"?: {
          "state": string;
          "revision": number;
          "transitions": Array<{
            "to": string;
            "kind": "publish" | "unpublish";
          }>;
        };
      };
    };
  };
  /** POST /api/plugin/v1/content/{instance_id}/schedules — scope workflow:publish | workflow:unpublish (+ workflow:locale) */
  scheduleContent: {
    method: "POST";
    path: "/api/plugin/v1/content/{instance_id}/schedules";
    params: {
      "instance_id": string;
    };
    query: Record<string, never>;
    body: {
      "kind": "publish" | "unpublish";
      "at": string;
      "language_only"?: boolean;
      "expected_version_id"?: string;
      "delegation_id": string;
    };
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "id": string;
        "translation_group_id": string;
        "model_id": string;
        "action": "publish" | "unpublish";
        "lang": string | null;
        "pins": Array<{
          "instance_id": string;
          "lang": string;
          "version_id": string;
        }>;
        "at": string;
        "state": "scheduled" | "done" | "stale" | "failed" | "cancelled";
        "outcome_code": string | null;
        "outcome_message": string | null;
        "revision": number;
        "created_by": string;
        "created_at": string;
        "updated_at": string;
        "fired_at": string | null;
        "replayed"?: boolean;
      };
    };
  };
  /** POST /api/plugin/v1/launch/exchange */
  exchangeLaunchCode: {
    method: "POST";
    path: "/api/plugin/v1/launch/exchange";
    params: never;
    query: Record<string, never>;
    body: {
      "code": string;
    };
    response: {
      "outcome": {
        "code": "ok" | "transition_applied" | "idempotent_replay" | "invalid_request" | "plugin_unauthorized" | "capability_refused" | "requester_unauthorized" | "site_suspended" | "content_not_found" | "scheduled_target_stale" | "workflow_conflict" | "dependent_content" | "idempotency_key_reused" | "transition_unavailable" | "transition_refused" | "rate_limited" | "temporary_failure";
        "message": string;
        "retry": boolean;
      };
      "data": {
        "delegation_id": string;
        "expires_at": string;
        "person": {
          "id": string;
          "name": string;
        };
        "launch": {
          "kind": "manage_view" | "content_action" | "operation";
          "id": string;
          "instance_id": string | null;
        };
        "capabilities": Array<string>;
        "model_ids": Array<string>;
      };
    };
  };
}

export type PluginOperationsId = keyof PluginOperations;
export type Body<K extends PluginOperationsId> = PluginOperations[K]["body"];

/** Method and path of every operation, for clients that call by operationId (the admin UI). */
export const PluginOperationsRoutes: { readonly [K in PluginOperationsId]: { readonly method: PluginOperations[K]["method"]; readonly path: PluginOperations[K]["path"] } } = {
  getContext: { method: "GET", path: "/api/plugin/v1/context" },
  listContent: { method: "GET", path: "/api/plugin/v1/content" },
  getContent: { method: "GET", path: "/api/plugin/v1/content/{instance_id}" },
  transitionContent: { method: "POST", path: "/api/plugin/v1/content/{instance_id}/transitions" },
  scheduleContent: { method: "POST", path: "/api/plugin/v1/content/{instance_id}/schedules" },
  exchangeLaunchCode: { method: "POST", path: "/api/plugin/v1/launch/exchange" },
};
export type Answer<K extends PluginOperationsId> = PluginOperations[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
