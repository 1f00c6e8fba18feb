// Driftwood management API v1: operation types generated from schema/ by `npm run contract`. Do not edit.

export interface ManageOperations {
  /** GET /api/manage/v1/site — scope content:read */
  getSite: {
    method: "GET";
    path: "/api/manage/v1/site";
    params: never;
    query: never;
    body: never;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "default_lang": string;
      "languages": Array<string>;
      "scopes_available": Array<string>;
      "credential": {
        "id": string;
        "name": string;
        "scopes": Array<string>;
        "model_ids": Array<string> | null;
      };
    };
  };
  /** GET /api/manage/v1/entries — scope content:read */
  listEntries: {
    method: "GET";
    path: "/api/manage/v1/entries";
    params: never;
    query: {
      "model_id"?: string;
      "lang"?: string;
      "state"?: "draft" | "in_review" | "published" | "unpublished" | "trash";
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "instance_id": string;
        "primary_instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "model_slug": string;
        "lang": string;
        "slug": string | null;
        "label": string | null;
        "current_version_id": string | null;
        "published_version_id": string | null;
        "published_at": string | null;
        "owner_id": string | null;
        "trashed_at": string | null;
        "created_at": string;
        "updated_at": string;
        "workflow": {
          "state": string;
          "revision": number;
          "transitions": Array<{
            "to": string;
            "kind": "publish" | "unpublish" | "move";
          }>;
        };
        "fields": {
          [key: string]: unknown;
        };
        "replayed"?: boolean;
      }>;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** POST /api/manage/v1/entries — scope content:write — needs Idempotency-Key */
  createEntry: {
    method: "POST";
    path: "/api/manage/v1/entries";
    params: never;
    query: never;
    body: {
      "model_id": string;
      "lang"?: string;
      "slug"?: string;
      "fields": {
        [key: string]: unknown;
      };
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id} — scope content:read */
  getEntry: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/entries/{id} — scope content:write — needs Idempotency-Key */
  saveEntry: {
    method: "PUT";
    path: "/api/manage/v1/entries/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_version_id": string;
      "fields": {
        [key: string]: unknown;
      };
      "slug"?: string;
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/languages — scope content:write — needs Idempotency-Key */
  addEntryLanguage: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/languages";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "lang": string;
      "slug"?: string;
      "fields"?: {
        [key: string]: unknown;
      };
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id}/versions — scope content:read */
  listEntryVersions: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/versions";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "number": number;
        "slug": string | null;
        "label": string | null;
        "created_by": string | null;
        "restored_from": string | null;
        "created_at": string;
      }>;
    };
  };
  /** POST /api/manage/v1/entries/{id}/versions/{version_id}/restore — scope content:write — needs Idempotency-Key */
  restoreEntryVersion: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/versions/{version_id}/restore";
    params: {
      "id": string;
      "version_id": string;
    };
    query: never;
    body: {
      "expected_version_id"?: string;
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/publish — scope lifecycle:publish — needs Idempotency-Key */
  publishEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/publish";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_version_id"?: string;
      "expected_workflow_revision"?: number;
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/unpublish — scope lifecycle:publish — needs Idempotency-Key */
  unpublishEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/unpublish";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_published_version_id"?: string;
      "expected_workflow_revision"?: number;
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/move — scope workflow:move — needs Idempotency-Key */
  moveEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/move";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "to": string;
      "expected_workflow_revision": number;
    };
    response: {
      "instance_id": string;
      "primary_instance_id": string;
      "translation_group_id": string;
      "model_id": string;
      "model_slug": string;
      "lang": string;
      "slug": string | null;
      "label": string | null;
      "current_version_id": string | null;
      "published_version_id": string | null;
      "published_at": string | null;
      "owner_id": string | null;
      "trashed_at": string | null;
      "created_at": string;
      "updated_at": string;
      "workflow": {
        "state": string;
        "revision": number;
        "transitions": Array<{
          "to": string;
          "kind": "publish" | "unpublish" | "move";
        }>;
      };
      "fields": {
        [key: string]: unknown;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/trash — scope content:trash — needs Idempotency-Key */
  trashEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/trash";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "language_only"?: boolean;
    };
    response: {
      "instance_ids": Array<string>;
      "translation_group_id": string;
      "trashed_at": string | null;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/restore — scope content:trash — needs Idempotency-Key */
  restoreEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/restore";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "language_only"?: boolean;
    };
    response: {
      "instance_ids": Array<string>;
      "translation_group_id": string;
      "trashed_at": string | null;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/purge — scope content:purge — needs Idempotency-Key */
  purgeEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/purge";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "purged_instance_ids": Array<string>;
      "translation_group_id": string;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id}/dependents — scope content:read */
  listEntryDependents: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/dependents";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "data": Array<{
        "instance_id": string;
        "model_id": string;
        "lang": string;
        "label": string | null;
        "published": boolean;
      }>;
    };
  };
}

export type ManageOperationsId = keyof ManageOperations;
export type Body<K extends ManageOperationsId> = ManageOperations[K]["body"];
export type Answer<K extends ManageOperationsId> = ManageOperations[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
