// Driftwood admin JSON API v1: operation types generated from schema/ by `npm run contract`. Do not edit.

export interface AdminOperations {
  /** POST /api/session */
  signIn: {
    method: "POST";
    path: "/api/session";
    params: never;
    query: never;
    body: {
      "email": string;
      "password": string;
    };
    response: {
      "person": {
        "id": string;
        "email": string;
        "name": string;
        "superadmin": boolean;
      };
      "sites": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "role": string;
        "suspended": boolean;
      }>;
      "csrf_token": string;
    };
  };
  /** GET /api/session */
  getSession: {
    method: "GET";
    path: "/api/session";
    params: never;
    query: never;
    body: never;
    response: {
      "person": {
        "id": string;
        "email": string;
        "name": string;
        "superadmin": boolean;
      };
      "sites": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "role": string;
        "suspended": boolean;
      }>;
      "csrf_token": string;
    };
  };
  /** DELETE /api/session */
  signOut: {
    method: "DELETE";
    path: "/api/session";
    params: never;
    query: never;
    body: never;
    response: null;
  };
  /** GET /api/member-names */
  listMemberNames: {
    method: "GET";
    path: "/api/member-names";
    params: never;
    query: {
      "ids": string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
      }>;
    };
  };
  /** GET /api/entries/{id}/versions/{version_id} */
  getEntryVersion: {
    method: "GET";
    path: "/api/entries/{id}/versions/{version_id}";
    params: {
      "id": string;
      "version_id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "instance_id": string;
      "number": number;
      "slug": string | null;
      "label": string | null;
      "created_by": string | null;
      "restored_from": string | null;
      "created_at": string;
      "fields": {
        [key: string]: unknown;
      };
    };
  };
  /** GET /api/site-hosts */
  listSiteHosts: {
    method: "GET";
    path: "/api/site-hosts";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "host": string;
      }>;
    };
  };
  /** GET /api/sites/{site_id}/generation-readiness */
  getSiteGenerationReadiness: {
    method: "GET";
    path: "/api/sites/{site_id}/generation-readiness";
    params: {
      "site_id": string;
    };
    query: never;
    body: never;
    response: {
      "problems": Array<{
        "code": string;
        "model": string;
        "field"?: string;
        "item"?: string;
        "query"?: string;
        "detail": string;
      }>;
    };
  };
  /** GET /api/sites/{site_id}/generation-readiness/content */
  getSiteGenerationReadinessContent: {
    method: "GET";
    path: "/api/sites/{site_id}/generation-readiness/content";
    params: {
      "site_id": string;
    };
    query: {
      "cursor"?: string;
    };
    body: never;
    response: {
      "problems": Array<{
        "code": string;
        "model": string;
        "field"?: string;
        "item"?: string;
        "query"?: string;
        "detail": string;
      }>;
      "page": {
        "items": number;
        "next_cursor": string | null;
      };
    };
  };
  /** GET /api/people */
  listPeople: {
    method: "GET";
    path: "/api/people";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "person_id": string;
        "name": string;
        "email": string;
        "role": {
          "id": string;
          "slug": string;
          "name": string;
        };
        "state": "active" | "deactivated";
        "account_active": boolean;
        "joined_at": string;
      }>;
    };
  };
  /** PUT /api/people/{person_id}/role */
  changeMemberRole: {
    method: "PUT";
    path: "/api/people/{person_id}/role";
    params: {
      "person_id": string;
    };
    query: never;
    body: {
      "role_id": string;
    };
    response: {
      "person_id": string;
      "name": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "state": "active" | "deactivated";
      "account_active": boolean;
      "joined_at": string;
    };
  };
  /** POST /api/people/{person_id}/deactivate */
  deactivateMember: {
    method: "POST";
    path: "/api/people/{person_id}/deactivate";
    params: {
      "person_id": string;
    };
    query: never;
    body: never;
    response: {
      "person_id": string;
      "name": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "state": "active" | "deactivated";
      "account_active": boolean;
      "joined_at": string;
    };
  };
  /** POST /api/people/{person_id}/reactivate */
  reactivateMember: {
    method: "POST";
    path: "/api/people/{person_id}/reactivate";
    params: {
      "person_id": string;
    };
    query: never;
    body: never;
    response: {
      "person_id": string;
      "name": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "state": "active" | "deactivated";
      "account_active": boolean;
      "joined_at": string;
    };
  };
  /** DELETE /api/people/{person_id} */
  removeMember: {
    method: "DELETE";
    path: "/api/people/{person_id}";
    params: {
      "person_id": string;
    };
    query: never;
    body: never;
    response: {
      "person_id": string;
      "name": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "state": "active" | "deactivated";
      "account_active": boolean;
      "joined_at": string;
      "removed": true;
    };
  };
  /** GET /api/invitations */
  listInvitations: {
    method: "GET";
    path: "/api/invitations";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "email": string;
        "role": {
          "id": string;
          "slug": string;
          "name": string;
        };
        "invited_by": string;
        "created_at": string;
        "expires_at": string;
      }>;
    };
  };
  /** POST /api/invitations */
  createInvitation: {
    method: "POST";
    path: "/api/invitations";
    params: never;
    query: never;
    body: {
      "email": string;
      "role_id": string;
    };
    response: {
      "id": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "invited_by": string;
      "created_at": string;
      "expires_at": string;
      "link": string;
    };
  };
  /** DELETE /api/invitations/{id} */
  revokeInvitation: {
    method: "DELETE";
    path: "/api/invitations/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "email": string;
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "invited_by": string;
      "created_at": string;
      "expires_at": string;
      "revoked": true;
    };
  };
  /** POST /api/invitations/inspect */
  inspectInvitation: {
    method: "POST";
    path: "/api/invitations/inspect";
    params: never;
    query: never;
    body: {
      "token": string;
    };
    response: {
      "site": {
        "name": string;
      };
      "email": string;
      "role": {
        "name": string;
      };
      "expires_at": string;
      "account_exists": boolean;
    };
  };
  /** POST /api/invitations/accept */
  acceptInvitation: {
    method: "POST";
    path: "/api/invitations/accept";
    params: never;
    query: never;
    body: {
      "token": string;
      "name"?: string;
      "password": string;
    };
    response: {
      "person": {
        "id": string;
        "email": string;
        "name": string;
        "superadmin": boolean;
      };
      "sites": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "role": string;
        "suspended": boolean;
      }>;
      "csrf_token": string;
    };
  };
  /** GET /api/site-tokens */
  listSiteTokens: {
    method: "GET";
    path: "/api/site-tokens";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "model_ids": Array<string>;
        "created_by": string | null;
        "created_at": string;
        "revoked_at": string | null;
      }>;
    };
  };
  /** POST /api/site-tokens */
  createSiteToken: {
    method: "POST";
    path: "/api/site-tokens";
    params: never;
    query: never;
    body: {
      "name": string;
      "model_ids": Array<string>;
    };
    response: {
      "id": string;
      "name": string;
      "model_ids": Array<string>;
      "created_at": string;
      "token": string;
    };
  };
  /** DELETE /api/site-tokens/{id} */
  revokeSiteToken: {
    method: "DELETE";
    path: "/api/site-tokens/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "model_ids": Array<string>;
      "created_by": string | null;
      "created_at": string;
      "revoked_at": string | null;
    };
  };
  /** GET /api/management-credentials */
  listManagementCredentials: {
    method: "GET";
    path: "/api/management-credentials";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "scopes": Array<string>;
        "model_ids": Array<string> | null;
        "created_by": string;
        "created_at": string;
        "revoked_at": string | null;
      }>;
    };
  };
  /** POST /api/management-credentials */
  createManagementCredential: {
    method: "POST";
    path: "/api/management-credentials";
    params: never;
    query: never;
    body: {
      "name": string;
      "scopes": Array<"content:read" | "content:write" | "content:propose" | "pages:write" | "media:write" | "lifecycle:publish" | "content:trash" | "content:purge" | "workflow:move" | "workflow:assign" | "settings:write" | "schema:propose" | "schema:write" | "data:import" | "data:export" | "roles:write" | "plugins:use">;
      "model_ids"?: Array<string> | null;
    };
    response: {
      "id": string;
      "name": string;
      "scopes": Array<string>;
      "model_ids": Array<string> | null;
      "created_at": string;
      "token": string;
    };
  };
  /** DELETE /api/management-credentials/{id} */
  revokeManagementCredential: {
    method: "DELETE";
    path: "/api/management-credentials/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "scopes": Array<string>;
      "model_ids": Array<string> | null;
      "created_by": string;
      "created_at": string;
      "revoked_at": string | null;
    };
  };
  /** GET /api/oauth-connections */
  listOAuthConnections: {
    method: "GET";
    path: "/api/oauth-connections";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "client_id": string;
        "client_name": string | null;
        "person_id": string;
        "scopes": Array<string>;
        "created_at": string;
        "revoked_at": string | null;
        "revoked_reason": "person" | "client" | "code_reused" | "refresh_reused" | null;
        "last_refresh_at": string | null;
      }>;
    };
  };
  /** DELETE /api/oauth-connections/{id} */
  revokeOAuthConnection: {
    method: "DELETE";
    path: "/api/oauth-connections/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "client_id": string;
      "client_name": string | null;
      "person_id": string;
      "scopes": Array<string>;
      "created_at": string;
      "revoked_at": string | null;
      "revoked_reason": "person" | "client" | "code_reused" | "refresh_reused" | null;
      "last_refresh_at": string | null;
    };
  };
  /** GET /api/webhooks */
  listWebhooks: {
    method: "GET";
    path: "/api/webhooks";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "url": string;
        "events": Array<string>;
        "created_by": string | null;
        "created_at": string;
      }>;
    };
  };
  /** POST /api/webhooks */
  createWebhook: {
    method: "POST";
    path: "/api/webhooks";
    params: never;
    query: never;
    body: {
      "url": string;
      "events": Array<string>;
    };
    response: {
      "id": string;
      "url": string;
      "events": Array<string>;
      "created_by": string | null;
      "created_at": string;
      "secret": string;
    };
  };
  /** DELETE /api/webhooks/{id} */
  deleteWebhook: {
    method: "DELETE";
    path: "/api/webhooks/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "url": string;
      "events": Array<string>;
      "created_by": string | null;
      "created_at": string;
    };
  };
  /** GET /api/webhooks/dead-letters */
  listDeadLetters: {
    method: "GET";
    path: "/api/webhooks/dead-letters";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "event_id": string;
        "event_name": string | null;
        "webhook_id": string;
        "webhook_url": string | null;
        "subscriber_kind": "webhook" | "plugin";
        "attempts": number;
        "last_status": number | null;
        "last_error": string | null;
        "created_at": string;
        "dead_at": string;
      }>;
    };
  };
  /** POST /api/webhooks/dead-letters/{id}/retry */
  retryDeadLetter: {
    method: "POST";
    path: "/api/webhooks/dead-letters/{id}/retry";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/preview */
  createPreview: {
    method: "POST";
    path: "/api/preview";
    params: never;
    query: never;
    body: {
      "instance_id": string;
      "minutes"?: number;
    };
    response: {
      "preview": string;
      "expires_at": string;
      "url": string;
    };
  };
  /** GET /api/models/public-client.ts */
  getPublicClient: {
    method: "GET";
    path: "/api/models/public-client.ts";
    params: never;
    query: never;
    body: never;
    response: string;
  };
  /** POST /api/models/proposals/{id}/apply */
  applyModelProposal: {
    method: "POST";
    path: "/api/models/proposals/{id}/apply";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/models/proposals/{id}/dismiss */
  dismissModelProposal: {
    method: "POST";
    path: "/api/models/proposals/{id}/dismiss";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** PUT /api/models/{id}/manual-order */
  putManualOrder: {
    method: "PUT";
    path: "/api/models/{id}/manual-order";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "items": Array<string>;
    };
    response: {
      "model_id": string;
      "manual_order": Array<string>;
      "cache": unknown;
    };
  };
  /** POST /api/proposals/{id}/apply */
  applyProposal: {
    method: "POST";
    path: "/api/proposals/{id}/apply";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/proposals/{id}/reject */
  rejectProposal: {
    method: "POST";
    path: "/api/proposals/{id}/reject";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/media/uploads — needs Idempotency-Key */
  streamMediaUpload: {
    method: "POST";
    path: "/api/media/uploads";
    params: never;
    query: {
      "name"?: string;
      "type"?: string;
      "alt_texts"?: string;
      "width"?: string;
      "height"?: string;
      "aspectRatio"?: string;
      "on_duplicate"?: "ask" | "use_existing" | "copy";
      "folder_id"?: string;
      "edited_from"?: string;
    };
    body: /* the file's raw bytes */ ReadableStream<Uint8Array> | Blob | ArrayBuffer | Uint8Array;
    response: {
      "media": {
        "id": string;
        "kind": "image" | "document" | "audio" | "video" | "file";
        "file_name": string;
        "mime_type": string;
        "byte_length": number;
        "sha256": string;
        "width": number | null;
        "height": number | null;
        "alt_texts": {
          [key: string]: string;
        };
        "default_focal": {
          "x": number;
          "y": number;
        } | null;
        "crop": {
          "x": number;
          "y": number;
          "width": number;
          "height": number;
        } | null;
        "loading": "eager" | "lazy";
        "fetch_priority": "high" | "low" | "auto";
        "folder_id": string | null;
        "tags": Array<string>;
        "credit": string | null;
        "edited_from": string | null;
        "revision": number;
        "object_id": string;
        "url": string;
        "external_url": string | null;
        "created_at": string;
        "updated_at": string;
      };
      "reused"?: true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/media/{id}/file */
  getMediaItemFile: {
    method: "GET";
    path: "/api/media/{id}/file";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: string;
  };
  /** GET /api/media/limits */
  getMediaLimits: {
    method: "GET";
    path: "/api/media/limits";
    params: never;
    query: never;
    body: never;
    response: {
      "limits": {
        "streamed_max_bytes": number;
      };
    };
  };
  /** GET /api/plugins */
  listPlugins: {
    method: "GET";
    path: "/api/plugins";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        [key: string]: unknown;
      }>;
    };
  };
  /** POST /api/plugins */
  installPlugin: {
    method: "POST";
    path: "/api/plugins";
    params: never;
    query: never;
    body: {
      "id": string;
      "name": string;
      "version": string;
      "endpoint": string;
      "capabilities": Array<"content:read" | "workflow:read" | "workflow:publish" | "workflow:unpublish" | "workflow:locale" | "content:write" | "content:create" | "draft:write" | "content:delete" | "content:propose" | "media:read" | "media:write" | "media:update" | "media:source">;
      "rich_text_blocks"?: Array<{
        "name": string;
        "label": string;
        "version": number;
        "fields": unknown;
      }>;
      "manage_views"?: Array<{
        "id": string;
        "label": string;
        "path": string;
      }>;
      "content_actions"?: Array<{
        "id": string;
        "label": string;
        "path": string;
        "model_ids"?: Array<string>;
      }>;
      "operations"?: Array<{
        "id": string;
        "label": string;
        "scope": "site" | "entry";
        "destructive": boolean;
        "automation"?: boolean;
        "input_schema": unknown;
        "result"?: Array<"text" | "rows" | "links" | "json">;
        "capabilities": Array<"content:read" | "workflow:read" | "workflow:publish" | "workflow:unpublish" | "workflow:locale" | "content:write" | "content:create" | "draft:write" | "content:delete" | "content:propose" | "media:read" | "media:write" | "media:update" | "media:source">;
      }>;
      "content_policies"?: Array<{
        "id": string;
        "label": string;
        "mode": "validate" | "transform";
        "advisory"?: boolean;
      }>;
      "media_sources"?: Array<{
        "id": string;
        "label": string;
        "modes": Array<"copy" | "reference">;
      }>;
      "events"?: Array<string>;
    };
    response: {
      "installation": {
        [key: string]: unknown;
      };
      "token": string;
      "event_secret": string;
    };
  };
  /** GET /api/plugins/{id} */
  getPlugin: {
    method: "GET";
    path: "/api/plugins/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** DELETE /api/plugins/{id} */
  uninstallPlugin: {
    method: "DELETE";
    path: "/api/plugins/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** PUT /api/plugins/{id}/grant */
  grantPlugin: {
    method: "PUT";
    path: "/api/plugins/{id}/grant";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "capabilities": Array<"content:read" | "workflow:read" | "workflow:publish" | "workflow:unpublish" | "workflow:locale" | "content:write" | "content:create" | "draft:write" | "content:delete" | "content:propose" | "media:read" | "media:write" | "media:update" | "media:source">;
      "model_ids": Array<string>;
    };
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/plugins/{id}/activate */
  activatePlugin: {
    method: "POST";
    path: "/api/plugins/{id}/activate";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/plugins/{id}/disable */
  disablePlugin: {
    method: "POST";
    path: "/api/plugins/{id}/disable";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/plugins/{id}/revoke */
  revokePlugin: {
    method: "POST";
    path: "/api/plugins/{id}/revoke";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      [key: string]: unknown;
    };
  };
  /** POST /api/plugins/{id}/rotate-token */
  rotatePluginToken: {
    method: "POST";
    path: "/api/plugins/{id}/rotate-token";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "installation": {
        [key: string]: unknown;
      };
      "token": string;
      "event_secret": string;
    };
  };
  /** GET /api/plugin-launches/plugins */
  listLaunchablePlugins: {
    method: "GET";
    path: "/api/plugin-launches/plugins";
    params: never;
    query: Record<string, never>;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "plugin_id": string;
        "name": string;
        "version": string;
        "state": "active" | "disabled";
        "launchable": boolean;
        "manage_views"?: Array<{
          "id": string;
          "label": string;
        }>;
        "content_actions"?: Array<{
          "id": string;
          "label": string;
          "model_ids": Array<string>;
        }>;
        "policies"?: Array<{
          "id": string;
          "label": string;
          "kind": "content_policy";
          "mode": "validate" | "transform";
        }>;
        "mcp_tool"?: {
          "omitted_because": string | null;
        };
      }>;
    };
  };
  /** GET /api/plugin-launches/manage-views */
  listLaunchManageViews: {
    method: "GET";
    path: "/api/plugin-launches/manage-views";
    params: never;
    query: Record<string, never>;
    body: never;
    response: {
      "data": Array<{
        [key: string]: unknown;
      }>;
    };
  };
  /** GET /api/plugin-launches/content-actions */
  listLaunchContentActions: {
    method: "GET";
    path: "/api/plugin-launches/content-actions";
    params: never;
    query: {
      "instance_id"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        [key: string]: unknown;
      }>;
    };
  };
  /** POST /api/plugin-launches/{id}/manage-views/{view} */
  launchManageView: {
    method: "POST";
    path: "/api/plugin-launches/{id}/manage-views/{view}";
    params: {
      "id": string;
      "view": string;
    };
    query: Record<string, never>;
    body: Record<string, never>;
    response: {
      "outcome": "launch_created";
      "url": string;
      "expires_at": string;
      "single_use": true;
    };
  };
  /** POST /api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id} */
  launchContentAction: {
    method: "POST";
    path: "/api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id}";
    params: {
      "id": string;
      "action": string;
      "instance_id": string;
    };
    query: Record<string, never>;
    body: Record<string, never>;
    response: {
      "outcome": "launch_created";
      "url": string;
      "expires_at": string;
      "single_use": true;
    };
  };
  /** GET /api/permissions */
  getPermissions: {
    method: "GET";
    path: "/api/permissions";
    params: never;
    query: never;
    body: never;
    response: {
      "role": {
        "id": string;
        "slug": string;
        "name": string;
      };
      "person_id": string;
      "permissions": {
        [key: string]: unknown;
      };
      "models": Array<{
        "model_id": string;
        "operations": Array<string>;
        "readable_field_ids": Array<string>;
        "writable_field_ids": Array<string>;
      }>;
      "languages": {
        [key: string]: Array<string>;
      };
    };
  };
  /** GET /api/dashboard */
  getDashboard: {
    method: "GET";
    path: "/api/dashboard";
    params: never;
    query: never;
    body: never;
    response: {
      "my_drafts": Array<{
        "instance_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "state": string;
        "owner_id": string | null;
        "updated_at": string;
        "published_at": string | null;
      }>;
      "assigned_to_me": Array<{
        "instance_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "state": string;
        "owner_id": string | null;
        "updated_at": string;
        "published_at": string | null;
      }>;
      "waiting_for_review": Array<{
        "instance_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "state": string;
        "owner_id": string | null;
        "updated_at": string;
        "published_at": string | null;
      }>;
      "scheduled_this_week": Array<{
        "instance_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "state": string;
        "owner_id": string | null;
        "updated_at": string;
        "published_at": string | null;
        "schedule_id": string;
        "action": "publish" | "unpublish";
        "at": string;
      }>;
      "recently_published": Array<{
        "instance_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "state": string;
        "owner_id": string | null;
        "updated_at": string;
        "published_at": string | null;
      }>;
    };
  };
  /** POST /api/people/{person_id}/password-reset */
  createPasswordReset: {
    method: "POST";
    path: "/api/people/{person_id}/password-reset";
    params: {
      "person_id": string;
    };
    query: never;
    body: never;
    response: {
      "person_id": string;
      "email": string;
      "created_at": string;
      "expires_at": string;
      "link": string;
    };
  };
  /** POST /api/password-resets/inspect */
  inspectPasswordReset: {
    method: "POST";
    path: "/api/password-resets/inspect";
    params: never;
    query: never;
    body: {
      "token": string;
    };
    response: {
      "email": string;
      "name": string;
      "expires_at": string;
    };
  };
  /** POST /api/password-resets/complete */
  completePasswordReset: {
    method: "POST";
    path: "/api/password-resets/complete";
    params: never;
    query: never;
    body: {
      "token": string;
      "password": string;
    };
    response: {
      "person": {
        "id": string;
        "email": string;
        "name": string;
        "superadmin": boolean;
      };
      "sites": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "role": string;
        "suspended": boolean;
      }>;
      "csrf_token": string;
    };
  };
  /** GET /api/sessions */
  listSessions: {
    method: "GET";
    path: "/api/sessions";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "user_agent": string | null;
        "created_at": string;
        "expires_at": string;
        "current": boolean;
      }>;
    };
  };
  /** DELETE /api/sessions/{id} */
  revokeSession: {
    method: "DELETE";
    path: "/api/sessions/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "revoked": true;
    };
  };
  /** POST /api/plugin-manifests/fetch */
  fetchPluginManifest: {
    method: "POST";
    path: "/api/plugin-manifests/fetch";
    params: never;
    query: never;
    body: {
      "url": string;
    };
    response: {
      "manifest": {
        [key: string]: unknown;
      };
      "installed": {
        "installation_id": string;
        "version": string;
        "added_capabilities": Array<string>;
        "removed_capabilities": Array<string>;
        "granted_capabilities": Array<string>;
      } | null;
    };
  };
  /** GET /api/audit-log */
  listAuditLog: {
    method: "GET";
    path: "/api/audit-log";
    params: never;
    query: {
      "person"?: string;
      "credential"?: string;
      "entry"?: string;
      "action"?: string;
      "surface"?: "admin" | "credential" | "oauth_app" | "plugin" | "system";
      "before"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "at": string;
        "surface": "admin" | "credential" | "oauth_app" | "plugin" | "system";
        "actor_kind": string;
        "person_id": string | null;
        "person_name": string | null;
        "credential_id": string | null;
        "action": string;
        "target_kind": string | null;
        "target_id": string | null;
      }>;
      "next_cursor": string | null;
    };
  };
  /** POST /api/webhooks/{id}/test */
  testWebhook: {
    method: "POST";
    path: "/api/webhooks/{id}/test";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "webhook_id": string;
      "delivery_id": string;
      "ok": boolean;
      "status": number | null;
      "error": string | null;
      "duration_ms": number;
    };
  };
  /** GET /api/webhooks/{id}/deliveries */
  listWebhookDeliveries: {
    method: "GET";
    path: "/api/webhooks/{id}/deliveries";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "event_id": string;
        "event_name": string | null;
        "state": "pending" | "delivered" | "dead";
        "attempts": number;
        "last_status": number | null;
        "last_error": string | null;
        "created_at": string;
        "updated_at": string;
      }>;
    };
  };
  /** GET /api/trash */
  listTrash: {
    method: "GET";
    path: "/api/trash";
    params: never;
    query: {
      "model_id"?: string;
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "retention_days": number;
      "models": Array<{
        "id": string;
        "name": string;
      }>;
      "data": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "model_name": string;
        "lang": string;
        "label": string | null;
        "slug": string | null;
        "trashed_at": string;
        "purge_at": string;
        "trashed_by": {
          "surface": "admin" | "credential" | "oauth_app" | "plugin" | "system";
          "person_id": string | null;
        } | null;
        "can_delete": boolean;
        "refusal": string | null;
      }>;
      "next_cursor": string | null;
    };
  };
}

