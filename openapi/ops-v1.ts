// Driftwood operators v1: operation types generated from schema/ by `npm run contract`. Do not edit.

export interface OpsOperations {
  /** GET /api/ops */
  getServiceInfo: {
    method: "GET";
    path: "/api/ops";
    params: never;
    query: never;
    body: never;
    response: {
      "name": "driftwood";
      "version": string;
    };
  };
  /** POST /api/ops/sites — needs Idempotency-Key */
  createSite: {
    method: "POST";
    path: "/api/ops/sites";
    params: never;
    query: never;
    body: {
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database"?: string;
    };
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** GET /api/ops/sites */
  listSites: {
    method: "GET";
    path: "/api/ops/sites";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "hosts": Array<string>;
        "languages": Array<string>;
        "default_lang": string;
        "database": string;
        "suspended": boolean;
        "suspended_at": string | null;
        "created_at": string;
        "figures": {
          "entries": {
            [key: string]: number;
          };
          "media": {
            "files": number;
            "bytes": number;
          };
          "members": number;
          "last_write_at": string | null;
        };
      }>;
    };
  };
  /** GET /api/ops/sites/{id} */
  getSite: {
    method: "GET";
    path: "/api/ops/sites/{id}";
    params: {
      "id": string | string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** POST /api/ops/sites/{id}/hosts — needs Idempotency-Key */
  addSiteHost: {
    method: "POST";
    path: "/api/ops/sites/{id}/hosts";
    params: {
      "id": string | string;
    };
    query: never;
    body: {
      "host": string;
    };
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** DELETE /api/ops/sites/{id}/hosts/{host} — needs Idempotency-Key */
  removeSiteHost: {
    method: "DELETE";
    path: "/api/ops/sites/{id}/hosts/{host}";
    params: {
      "id": string | string;
      "host": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** POST /api/ops/sites/{id}/invitations — needs Idempotency-Key */
  inviteSiteAdministrator: {
    method: "POST";
    path: "/api/ops/sites/{id}/invitations";
    params: {
      "id": string | string;
    };
    query: never;
    body: {
      "email": string;
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
      "link"?: string;
      "replayed"?: true;
    };
  };
  /** POST /api/ops/sites/{id}/suspend — needs Idempotency-Key */
  suspendSite: {
    method: "POST";
    path: "/api/ops/sites/{id}/suspend";
    params: {
      "id": string | string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** POST /api/ops/sites/{id}/resume — needs Idempotency-Key */
  resumeSite: {
    method: "POST";
    path: "/api/ops/sites/{id}/resume";
    params: {
      "id": string | string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "hosts": Array<string>;
      "languages": Array<string>;
      "default_lang": string;
      "database": string;
      "suspended": boolean;
      "suspended_at": string | null;
      "created_at": string;
      "figures": {
        "entries": {
          [key: string]: number;
        };
        "media": {
          "files": number;
          "bytes": number;
        };
        "members": number;
        "last_write_at": string | null;
      };
    };
  };
  /** POST /api/ops/sites/{id}/copy — needs Idempotency-Key */
  copySite: {
    method: "POST";
    path: "/api/ops/sites/{id}/copy";
    params: {
      "id": string | string;
    };
    query: never;
    body: {
      "to"?: {
        "slug": string;
        "name": string;
        "hosts": Array<string>;
        "languages"?: Array<string>;
        "default_lang"?: string;
        "database"?: string;
      };
      "into"?: string | string;
      "content"?: boolean;
      "media"?: boolean;
      "dry_run"?: boolean;
    };
    response: {
      "dry_run": false;
      "state": "running" | "done";
      "template": {
        "id": string;
        "slug": string;
      };
      "site": {
        "id": string;
        "slug": string;
        "name": string;
        "hosts": Array<string>;
        "languages": Array<string>;
        "default_lang": string;
        "database": string;
        "suspended": boolean;
        "suspended_at": string | null;
        "created_at": string;
        "figures": {
          "entries": {
            [key: string]: number;
          };
          "media": {
            "files": number;
            "bytes": number;
          };
          "members": number;
          "last_write_at": string | null;
        };
      };
      "copied": {
        "rows": {
          [key: string]: number;
        };
        "objects": number;
        "bytes": number;
      };
      "replayed"?: true;
    } | {
      "dry_run": true;
      "template": {
        "id": string;
        "slug": string;
      };
      "target": {
        "id": string | null;
        "slug": string;
      };
      "would_copy": {
        "rows": {
          [key: string]: number;
        };
        "objects": number;
        "bytes": number;
      };
      "blocked_by": Array<{
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
    };
  };
  /** POST /api/ops/sites/{id}/delete — needs Idempotency-Key */
  deleteSite: {
    method: "POST";
    path: "/api/ops/sites/{id}/delete";
    params: {
      "id": string | string;
    };
    query: never;
    body: {
      "confirm": string;
    };
    response: {
      "site_id": string;
      "slug": string;
      "state": "running" | "done";
      "rows": {
        [key: string]: number;
      };
      "objects": number;
      "bytes": number;
      "started_at": string;
      "finished_at": string | null;
      "replayed"?: true;
    };
  };
  /** POST /api/ops/model-proposals — needs Idempotency-Key */
  proposeModelToSites: {
    method: "POST";
    path: "/api/ops/model-proposals";
    params: never;
    query: never;
    body: {
      "sites": "all" | Array<string | string>;
      "definition": {
        "model": {
          "name": string;
          "slug": string;
          "description"?: string | null;
          "kind"?: "collection" | "single";
          "is_public"?: boolean;
          "enableI18n"?: boolean;
          "settings"?: {
            "preview_url"?: string | null;
            "icon"?: string | null;
            "help_text"?: string | null;
            "site_path"?: string | null;
          };
          "unique_combinations"?: Array<{
            "name": string;
            "fields": Array<string>;
            "scope": "model" | "language";
          }>;
        };
        "fields": Array<{
          "id"?: string;
          "key": string;
          "label": string;
          "type": "text" | "long_text" | "rich_text" | "integer" | "decimal" | "boolean" | "date" | "datetime" | "select" | "slug" | "media" | "relation" | "location" | "component";
          "required"?: boolean;
          "private"?: boolean;
          "title"?: boolean;
          "help"?: string;
          "multiple"?: boolean;
          "options"?: Array<{
            "value": string;
            "label": string;
          }>;
          "targets"?: Array<string>;
          "relation"?: "one_to_one" | "many_to_one" | "one_to_many" | "many_to_many";
          "hierarchy"?: boolean;
          "localized_membership"?: boolean;
          "validation"?: {
            "min_length"?: number;
            "max_length"?: number;
            "pattern"?: string;
            "min"?: number;
            "max"?: number;
            "step"?: number;
            "min_items"?: number;
            "max_items"?: number;
            "min_date"?: string;
            "max_date"?: string;
            "custom"?: unknown;
          } | string;
          "unique"?: "model" | "language";
          "condition"?: unknown;
          "fields"?: Array<{
            [key: string]: unknown;
          }>;
          "config"?: string;
          "ui"?: string;
          "derived"?: string;
        }>;
      };
      "note"?: string;
    };
    response: {
      "data": Array<{
        "site_id": string;
        "slug": string;
        "proposal_id": string;
        "mode": "create" | "update";
        "changes": Array<{
          "kind": string;
          "field": string | null;
          "affected_count": number;
          "message": string;
          "suggestion": string;
        }>;
      } | {
        "site_id": string;
        "slug": string;
        "error": {
          "code": string;
          "message": string;
          "details"?: {
            [key: string]: unknown;
          };
        };
      }>;
      "replayed"?: true;
    };
  };
  /** GET /api/ops/model-proposals */
  fleetModelProposals: {
    method: "GET";
    path: "/api/ops/model-proposals";
    params: never;
    query: {
      "model"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "site_id": string;
        "slug": string;
        "open": number;
        "applied": number;
        "dismissed": number;
        "stale": number;
      }>;
    };
  };
  /** POST /api/ops/sites/{id}/database */
  moveSiteDatabase: {
    method: "POST";
    path: "/api/ops/sites/{id}/database";
    params: {
      "id": string | string;
    };
    query: never;
    body: {
      "binding": string;
    };
    response: {
      "site_id": string;
      "from": string;
      "to": string;
      "moved": boolean;
      "rows": {
        [key: string]: number;
      };
    };
  };
}

export type OpsOperationsId = keyof OpsOperations;
export type Body<K extends OpsOperationsId> = OpsOperations[K]["body"];

/** Method and path of every operation, for clients that call by operationId (the admin UI). */
export const OpsOperationsRoutes: { readonly [K in OpsOperationsId]: { readonly method: OpsOperations[K]["method"]; readonly path: OpsOperations[K]["path"] } } = {
  getServiceInfo: { method: "GET", path: "/api/ops" },
  createSite: { method: "POST", path: "/api/ops/sites" },
  listSites: { method: "GET", path: "/api/ops/sites" },
  getSite: { method: "GET", path: "/api/ops/sites/{id}" },
  addSiteHost: { method: "POST", path: "/api/ops/sites/{id}/hosts" },
  removeSiteHost: { method: "DELETE", path: "/api/ops/sites/{id}/hosts/{host}" },
  inviteSiteAdministrator: { method: "POST", path: "/api/ops/sites/{id}/invitations" },
  suspendSite: { method: "POST", path: "/api/ops/sites/{id}/suspend" },
  resumeSite: { method: "POST", path: "/api/ops/sites/{id}/resume" },
  copySite: { method: "POST", path: "/api/ops/sites/{id}/copy" },
  deleteSite: { method: "POST", path: "/api/ops/sites/{id}/delete" },
  proposeModelToSites: { method: "POST", path: "/api/ops/model-proposals" },
  fleetModelProposals: { method: "GET", path: "/api/ops/model-proposals" },
  moveSiteDatabase: { method: "POST", path: "/api/ops/sites/{id}/database" },
};
export type Answer<K extends OpsOperationsId> = OpsOperations[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