export type AdminOperationsId = keyof AdminOperations;
export type Body<K extends AdminOperationsId> = AdminOperations[K]["body"];

/** Method and path of every operation, for clients that call by operationId (the admin UI). */
export const AdminOperationsRoutes: { readonly [K in AdminOperationsId]: { readonly method: AdminOperations[K]["method"]; readonly path: AdminOperations[K]["path"] } } = {
  signIn: { method: "POST", path: "/api/session" },
  getSession: { method: "GET", path: "/api/session" },
  signOut: { method: "DELETE", path: "/api/session" },
  listMemberNames: { method: "GET", path: "/api/member-names" },
  getEntryVersion: { method: "GET", path: "/api/entries/{id}/versions/{version_id}" },
  listSiteHosts: { method: "GET", path: "/api/site-hosts" },
  getSiteGenerationReadiness: { method: "GET", path: "/api/sites/{site_id}/generation-readiness" },
  getSiteGenerationReadinessContent: { method: "GET", path: "/api/sites/{site_id}/generation-readiness/content" },
  listPeople: { method: "GET", path: "/api/people" },
  changeMemberRole: { method: "PUT", path: "/api/people/{person_id}/role" },
  deactivateMember: { method: "POST", path: "/api/people/{person_id}/deactivate" },
  reactivateMember: { method: "POST", path: "/api/people/{person_id}/reactivate" },
  removeMember: { method: "DELETE", path: "/api/people/{person_id}" },
  listInvitations: { method: "GET", path: "/api/invitations" },
  createInvitation: { method: "POST", path: "/api/invitations" },
  revokeInvitation: { method: "DELETE", path: "/api/invitations/{id}" },
  inspectInvitation: { method: "POST", path: "/api/invitations/inspect" },
  acceptInvitation: { method: "POST", path: "/api/invitations/accept" },
  listSiteTokens: { method: "GET", path: "/api/site-tokens" },
  createSiteToken: { method: "POST", path: "/api/site-tokens" },
  revokeSiteToken: { method: "DELETE", path: "/api/site-tokens/{id}" },
  listManagementCredentials: { method: "GET", path: "/api/management-credentials" },
  createManagementCredential: { method: "POST", path: "/api/management-credentials" },
  revokeManagementCredential: { method: "DELETE", path: "/api/management-credentials/{id}" },
  listOAuthConnections: { method: "GET", path: "/api/oauth-connections" },
  revokeOAuthConnection: { method: "DELETE", path: "/api/oauth-connections/{id}" },
  listWebhooks: { method: "GET", path: "/api/webhooks" },
  createWebhook: { method: "POST", path: "/api/webhooks" },
  deleteWebhook: { method: "DELETE", path: "/api/webhooks/{id}" },
  listDeadLetters: { method: "GET", path: "/api/webhooks/dead-letters" },
  retryDeadLetter: { method: "POST", path: "/api/webhooks/dead-letters/{id}/retry" },
  createPreview: { method: "POST", path: "/api/preview" },
  getPublicClient: { method: "GET", path: "/api/models/public-client.ts" },
  applyModelProposal: { method: "POST", path: "/api/models/proposals/{id}/apply" },
  dismissModelProposal: { method: "POST", path: "/api/models/proposals/{id}/dismiss" },
  putManualOrder: { method: "PUT", path: "/api/models/{id}/manual-order" },
  applyProposal: { method: "POST", path: "/api/proposals/{id}/apply" },
  rejectProposal: { method: "POST", path: "/api/proposals/{id}/reject" },
  streamMediaUpload: { method: "POST", path: "/api/media/uploads" },
  getMediaItemFile: { method: "GET", path: "/api/media/{id}/file" },
  getMediaLimits: { method: "GET", path: "/api/media/limits" },
  listPlugins: { method: "GET", path: "/api/plugins" },
  installPlugin: { method: "POST", path: "/api/plugins" },
  getPlugin: { method: "GET", path: "/api/plugins/{id}" },
  uninstallPlugin: { method: "DELETE", path: "/api/plugins/{id}" },
  grantPlugin: { method: "PUT", path: "/api/plugins/{id}/grant" },
  activatePlugin: { method: "POST", path: "/api/plugins/{id}/activate" },
  disablePlugin: { method: "POST", path: "/api/plugins/{id}/disable" },
  revokePlugin: { method: "POST", path: "/api/plugins/{id}/revoke" },
  rotatePluginToken: { method: "POST", path: "/api/plugins/{id}/rotate-token" },
  listLaunchablePlugins: { method: "GET", path: "/api/plugin-launches/plugins" },
  listLaunchManageViews: { method: "GET", path: "/api/plugin-launches/manage-views" },
  listLaunchContentActions: { method: "GET", path: "/api/plugin-launches/content-actions" },
  launchManageView: { method: "POST", path: "/api/plugin-launches/{id}/manage-views/{view}" },
  launchContentAction: { method: "POST", path: "/api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id}" },
  getPermissions: { method: "GET", path: "/api/permissions" },
  getDashboard: { method: "GET", path: "/api/dashboard" },
  createPasswordReset: { method: "POST", path: "/api/people/{person_id}/password-reset" },
  inspectPasswordReset: { method: "POST", path: "/api/password-resets/inspect" },
  completePasswordReset: { method: "POST", path: "/api/password-resets/complete" },
  listSessions: { method: "GET", path: "/api/sessions" },
  revokeSession: { method: "DELETE", path: "/api/sessions/{id}" },
  fetchPluginManifest: { method: "POST", path: "/api/plugin-manifests/fetch" },
  listAuditLog: { method: "GET", path: "/api/audit-log" },
  testWebhook: { method: "POST", path: "/api/webhooks/{id}/test" },
  listWebhookDeliveries: { method: "GET", path: "/api/webhooks/{id}/deliveries" },
  listTrash: { method: "GET", path: "/api/trash" },
};
export type Answer<K extends AdminOperationsId> = AdminOperations[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
