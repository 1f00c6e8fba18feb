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
      "q"?: string;
      "slug"?: string;
      "translation_group_id"?: string;
      "sort"?: "title" | "-title" | "created" | "-created" | "updated" | "-updated" | "state" | "-state" | "lang" | "-lang" | "owner" | "-owner" | "updated_by" | "-updated_by";
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
        "warnings"?: Array<{
          "code": "rich_markup_dropped";
          "path": string;
          "dropped": Array<string>;
        }>;
        "schedules"?: Array<{
          "id": string;
          "action": "publish" | "unpublish";
          "at": string;
          "state": string;
          "outcome_code": string | null;
        }>;
        "replayed"?: boolean;
        "updated_by"?: {
          "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
          "person_id": string | null;
          "name": string | null;
        } | null;
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
        [key: string]: null | string | {
          "model": string;
          "id": string;
        } | Array<string | {
          "model": string;
          "id": string;
        }> | {
          "set": null | string | {
            "model": string;
            "id": string;
          } | Array<string | {
            "model": string;
            "id": string;
          }>;
          "replace"?: boolean;
        } | {
          "connect"?: Array<string | {
            "model": string;
            "id": string;
          } | {
            "model"?: string;
            "id": string;
            "position"?: {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "disconnect"?: Array<string | {
            "model": string;
            "id": string;
          }>;
          "move"?: Array<{
            "model"?: string;
            "id": string;
            "position": {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "replace"?: boolean;
        } | unknown;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
        [key: string]: null | string | {
          "model": string;
          "id": string;
        } | Array<string | {
          "model": string;
          "id": string;
        }> | {
          "set": null | string | {
            "model": string;
            "id": string;
          } | Array<string | {
            "model": string;
            "id": string;
          }>;
          "replace"?: boolean;
        } | {
          "connect"?: Array<string | {
            "model": string;
            "id": string;
          } | {
            "model"?: string;
            "id": string;
            "position"?: {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "disconnect"?: Array<string | {
            "model": string;
            "id": string;
          }>;
          "move"?: Array<{
            "model"?: string;
            "id": string;
            "position": {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "replace"?: boolean;
        } | unknown;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
        [key: string]: null | string | {
          "model": string;
          "id": string;
        } | Array<string | {
          "model": string;
          "id": string;
        }> | {
          "set": null | string | {
            "model": string;
            "id": string;
          } | Array<string | {
            "model": string;
            "id": string;
          }>;
          "replace"?: boolean;
        } | {
          "connect"?: Array<string | {
            "model": string;
            "id": string;
          } | {
            "model"?: string;
            "id": string;
            "position"?: {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "disconnect"?: Array<string | {
            "model": string;
            "id": string;
          }>;
          "move"?: Array<{
            "model"?: string;
            "id": string;
            "position": {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "replace"?: boolean;
        } | unknown;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
      "redirect_old_address"?: boolean;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
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
  /** GET /api/manage/v1/entries/{id}/related-from — scope content:read */
  listEntryRelatedFrom: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/related-from";
    params: {
      "id": string;
    };
    query: {
      "field"?: string;
      "model_id"?: string;
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "model_slug": string;
        "lang": string;
        "field_id": string;
        "field_key": string;
        "label": string | null;
        "in_trash": boolean;
      }>;
      "hidden": number;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** POST /api/manage/v1/entries/{id}/editing — scope content:write */
  startEditing: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/editing";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "lease": {
        "instance_id": string;
        "token": string;
        "holder": string;
        "expires_at": string;
      };
    };
  };
  /** PUT /api/manage/v1/entries/{id}/editing — scope content:write */
  renewEditing: {
    method: "PUT";
    path: "/api/manage/v1/entries/{id}/editing";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "token": string;
    };
    response: {
      "lease": {
        "instance_id": string;
        "token": string;
        "holder": string;
        "expires_at": string;
      };
    };
  };
  /** DELETE /api/manage/v1/entries/{id}/editing — scope content:write */
  stopEditing: {
    method: "DELETE";
    path: "/api/manage/v1/entries/{id}/editing";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "token": string;
    };
    response: {
      "released": boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/editing/take-over — scope content:write */
  takeOverEditing: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/editing/take-over";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "lease": {
        "instance_id": string;
        "token": string;
        "holder": string;
        "expires_at": string;
      };
    };
  };
  /** POST /api/manage/v1/models/proposals — scope schema:propose — needs Idempotency-Key */
  createModelProposal: {
    method: "POST";
    path: "/api/manage/v1/models/proposals";
    params: never;
    query: never;
    body: {
      "mode": "create" | "update";
      "model_id"?: string;
      "base_updated_at"?: string;
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
      "id": string;
      "mode": "create" | "update";
      "model_id": string | null;
      "base_updated_at": string | null;
      "definition": {
        "model": {
          "name": string;
          "slug": string;
          "enableI18n"?: boolean;
          "description"?: string | null;
          "kind"?: "collection" | "single";
          "is_public"?: boolean;
          "settings"?: {
            [key: string]: unknown;
          };
          "unique_combinations"?: Array<{
            "name": string;
            "fields": Array<string>;
            "scope": "model" | "language";
          }>;
        };
        "fields": Array<{
          [key: string]: unknown;
        }>;
      };
      "note": string | null;
      "source": {
        "kind": "management" | "person" | "plugin" | "ai";
        "id": string;
        "label": string;
        "requested_by"?: string;
      };
      "state": "open" | "applied" | "dismissed";
      "changes": Array<{
        "kind": string;
        "field": string | null;
        "affected_count": number;
        "message": string;
        "suggestion": string;
      }>;
      "stale": boolean;
      "revision": number;
      "created_by": string;
      "decided_by": string | null;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/models/proposals — scope schema:propose */
  listModelProposals: {
    method: "GET";
    path: "/api/manage/v1/models/proposals";
    params: never;
    query: {
      "state"?: "open" | "applied" | "dismissed";
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "mode": "create" | "update";
        "model_id": string | null;
        "base_updated_at": string | null;
        "definition": {
          "model": {
            "name": string;
            "slug": string;
            "enableI18n"?: boolean;
            "description"?: string | null;
            "kind"?: "collection" | "single";
            "is_public"?: boolean;
            "settings"?: {
              [key: string]: unknown;
            };
            "unique_combinations"?: Array<{
              "name": string;
              "fields": Array<string>;
              "scope": "model" | "language";
            }>;
          };
          "fields": Array<{
            [key: string]: unknown;
          }>;
        };
        "note": string | null;
        "source": {
          "kind": "management" | "person" | "plugin" | "ai";
          "id": string;
          "label": string;
          "requested_by"?: string;
        };
        "state": "open" | "applied" | "dismissed";
        "changes": Array<{
          "kind": string;
          "field": string | null;
          "affected_count": number;
          "message": string;
          "suggestion": string;
        }>;
        "stale": boolean;
        "revision": number;
        "created_by": string;
        "decided_by": string | null;
        "created_at": string;
        "updated_at": string;
        "replayed"?: boolean;
      }>;
    };
  };
  /** GET /api/manage/v1/models/proposals/{id} — scope schema:propose */
  getModelProposal: {
    method: "GET";
    path: "/api/manage/v1/models/proposals/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "mode": "create" | "update";
      "model_id": string | null;
      "base_updated_at": string | null;
      "definition": {
        "model": {
          "name": string;
          "slug": string;
          "enableI18n"?: boolean;
          "description"?: string | null;
          "kind"?: "collection" | "single";
          "is_public"?: boolean;
          "settings"?: {
            [key: string]: unknown;
          };
          "unique_combinations"?: Array<{
            "name": string;
            "fields": Array<string>;
            "scope": "model" | "language";
          }>;
        };
        "fields": Array<{
          [key: string]: unknown;
        }>;
      };
      "note": string | null;
      "source": {
        "kind": "management" | "person" | "plugin" | "ai";
        "id": string;
        "label": string;
        "requested_by"?: string;
      };
      "state": "open" | "applied" | "dismissed";
      "changes": Array<{
        "kind": string;
        "field": string | null;
        "affected_count": number;
        "message": string;
        "suggestion": string;
      }>;
      "stale": boolean;
      "revision": number;
      "created_by": string;
      "decided_by": string | null;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/models — scope content:read */
  listModels: {
    method: "GET";
    path: "/api/manage/v1/models";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "description": string | null;
        "kind": "collection" | "single";
        "is_public": boolean;
        "i18n": boolean;
        "folder": string | null;
        "settings": {
          "preview_url": string | null;
          "icon": string | null;
          "help_text": string | null;
          "site_path": string | null;
        };
        "definition": {
          "model": {
            "name": string;
            "slug": string;
            "description": string | null;
            "kind": "collection" | "single";
            "is_public": boolean;
            "enableI18n": boolean;
            "settings": {
              "preview_url": string | null;
              "icon": string | null;
              "help_text": string | null;
              "site_path": string | null;
            };
            "unique_combinations": Array<{
              "name": string;
              "fields": Array<string>;
              "scope": "model" | "language";
            }>;
          };
          "fields": Array<{
            [key: string]: unknown;
          }>;
        };
        "updated_at": string;
        "revision": number;
      }>;
    };
  };
  /** POST /api/manage/v1/models — scope schema:write — needs Idempotency-Key */
  createModel: {
    method: "POST";
    path: "/api/manage/v1/models";
    params: never;
    query: never;
    body: {
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
          "id"?: unknown;
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
          };
          "unique"?: "model" | "language";
          "condition"?: unknown;
          "fields"?: Array<{
            [key: string]: unknown;
          }>;
        }>;
      };
    };
    response: {
      "model_id": string;
      "slug": string;
      "revision": number;
      "updated_at": string;
      "created_field_ids": Array<string>;
      "renamed_from": string | null;
      "dependents"?: {
        "complete": true;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/models/{id} — scope content:read */
  getModel: {
    method: "GET";
    path: "/api/manage/v1/models/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "description": string | null;
      "kind": "collection" | "single";
      "is_public": boolean;
      "i18n": boolean;
      "folder": string | null;
      "settings": {
        "preview_url": string | null;
        "icon": string | null;
        "help_text": string | null;
        "site_path": string | null;
      };
      "definition": {
        "model": {
          "name": string;
          "slug": string;
          "description": string | null;
          "kind": "collection" | "single";
          "is_public": boolean;
          "enableI18n": boolean;
          "settings": {
            "preview_url": string | null;
            "icon": string | null;
            "help_text": string | null;
            "site_path": string | null;
          };
          "unique_combinations": Array<{
            "name": string;
            "fields": Array<string>;
            "scope": "model" | "language";
          }>;
        };
        "fields": Array<{
          [key: string]: unknown;
        }>;
      };
      "updated_at": string;
      "revision": number;
    };
  };
  /** PUT /api/manage/v1/models/{id} — scope schema:write — needs Idempotency-Key */
  updateModel: {
    method: "PUT";
    path: "/api/manage/v1/models/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "model": {
        "name"?: string;
        "slug"?: string;
        "description"?: string | null;
        "enableI18n"?: boolean;
        "is_public"?: boolean;
        "settings"?: {
          "preview_url"?: string | null;
          "icon"?: string | null;
          "help_text"?: string | null;
          "site_path"?: string | null;
        };
      };
    };
    response: {
      "model_id": string;
      "slug": string;
      "revision": number;
      "updated_at": string;
      "created_field_ids": Array<string>;
      "renamed_from": string | null;
      "dependents"?: {
        "complete": true;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/models/{id}/definition — scope schema:write — needs Idempotency-Key */
  replaceModelDefinition: {
    method: "PUT";
    path: "/api/manage/v1/models/{id}/definition";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
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
          };
          "unique"?: "model" | "language";
          "condition"?: unknown;
          "fields"?: Array<{
            [key: string]: unknown;
          }>;
        }>;
      };
    };
    response: {
      "model_id": string;
      "slug": string;
      "revision": number;
      "updated_at": string;
      "created_field_ids": Array<string>;
      "renamed_from": string | null;
      "dependents"?: {
        "complete": true;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/models/{id}/definition/plan — scope schema:write */
  planModelDefinition: {
    method: "POST";
    path: "/api/manage/v1/models/{id}/definition/plan";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
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
          };
          "unique"?: "model" | "language";
          "condition"?: unknown;
          "fields"?: Array<{
            [key: string]: unknown;
          }>;
        }>;
      };
    };
    response: {
      "model_id": string;
      "revision": number;
      "changes": Array<{
        "kind": string;
        "field": string | null;
        "affected_count": number;
        "message": string;
        "suggestion": string;
      }>;
      "fields": {
        "added": Array<string>;
        "removed": Array<string>;
        "changed": Array<string>;
        "renamed": Array<{
          "from": string;
          "to": string;
        }>;
      };
      "can_apply": boolean;
    };
  };
  /** PUT /api/manage/v1/models/{id}/folder — scope schema:write — needs Idempotency-Key */
  setModelFolder: {
    method: "PUT";
    path: "/api/manage/v1/models/{id}/folder";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "folder": string | null;
    };
    response: {
      "model_id": string;
      "slug": string;
      "folder": string | null;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/models/{id}/remove — scope schema:write — needs Idempotency-Key */
  removeModel: {
    method: "POST";
    path: "/api/manage/v1/models/{id}/remove";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "confirm": string;
    };
    response: {
      "model_id": string;
      "slug": string;
      "revision": number;
      "updated_at": string;
      "created_field_ids": Array<string>;
      "renamed_from": string | null;
      "dependents"?: {
        "complete": true;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/{id}/proposals — scope content:propose — needs Idempotency-Key */
  createEntryProposal: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/proposals";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "base_version_id": string;
      "fields": {
        [key: string]: unknown;
      };
      "note"?: string;
    };
    response: {
      "id": string;
      "instance_id": string;
      "base_version_id": string;
      "fields": {
        [key: string]: unknown;
      };
      "original_fields": {
        [key: string]: unknown;
      };
      "note": string | null;
      "source": {
        "kind": "management" | "person" | "plugin" | "ai";
        "id": string;
        "label": string;
        "requested_by"?: string;
      };
      "state": "open" | "applied" | "rejected";
      "revision": number;
      "created_by": string;
      "decided_by": string | null;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/proposals — scope content:read */
  listProposals: {
    method: "GET";
    path: "/api/manage/v1/proposals";
    params: never;
    query: {
      "state"?: "open" | "applied" | "rejected";
      "instance_id"?: string;
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "instance_id": string;
        "base_version_id": string;
        "fields": {
          [key: string]: unknown;
        };
        "original_fields": {
          [key: string]: unknown;
        };
        "note": string | null;
        "source": {
          "kind": "management" | "person" | "plugin" | "ai";
          "id": string;
          "label": string;
          "requested_by"?: string;
        };
        "state": "open" | "applied" | "rejected";
        "revision": number;
        "created_by": string;
        "decided_by": string | null;
        "created_at": string;
        "updated_at": string;
        "replayed"?: boolean;
      }>;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** GET /api/manage/v1/proposals/{id} — scope content:read */
  getProposal: {
    method: "GET";
    path: "/api/manage/v1/proposals/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "instance_id": string;
      "base_version_id": string;
      "fields": {
        [key: string]: unknown;
      };
      "original_fields": {
        [key: string]: unknown;
      };
      "note": string | null;
      "source": {
        "kind": "management" | "person" | "plugin" | "ai";
        "id": string;
        "label": string;
        "requested_by"?: string;
      };
      "state": "open" | "applied" | "rejected";
      "revision": number;
      "created_by": string;
      "decided_by": string | null;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/entries/{id}/assignment — scope workflow:assign — needs Idempotency-Key */
  assignEntry: {
    method: "PUT";
    path: "/api/manage/v1/entries/{id}/assignment";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "assignee_ids": Array<string>;
      "expected_workflow_revision"?: number;
    };
    response: {
      "instance_id": string;
      "assignee_ids": Array<string>;
      "workflow_revision": number;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id}/assignees — scope workflow:assign */
  listEntryAssignees: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/assignees";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "assigned": Array<{
        "id": string;
        "name": string;
        "email": string;
      }>;
      "eligible": Array<{
        "id": string;
        "name": string;
        "email": string;
        "role": string;
      }>;
    };
  };
  /** POST /api/manage/v1/entries/{id}/preview — scope content:read */
  previewEntry: {
    method: "POST";
    path: "/api/manage/v1/entries/{id}/preview";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "minutes"?: number;
    };
    response: {
      "preview": string;
      "expires_at": string;
      "url": string;
    };
  };
  /** GET /api/manage/v1/roles — scope content:read */
  listRoles: {
    method: "GET";
    path: "/api/manage/v1/roles";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "slug": string;
        "name": string;
        "description": string | null;
        "permissions": {
          "models": {
            [key: string]: Array<string>;
          };
          "system": Array<string>;
          "limits"?: {
            "fields"?: {
              [key: string]: {
                "read"?: Array<string>;
                "write"?: Array<string>;
              };
            };
            "languages"?: {
              [key: string]: Array<string>;
            };
          };
        };
        "seeded": boolean;
        "revision": number;
        "holders": number;
        "replayed"?: boolean;
      }>;
    };
  };
  /** POST /api/manage/v1/roles — scope roles:write — needs Idempotency-Key */
  createRole: {
    method: "POST";
    path: "/api/manage/v1/roles";
    params: never;
    query: never;
    body: {
      "slug": string;
      "name": string;
      "description"?: string | null;
      "permissions": unknown;
    };
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "description": string | null;
      "permissions": {
        "models": {
          [key: string]: Array<string>;
        };
        "system": Array<string>;
        "limits"?: {
          "fields"?: {
            [key: string]: {
              "read"?: Array<string>;
              "write"?: Array<string>;
            };
          };
          "languages"?: {
            [key: string]: Array<string>;
          };
        };
      };
      "seeded": boolean;
      "revision": number;
      "holders": number;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/roles/{id} — scope roles:write — needs Idempotency-Key */
  updateRole: {
    method: "PUT";
    path: "/api/manage/v1/roles/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "slug"?: string;
      "name"?: string;
      "description"?: string | null;
      "permissions"?: unknown;
      "expected_revision"?: number;
    };
    response: {
      "id": string;
      "slug": string;
      "name": string;
      "description": string | null;
      "permissions": {
        "models": {
          [key: string]: Array<string>;
        };
        "system": Array<string>;
        "limits"?: {
          "fields"?: {
            [key: string]: {
              "read"?: Array<string>;
              "write"?: Array<string>;
            };
          };
          "languages"?: {
            [key: string]: Array<string>;
          };
        };
      };
      "seeded": boolean;
      "revision": number;
      "holders": number;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/roles/{id}/remove — scope roles:write — needs Idempotency-Key */
  removeRole: {
    method: "POST";
    path: "/api/manage/v1/roles/{id}/remove";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "id": string;
      "slug": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/settings — scope content:read */
  getSettings: {
    method: "GET";
    path: "/api/manage/v1/settings";
    params: never;
    query: never;
    body: never;
    response: {
      "settings": {
        "languages": Array<string>;
        "default_language": string;
        "locale_fallback": Array<string>;
        "locale_fallback_enabled": boolean;
        "search": {
          "enabled": boolean;
          "models": Array<string>;
          "mode": string;
          "weights": {
            [key: string]: number;
          };
          "hidden_languages": Array<string>;
        };
        "embed_origins": Array<string>;
        "retention": {
          "trash_days": number;
        };
        "review": {
          "required": boolean;
        };
        "validation_mode": "default" | "strict";
        "media": {
          "allowed": {
            [key: string]: Array<string>;
          };
          "public_library": boolean;
        };
      };
      "revision": number;
      "search_reindexed"?: boolean;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/settings — scope settings:write — needs Idempotency-Key */
  updateSettings: {
    method: "PUT";
    path: "/api/manage/v1/settings";
    params: never;
    query: never;
    body: {
      "languages"?: Array<string>;
      "locale_fallback"?: Array<string>;
      "locale_fallback_enabled"?: boolean;
      "search"?: {
        "enabled"?: boolean;
        "models"?: Array<string>;
        "mode"?: "words" | "stems" | "parts";
        "weights"?: {
          [key: string]: number;
        };
        "hidden_languages"?: Array<string>;
      };
      "embed_origins"?: Array<string>;
      "retention"?: {
        "trash_days": number;
      };
      "review"?: {
        "required": boolean;
      };
      "validation_mode"?: "default" | "strict";
      "media"?: {
        "public_library"?: boolean;
        "allowed"?: {
          "image"?: Array<string>;
          "document"?: Array<string>;
          "audio"?: Array<string>;
          "video"?: Array<string>;
          "file"?: Array<string>;
        };
      };
      "expected_revision"?: number;
    };
    response: {
      "settings": {
        "languages": Array<string>;
        "default_language": string;
        "locale_fallback": Array<string>;
        "locale_fallback_enabled": boolean;
        "search": {
          "enabled": boolean;
          "models": Array<string>;
          "mode": string;
          "weights": {
            [key: string]: number;
          };
          "hidden_languages": Array<string>;
        };
        "embed_origins": Array<string>;
        "retention": {
          "trash_days": number;
        };
        "review": {
          "required": boolean;
        };
        "validation_mode": "default" | "strict";
        "media": {
          "allowed": {
            [key: string]: Array<string>;
          };
          "public_library": boolean;
        };
      };
      "revision": number;
      "search_reindexed"?: boolean;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/rich-blocks — scope content:read */
  listRichBlocks: {
    method: "GET";
    path: "/api/manage/v1/rich-blocks";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "name": string;
        "label": string;
        "version": number;
        "fields": {
          [key: string]: unknown;
        };
      }>;
    };
  };
  /** GET /api/manage/v1/plugins — scope plugins:use */
  listPlugins: {
    method: "GET";
    path: "/api/manage/v1/plugins";
    params: never;
    query: never;
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
  /** GET /api/manage/v1/plugins/manage-views — scope plugins:use */
  listPluginManageViews: {
    method: "GET";
    path: "/api/manage/v1/plugins/manage-views";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "installation_id": string;
        "plugin_id": string;
        "plugin_name": string;
        "id": string;
        "label": string;
      }>;
    };
  };
  /** GET /api/manage/v1/plugins/content-actions — scope plugins:use */
  listPluginContentActions: {
    method: "GET";
    path: "/api/manage/v1/plugins/content-actions";
    params: never;
    query: {
      "instance_id"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "installation_id": string;
        "plugin_id": string;
        "plugin_name": string;
        "id": string;
        "label": string;
        "model_ids": Array<string>;
      }>;
    };
  };
  /** POST /api/manage/v1/plugins/{id}/manage-views/{view}/launch — scope plugins:use */
  launchPluginManageView: {
    method: "POST";
    path: "/api/manage/v1/plugins/{id}/manage-views/{view}/launch";
    params: {
      "id": string;
      "view": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "outcome": "launch_created";
      "url": string;
      "expires_at": string;
      "single_use": true;
    };
  };
  /** POST /api/manage/v1/plugins/{id}/content-actions/{action}/entries/{instance_id}/launch — scope plugins:use */
  launchPluginContentAction: {
    method: "POST";
    path: "/api/manage/v1/plugins/{id}/content-actions/{action}/entries/{instance_id}/launch";
    params: {
      "id": string;
      "action": string;
      "instance_id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "outcome": "launch_created";
      "url": string;
      "expires_at": string;
      "single_use": true;
    };
  };
  /** GET /api/manage/v1/plugins/operations — scope plugins:use */
  listPluginOperations: {
    method: "GET";
    path: "/api/manage/v1/plugins/operations";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "installation_id": string;
        "plugin_id": string;
        "plugin_name": string;
        "id": string;
        "label": string;
        "scope": "site" | "entry";
        "destructive": boolean;
        "automation": boolean;
        "input": "none" | "optional" | "required";
        "input_schema": {
          [key: string]: unknown;
        };
        "result": {
          "blocks": Array<"text" | "rows" | "links" | "json">;
        };
        "model_ids": Array<string>;
      }>;
    };
  };
  /** POST /api/manage/v1/plugins/{id}/operations/{operation}/invoke — scope plugins:use — needs Idempotency-Key */
  invokePluginOperation: {
    method: "POST";
    path: "/api/manage/v1/plugins/{id}/operations/{operation}/invoke";
    params: {
      "id": string;
      "operation": string;
    };
    query: never;
    body: {
      "instance_id"?: string;
      "input"?: {
        [key: string]: unknown;
      };
    };
    response: {
      "outcome": "completed";
      "result": {
        "blocks": Array<{
          "type": "text";
          "text": string;
        } | {
          "type": "rows";
          "columns": Array<string>;
          "rows": Array<Array<string | number | boolean | null>>;
        } | {
          "type": "links";
          "links": Array<{
            "label": string;
            "url": string;
          }>;
        } | {
          "type": "json";
          "value": unknown;
        }>;
      };
      "replayed"?: true;
    };
  };
  /** GET /api/manage/v1/media/sources — scope content:read */
  listMediaSources: {
    method: "GET";
    path: "/api/manage/v1/media/sources";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "installation_id": string;
        "plugin_id": string;
        "plugin_name": string;
        "source_id": string;
        "label": string;
        "modes": Array<"copy" | "reference">;
      }>;
    };
  };
  /** GET /api/manage/v1/media/sources/{installationId}/{sourceId}/items — scope content:read */
  listMediaSourceItems: {
    method: "GET";
    path: "/api/manage/v1/media/sources/{installationId}/{sourceId}/items";
    params: {
      "installationId": string;
      "sourceId": string;
    };
    query: {
      "q"?: string;
      "cursor"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "title": string;
        "file_name": string;
        "kind": "image" | "document" | "audio" | "video" | "file";
        "size": number;
        "thumbnail_url": string | null;
        "attribution": string | null;
      }>;
      "next_cursor": string | null;
    };
  };
  /** POST /api/manage/v1/media/sources/{installationId}/{sourceId}/import — scope media:write — needs Idempotency-Key */
  importMediaSourceItem: {
    method: "POST";
    path: "/api/manage/v1/media/sources/{installationId}/{sourceId}/import";
    params: {
      "installationId": string;
      "sourceId": string;
    };
    query: never;
    body: {
      "item_id": string;
      "mode": "copy" | "reference";
    };
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
  /** POST /api/manage/v1/media — scope media:write — needs Idempotency-Key */
  uploadMedia: {
    method: "POST";
    path: "/api/manage/v1/media";
    params: never;
    query: never;
    body: FormData; /** multipart/form-data: file part "file" and the text fields */
    formFields: {
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
  /** GET /api/manage/v1/media/{id} — scope content:read */
  getMedia: {
    method: "GET";
    path: "/api/manage/v1/media/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
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
    };
  };
  /** GET /api/manage/v1/media — scope content:read */
  listMedia: {
    method: "GET";
    path: "/api/manage/v1/media";
    params: never;
    query: {
      "kind"?: "image" | "document" | "audio" | "video" | "file";
      "folder_id"?: string;
      "q"?: string;
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
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
      }>;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** PUT /api/manage/v1/media/{id} — scope media:write — needs Idempotency-Key */
  updateMedia: {
    method: "PUT";
    path: "/api/manage/v1/media/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision"?: number;
      "alt_texts"?: {
        [key: string]: string;
      };
      "default_focal"?: {
        "x": number;
        "y": number;
      } | null;
      "crop"?: {
        "x": number;
        "y": number;
        "width": number;
        "height": number;
      } | null;
      "loading"?: "eager" | "lazy";
      "fetch_priority"?: "high" | "low" | "auto";
    };
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
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/media/folders — scope content:read */
  listMediaFolders: {
    method: "GET";
    path: "/api/manage/v1/media/folders";
    params: never;
    query: never;
    body: never;
    response: {
      "folders": Array<{
        "id": string;
        "name": string;
        "parent_id": string | null;
        "revision": number;
        "depth": number;
        "media_count": number;
        "subtree_folder_count": number;
        "subtree_media_count": number;
        "created_at": string;
        "updated_at": string;
      }>;
      "unfiled": number;
      "total": number;
      "limits": {
        "max_depth": number;
        "max_folders": number;
        "name_max": number;
        "streamed_max_bytes": number;
      };
    };
  };
  /** POST /api/manage/v1/media/folders — scope media:write — needs Idempotency-Key */
  createMediaFolder: {
    method: "POST";
    path: "/api/manage/v1/media/folders";
    params: never;
    query: never;
    body: {
      "name": string;
      "parent_id"?: string | null;
    };
    response: {
      "folder": {
        "id": string;
        "name": string;
        "parent_id": string | null;
        "revision": number;
        "depth": number;
        "media_count": number;
        "subtree_folder_count": number;
        "subtree_media_count": number;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/media/folders/{id} — scope media:write — needs Idempotency-Key */
  updateMediaFolder: {
    method: "PUT";
    path: "/api/manage/v1/media/folders/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "name"?: string;
      "parent_id"?: string | null;
    };
    response: {
      "folder": {
        "id": string;
        "name": string;
        "parent_id": string | null;
        "revision": number;
        "depth": number;
        "media_count": number;
        "subtree_folder_count": number;
        "subtree_media_count": number;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/media/folders/{id}/remove — scope media:write — needs Idempotency-Key */
  removeMediaFolder: {
    method: "POST";
    path: "/api/manage/v1/media/folders/{id}/remove";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "expected_folders": number;
      "expected_media": number;
    };
    response: {
      "folder": {
        "id": string;
        "name": string;
        "parent_id": string | null;
        "revision": number;
        "depth": number;
        "media_count": number;
        "subtree_folder_count": number;
        "subtree_media_count": number;
        "created_at": string;
        "updated_at": string;
      };
      "removed": {
        "folder_ids": Array<string>;
        "folders": number;
        "media_unfiled": number;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/media/move — scope media:write — needs Idempotency-Key */
  moveMedia: {
    method: "POST";
    path: "/api/manage/v1/media/move";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
      "folder_id": string | null;
    };
    response: {
      "media": Array<{
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
      }>;
      "folder_id": string | null;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/media/{id}/replace — scope media:write — needs Idempotency-Key */
  replaceMedia: {
    method: "POST";
    path: "/api/manage/v1/media/{id}/replace";
    params: {
      "id": string;
    };
    query: never;
    body: FormData; /** multipart/form-data: file part "file" and the text fields */
    formFields: {
      "name"?: string;
      "type"?: string;
      "width"?: string;
      "height"?: string;
      "aspectRatio"?: string;
      "expected_revision"?: string;
    };
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
      "unchanged"?: true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/media/{id}/originals — scope content:read */
  listMediaOriginals: {
    method: "GET";
    path: "/api/manage/v1/media/{id}/originals";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "media_id": string;
      "originals": Array<{
        "id": string;
        "lang": string | null;
        "url": string | null;
        "file_name": string;
        "mime_type": string;
        "byte_length": number;
        "sha256": string;
        "width": number | null;
        "height": number | null;
      }>;
      "by_language": Array<{
        "lang": string;
        "id": string;
        "from_lang": string | null;
      }>;
    };
  };
  /** PUT /api/manage/v1/media/{id}/originals/{lang} — scope media:write — needs Idempotency-Key */
  setMediaOriginal: {
    method: "PUT";
    path: "/api/manage/v1/media/{id}/originals/{lang}";
    params: {
      "id": string;
      "lang": string;
    };
    query: never;
    body: FormData; /** multipart/form-data: file part "file" and the text fields */
    formFields: {
      "name"?: string;
      "type"?: string;
      "width"?: string;
      "height"?: string;
      "aspectRatio"?: string;
      "expected_object_id": string;
    };
    response: {
      "media_id": string;
      "original": {
        "id": string;
        "lang": string | null;
        "url": string | null;
        "file_name": string;
        "mime_type": string;
        "byte_length": number;
        "sha256": string;
        "width": number | null;
        "height": number | null;
      };
      "previous_object_id": string | null;
      "replayed"?: boolean;
    };
  };
  /** DELETE /api/manage/v1/media/{id}/originals/{lang} — scope media:write — needs Idempotency-Key */
  removeMediaOriginal: {
    method: "DELETE";
    path: "/api/manage/v1/media/{id}/originals/{lang}";
    params: {
      "id": string;
      "lang": string;
    };
    query: never;
    body: {
      "expected_object_id": string;
    };
    response: {
      "media_id": string;
      "removed": {
        "id": string;
        "lang": string | null;
        "url": string | null;
        "file_name": string;
        "mime_type": string;
        "byte_length": number;
        "sha256": string;
        "width": number | null;
        "height": number | null;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/media/{id}/usage — scope content:read */
  getMediaUsage: {
    method: "GET";
    path: "/api/manage/v1/media/{id}/usage";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "media_id": string;
      "used_by": Array<{
        "instance_id": string;
        "model_id": string;
        "lang": string;
        "label": string | null;
        "field_ids": Array<string>;
        "current": boolean;
        "published": boolean;
        "in_trash": boolean;
      }>;
      "hidden": number;
      "at_least": number;
      "total": number | null;
      "more": boolean;
      "unreadable": boolean;
    };
  };
  /** POST /api/manage/v1/media/{id}/remove — scope media:write — needs Idempotency-Key */
  removeMedia: {
    method: "POST";
    path: "/api/manage/v1/media/{id}/remove";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision"?: number;
    };
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
      "storage_cleanup": "complete" | "pending";
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/generated-backend — scope settings:write */
  getGeneratedBackend: {
    method: "GET";
    path: "/api/manage/v1/generated-backend";
    params: never;
    query: never;
    body: never;
    response: string;
  };
  /** GET /api/manage/v1/generation-readiness — scope settings:write */
  getGenerationReadiness: {
    method: "GET";
    path: "/api/manage/v1/generation-readiness";
    params: never;
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
  /** GET /api/manage/v1/generation-readiness/content — scope settings:write */
  getGenerationReadinessContent: {
    method: "GET";
    path: "/api/manage/v1/generation-readiness/content";
    params: never;
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
  /** POST /api/manage/v1/backend-read-tokens — scope settings:write — needs Idempotency-Key */
  createBackendReadToken: {
    method: "POST";
    path: "/api/manage/v1/backend-read-tokens";
    params: never;
    query: never;
    body: {
      "name": string;
      "models": Array<string>;
    };
    response: {
      "id": string;
      "name": string;
      "models": Array<string>;
      "created_by": string | null;
      "created_at": string;
      "revoked_at": string | null;
      "token": string | null;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/backend-read-tokens — scope settings:write */
  listBackendReadTokens: {
    method: "GET";
    path: "/api/manage/v1/backend-read-tokens";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "models": Array<string>;
        "created_by": string | null;
        "created_at": string;
        "revoked_at": string | null;
      }>;
    };
  };
  /** DELETE /api/manage/v1/backend-read-tokens/{id} — scope settings:write — needs Idempotency-Key */
  revokeBackendReadToken: {
    method: "DELETE";
    path: "/api/manage/v1/backend-read-tokens/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "models": Array<string>;
      "created_by": string | null;
      "created_at": string;
      "revoked_at": string | null;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/sources — scope data:import — needs Idempotency-Key */
  createImportSource: {
    method: "POST";
    path: "/api/manage/v1/imports/sources";
    params: never;
    query: never;
    body: {
      "kind": "wordpress" | "driftwood";
      "name": string;
    };
    response: {
      "source": {
        "id": string;
        "kind": string;
        "name": string;
        "created_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports — scope data:import — needs Idempotency-Key */
  createImport: {
    method: "POST";
    path: "/api/manage/v1/imports";
    params: never;
    query: never;
    body: {
      "source_id": string;
      "file_name": string;
    };
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/imports/{id}/parts/{part} — scope data:import — needs Idempotency-Key */
  uploadImportPart: {
    method: "PUT";
    path: "/api/manage/v1/imports/{id}/parts/{part}";
    params: {
      "id": string;
      "part": string;
    };
    query: never;
    body: {
      "content_base64": string;
    };
    response: {
      "import_id": string;
      "part": number;
      "byte_length": number;
      "sha256": string;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/complete — scope data:import — needs Idempotency-Key */
  completeImportUpload: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/complete";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "sha256": string;
    };
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/imports/{id} — scope data:import */
  getImportJob: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/advance — scope data:import — needs Idempotency-Key */
  advanceImport: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/advance";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/pause — scope data:import — needs Idempotency-Key */
  pauseImport: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/pause";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/resume — scope data:import — needs Idempotency-Key */
  resumeImport: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/resume";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/cancel — scope data:import — needs Idempotency-Key */
  cancelImport: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/cancel";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/undo — scope data:import — needs Idempotency-Key */
  advanceImportUndo: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/undo";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/imports/{id}/undo/retry — scope data:import — needs Idempotency-Key */
  retryImportUndo: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/undo/retry";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/imports/{id}/findings — scope data:import */
  getImportFindings: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/findings";
    params: {
      "id": string;
    };
    query: {
      "cursor"?: string;
    };
    body: never;
    response: {
      "findings": Array<{
        "seq": number;
        "item_seq": number | null;
        "code": string;
        "message": string;
        "details": {
          [key: string]: unknown;
        };
        "created_at": string;
      }>;
      "next_cursor": string | null;
    };
  };
  /** GET /api/manage/v1/imports/{id}/wordpress/review — scope data:import */
  getWordPressReview: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/wordpress/review";
    params: {
      "id": string;
    };
    query: {
      "cursor"?: string;
    };
    body: never;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "counts": {
        [key: string]: {
          "total": number;
          "by_status": {
            [key: string]: number;
          };
        };
      };
      "mapping": {
        "proposed": {
          [key: string]: string | null;
        };
        "chosen": {
          [key: string]: string | null;
        } | null;
        "problems": unknown;
      };
      "fields": {
        [key: string]: unknown;
      };
      "conflicts": Array<{
        "item_seq": number;
        "kind": string;
        "source_key": string;
        "slug": string;
        "model_id": string;
        "taken_by": unknown;
      }>;
      "decided": boolean;
      "choices": {
        [key: string]: string;
      };
      "next_cursor": string | null;
    };
  };
  /** POST /api/manage/v1/imports/{id}/wordpress/review — scope data:import — needs Idempotency-Key */
  decideWordPressReview: {
    method: "POST";
    path: "/api/manage/v1/imports/{id}/wordpress/review";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "mapping"?: {
        "post": string | null;
        "page": string | null;
        "category": string | null;
        "tag": string | null;
      };
      "renames"?: {
        [key: string]: string;
      };
      "approve"?: boolean;
    };
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "decisions": {
        "mapping": {
          "post": string | null;
          "page": string | null;
          "category": string | null;
          "tag": string | null;
        };
        "renames": {
          [key: string]: string;
        };
        "approved": boolean;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/imports/{id}/media — scope data:import — needs Idempotency-Key */
  uploadImportMedia: {
    method: "PUT";
    path: "/api/manage/v1/imports/{id}/media";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "attachment_url": string;
      "content_base64": string;
    };
    response: {
      "import_id": string;
      "url": string;
      "byte_length": number;
      "sha256": string;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/imports/{id}/mapping — scope data:import */
  getImportMapping: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/mapping";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "mapping": {
        "proposed": {
          [key: string]: string | null;
        };
        "chosen": {
          [key: string]: string | null;
        } | null;
        "fields": {
          [key: string]: {
            "model_id": string;
            "title": string | null;
            "body": string | null;
            "excerpt": string | null;
            "categories": string | null;
            "tags": string | null;
            "parent": string | null;
            "date": string | null;
            "image": string | null;
          };
        };
        "problems": unknown;
        "fetch_attachments": boolean;
        "models"?: Array<{
          "model": string;
          "existing_model_id": string;
          "compatible": boolean;
          "kind": {
            "exported": string;
            "site": string;
          } | null;
          "fields": Array<{
            "key": string;
            "difference": "not_on_site" | "type" | "required_not_exported";
            "exported_type": string | null;
            "site_type": string | null;
          }>;
          "choice": "existing" | "refuse" | null;
        }>;
      };
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/imports/{id}/mapping — scope data:import — needs Idempotency-Key */
  putImportMapping: {
    method: "PUT";
    path: "/api/manage/v1/imports/{id}/mapping";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "mapping"?: {
        "post": string | null;
        "page": string | null;
        "category": string | null;
        "tag": string | null;
      };
      "fetch_attachments"?: boolean;
      "models"?: {
        [key: string]: "existing" | "refuse";
      };
    };
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "mapping": {
        "proposed": {
          [key: string]: string | null;
        };
        "chosen": {
          [key: string]: string | null;
        } | null;
        "fields": {
          [key: string]: {
            "model_id": string;
            "title": string | null;
            "body": string | null;
            "excerpt": string | null;
            "categories": string | null;
            "tags": string | null;
            "parent": string | null;
            "date": string | null;
            "image": string | null;
          };
        };
        "problems": unknown;
        "fetch_attachments": boolean;
        "models"?: Array<{
          "model": string;
          "existing_model_id": string;
          "compatible": boolean;
          "kind": {
            "exported": string;
            "site": string;
          } | null;
          "fields": Array<{
            "key": string;
            "difference": "not_on_site" | "type" | "required_not_exported";
            "exported_type": string | null;
            "site_type": string | null;
          }>;
          "choice": "existing" | "refuse" | null;
        }>;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/imports/{id}/principals — scope data:import */
  getImportPrincipals: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/principals";
    params: {
      "id": string;
    };
    query: {
      "cursor"?: string;
    };
    body: never;
    response: {
      "principals": Array<{
        "item_seq": number;
        "login": string;
        "display_name": string;
        "email": string;
        "items": number;
        "person_id": string | null;
        "proposed_person_id": string | null;
      }>;
      "next_cursor": string | null;
    };
  };
  /** GET /api/manage/v1/imports/{id}/history-assignments — scope data:import */
  getHistoryAssignments: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/history-assignments";
    params: {
      "id": string;
    };
    query: {
      "cursor"?: string;
    };
    body: never;
    response: {
      "assignments": Array<{
        "login": string;
        "display_name": string;
        "person_id": string | null;
        "kept_as": "person" | "name";
      }>;
      "next_cursor": string | null;
    };
  };
  /** PUT /api/manage/v1/imports/{id}/history-assignments — scope data:import — needs Idempotency-Key */
  putHistoryAssignments: {
    method: "PUT";
    path: "/api/manage/v1/imports/{id}/history-assignments";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "assignments": {
        [key: string]: string | null;
      };
    };
    response: {
      "import": {
        "id": string;
        "source_id": string;
        "kind": "wordpress" | "driftwood";
        "state": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone";
        "paused_from": "awaiting_upload" | "uploaded" | "parsing" | "review" | "writing" | "paused" | "done" | "cancelled" | "failed" | "undoing" | "undone" | null;
        "position": number;
        "file": {
          "name": string;
          "bytes": number | null;
          "sha256": string | null;
        };
        "progress": {
          "items_total": number;
          "items_done": number;
          "findings": number;
          "parsed_bytes": number;
        };
        "next": Array<string>;
        "failure": {
          "code": string;
          "message": string;
        } | null;
        "created_at": string;
        "updated_at": string;
      };
      "assignments": {
        [key: string]: string | null;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/imports/{id}/artifacts/{name} — scope data:import */
  readImportArtifact: {
    method: "GET";
    path: "/api/manage/v1/imports/{id}/artifacts/{name}";
    params: {
      "id": string;
      "name": "receipt" | "problems";
    };
    query: {
      "offset"?: string;
      "length"?: string;
    };
    body: never;
    response: {
      "content_base64": string;
      "name": string;
      "content_type": string;
      "offset": number;
      "length": number;
      "total": number;
      "next_offset": number | null;
      "sha256": string;
      "page": null;
      "next_page": null;
      "position": number;
    };
  };
  /** POST /api/manage/v1/exports — scope data:export — needs Idempotency-Key */
  createExport: {
    method: "POST";
    path: "/api/manage/v1/exports";
    params: never;
    query: never;
    body: {
      "model_ids"?: Array<string> | null;
      "languages"?: Array<string> | null;
    };
    response: {
      "export": {
        "id": string;
        "state": "building" | "finished" | "cancelled";
        "position": number;
        "filter": {
          "model_ids": Array<string> | null;
          "languages": Array<string> | null;
        };
        "format": {
          "name": string;
          "version": number;
          "content_type": string;
        };
        "pages": number;
        "total_bytes": number;
        "sha256": string | null;
        "section": "header" | "entries" | "media" | "end" | "seal";
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/exports/{id}/advance — scope data:export — needs Idempotency-Key */
  advanceExport: {
    method: "POST";
    path: "/api/manage/v1/exports/{id}/advance";
    params: {
      "id": string;
    };
    query: never;
    body: Record<string, never>;
    response: {
      "export": {
        "id": string;
        "state": "building" | "finished" | "cancelled";
        "position": number;
        "filter": {
          "model_ids": Array<string> | null;
          "languages": Array<string> | null;
        };
        "format": {
          "name": string;
          "version": number;
          "content_type": string;
        };
        "pages": number;
        "total_bytes": number;
        "sha256": string | null;
        "section": "header" | "entries" | "media" | "end" | "seal";
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/exports/{id} — scope data:export */
  getExportJob: {
    method: "GET";
    path: "/api/manage/v1/exports/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "export": {
        "id": string;
        "state": "building" | "finished" | "cancelled";
        "position": number;
        "filter": {
          "model_ids": Array<string> | null;
          "languages": Array<string> | null;
        };
        "format": {
          "name": string;
          "version": number;
          "content_type": string;
        };
        "pages": number;
        "total_bytes": number;
        "sha256": string | null;
        "section": "header" | "entries" | "media" | "end" | "seal";
        "created_at": string;
        "updated_at": string;
      };
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/exports/{id}/file — scope data:export */
  readExportChunk: {
    method: "GET";
    path: "/api/manage/v1/exports/{id}/file";
    params: {
      "id": string;
    };
    query: {
      "offset"?: string;
      "length"?: string;
      "page"?: string;
    };
    body: never;
    response: {
      "content_base64": string;
      "content_type": string;
      "offset": number;
      "length": number;
      "total": number;
      "next_offset": number | null;
      "sha256": string;
      "page": number | null;
      "next_page": number | null;
      "page_sha256"?: string;
    };
  };
  /** GET /api/manage/v1/settings/cors — scope content:read */
  getCorsSettings: {
    method: "GET";
    path: "/api/manage/v1/settings/cors";
    params: never;
    query: never;
    body: never;
    response: {
      "cors": {
        "origins": Array<{
          "origin": string;
          "tokens": boolean;
        }>;
      };
      "revision": number;
      "local_origins_honoured": boolean;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/settings/cors — scope settings:write — needs Idempotency-Key */
  putCorsSettings: {
    method: "PUT";
    path: "/api/manage/v1/settings/cors";
    params: never;
    query: never;
    body: {
      "origins": Array<{
        "origin": string;
        "tokens"?: boolean;
      }>;
      "expected_revision"?: number;
    };
    response: {
      "cors": {
        "origins": Array<{
          "origin": string;
          "tokens": boolean;
        }>;
      };
      "revision": number;
      "local_origins_honoured": boolean;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/saved-queries — scope content:read */
  listSavedQueries: {
    method: "GET";
    path: "/api/manage/v1/saved-queries";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "model_id": string;
        "model_slug": string;
        "filters": Array<{
          "kind": string;
          "field": string;
          "value": string;
        }>;
        "order": string;
        "fields": Array<string> | null;
        "limit": number;
        "revision": number;
        "created_at": string;
        "updated_at": string;
        "replayed"?: boolean;
      }>;
    };
  };
  /** POST /api/manage/v1/saved-queries — scope settings:write — needs Idempotency-Key */
  createSavedQuery: {
    method: "POST";
    path: "/api/manage/v1/saved-queries";
    params: never;
    query: never;
    body: {
      "name": string;
      "model_id": string;
      "filters"?: Array<{
        "kind": "relation" | "tag";
        "field": string;
        "value": string;
      }>;
      "order"?: "asc" | "desc" | "manual";
      "fields"?: Array<string>;
      "limit"?: number;
    };
    response: {
      "id": string;
      "name": string;
      "model_id": string;
      "model_slug": string;
      "filters": Array<{
        "kind": string;
        "field": string;
        "value": string;
      }>;
      "order": string;
      "fields": Array<string> | null;
      "limit": number;
      "revision": number;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/saved-queries/{id} — scope settings:write — needs Idempotency-Key */
  updateSavedQuery: {
    method: "PUT";
    path: "/api/manage/v1/saved-queries/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "name"?: string;
      "expected_revision": number;
      "filters"?: Array<{
        "kind": "relation" | "tag";
        "field": string;
        "value": string;
      }>;
      "order"?: "asc" | "desc" | "manual";
      "fields"?: Array<string>;
      "limit"?: number;
    };
    response: {
      "id": string;
      "name": string;
      "model_id": string;
      "model_slug": string;
      "filters": Array<{
        "kind": string;
        "field": string;
        "value": string;
      }>;
      "order": string;
      "fields": Array<string> | null;
      "limit": number;
      "revision": number;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** DELETE /api/manage/v1/saved-queries/{id} — scope settings:write — needs Idempotency-Key */
  deleteSavedQuery: {
    method: "DELETE";
    path: "/api/manage/v1/saved-queries/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/menus — scope content:read */
  listMenus: {
    method: "GET";
    path: "/api/manage/v1/menus";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "items": {
          [key: string]: Array<{
            "label": string;
            "target": {
              "kind": string;
              "group_id"?: string;
              "url"?: string;
            };
            "children": Array<{
              "label": string;
              "target": {
                "kind": string;
                "group_id"?: string;
                "url"?: string;
              };
              "children": Array<{
                "label": string;
                "target": {
                  "kind": string;
                  "group_id"?: string;
                  "url"?: string;
                };
                "children": Array<unknown>;
              }>;
            }>;
          }>;
        };
        "revision": number;
        "created_at": string;
        "updated_at": string;
        "created"?: boolean;
        "replayed"?: boolean;
      }>;
    };
  };
  /** GET /api/manage/v1/menus/{name} — scope content:read */
  getMenu: {
    method: "GET";
    path: "/api/manage/v1/menus/{name}";
    params: {
      "name": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "items": {
        [key: string]: Array<{
          "label": string;
          "target": {
            "kind": string;
            "group_id"?: string;
            "url"?: string;
          };
          "children": Array<{
            "label": string;
            "target": {
              "kind": string;
              "group_id"?: string;
              "url"?: string;
            };
            "children": Array<{
              "label": string;
              "target": {
                "kind": string;
                "group_id"?: string;
                "url"?: string;
              };
              "children": Array<unknown>;
            }>;
          }>;
        }>;
      };
      "revision": number;
      "created_at": string;
      "updated_at": string;
      "created"?: boolean;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/menus/{name} — scope settings:write — needs Idempotency-Key */
  putMenu: {
    method: "PUT";
    path: "/api/manage/v1/menus/{name}";
    params: {
      "name": string;
    };
    query: never;
    body: {
      "items": {
        [key: string]: Array<{
          "label": string;
          "target": {
            "kind": "entry";
            "entry_id": string;
          } | {
            "kind": "url";
            "url": string;
          };
          "children"?: Array<{
            "label": string;
            "target": {
              "kind": "entry";
              "entry_id": string;
            } | {
              "kind": "url";
              "url": string;
            };
            "children"?: Array<{
              "label": string;
              "target": {
                "kind": "entry";
                "entry_id": string;
              } | {
                "kind": "url";
                "url": string;
              };
            }>;
          }>;
        }>;
      };
      "expected_revision"?: number;
    };
    response: {
      "id": string;
      "name": string;
      "items": {
        [key: string]: Array<{
          "label": string;
          "target": {
            "kind": string;
            "group_id"?: string;
            "url"?: string;
          };
          "children": Array<{
            "label": string;
            "target": {
              "kind": string;
              "group_id"?: string;
              "url"?: string;
            };
            "children": Array<{
              "label": string;
              "target": {
                "kind": string;
                "group_id"?: string;
                "url"?: string;
              };
              "children": Array<unknown>;
            }>;
          }>;
        }>;
      };
      "revision": number;
      "created_at": string;
      "updated_at": string;
      "created"?: boolean;
      "replayed"?: boolean;
    };
  };
  /** DELETE /api/manage/v1/menus/{name} — scope settings:write — needs Idempotency-Key */
  deleteMenu: {
    method: "DELETE";
    path: "/api/manage/v1/menus/{name}";
    params: {
      "name": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/pages — scope content:read */
  listPages: {
    method: "GET";
    path: "/api/manage/v1/pages";
    params: never;
    query: {
      "lang"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "lang": string;
        "slug": string | null;
        "label": string | null;
        "parent_id": string | null;
        "path": string | null;
        "current_version_id": string | null;
        "published_version_id": string | null;
        "updated_at": string;
      }>;
    };
  };
  /** GET /api/manage/v1/pages/{id} — scope content:read */
  getPage: {
    method: "GET";
    path: "/api/manage/v1/pages/{id}";
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
      "parent_id": string | null;
      "path": string | null;
      "created"?: boolean;
    };
  };
  /** POST /api/manage/v1/pages — scope pages:write — needs Idempotency-Key */
  savePage: {
    method: "POST";
    path: "/api/manage/v1/pages";
    params: never;
    query: never;
    body: {
      "id"?: string;
      "lang"?: string;
      "slug"?: string;
      "parent_id"?: string | null;
      "expected_version_id"?: string;
      "fields"?: {
        [key: string]: null | string | {
          "model": string;
          "id": string;
        } | Array<string | {
          "model": string;
          "id": string;
        }> | {
          "set": null | string | {
            "model": string;
            "id": string;
          } | Array<string | {
            "model": string;
            "id": string;
          }>;
          "replace"?: boolean;
        } | {
          "connect"?: Array<string | {
            "model": string;
            "id": string;
          } | {
            "model"?: string;
            "id": string;
            "position"?: {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "disconnect"?: Array<string | {
            "model": string;
            "id": string;
          }>;
          "move"?: Array<{
            "model"?: string;
            "id": string;
            "position": {
              "before": string;
            } | {
              "after": string;
            } | {
              "start": true;
            } | {
              "end": true;
            };
          }>;
          "replace"?: boolean;
        } | unknown;
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
      "warnings"?: Array<{
        "code": "rich_markup_dropped";
        "path": string;
        "dropped": Array<string>;
      }>;
      "schedules"?: Array<{
        "id": string;
        "action": "publish" | "unpublish";
        "at": string;
        "state": string;
        "outcome_code": string | null;
      }>;
      "replayed"?: boolean;
      "updated_by"?: {
        "kind": "person" | "credential" | "oauth_app" | "plugin" | "import" | "system";
        "person_id": string | null;
        "name": string | null;
      } | null;
      "parent_id": string | null;
      "path": string | null;
      "created"?: boolean;
    };
  };
  /** GET /api/manage/v1/comments — scope content:read */
  listComments: {
    method: "GET";
    path: "/api/manage/v1/comments";
    params: never;
    query: {
      "status"?: "pending" | "approved" | "rejected" | "spam";
      "entry_id"?: string;
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "model_id": string;
        "translation_group_id": string;
        "instance_id": string;
        "lang": string;
        "author_name": string;
        "body": string;
        "status": "pending" | "approved" | "rejected" | "spam";
        "revision": number;
        "moderated_by": string | null;
        "moderated_at": string | null;
        "created_at": string;
      }>;
      "next_cursor": string | null;
    };
  };
  /** POST /api/manage/v1/comments/{id}/moderate — scope content:write — needs Idempotency-Key */
  moderateComment: {
    method: "POST";
    path: "/api/manage/v1/comments/{id}/moderate";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "status": "approved" | "rejected" | "spam";
    };
    response: {
      "id": string;
      "model_id": string;
      "translation_group_id": string;
      "instance_id": string;
      "lang": string;
      "author_name": string;
      "body": string;
      "status": "pending" | "approved" | "rejected" | "spam";
      "revision": number;
      "moderated_by": string | null;
      "moderated_at": string | null;
      "created_at": string;
    };
  };
  /** DELETE /api/manage/v1/comments/{id} — scope content:trash — needs Idempotency-Key */
  deleteComment: {
    method: "DELETE";
    path: "/api/manage/v1/comments/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "deleted": true;
    };
  };
  /** GET /api/manage/v1/settings/comments — scope content:read */
  getCommentSettings: {
    method: "GET";
    path: "/api/manage/v1/settings/comments";
    params: never;
    query: never;
    body: never;
    response: {
      "comments": {
        "enabled": boolean;
        "model_ids": Array<string>;
        "moderation": string;
        "difficulty": number;
        "max_length": number;
        "per_hour": number;
      };
      "revision": number;
    };
  };
  /** PUT /api/manage/v1/settings/comments — scope settings:write — needs Idempotency-Key */
  putCommentSettings: {
    method: "PUT";
    path: "/api/manage/v1/settings/comments";
    params: never;
    query: never;
    body: {
      "enabled": boolean;
      "model_ids": Array<string>;
      "moderation": "pending" | "approved";
      "difficulty": number;
      "max_length": number;
      "per_hour": number;
      "expected_revision"?: number;
    };
    response: {
      "comments": {
        "enabled": boolean;
        "model_ids": Array<string>;
        "moderation": string;
        "difficulty": number;
        "max_length": number;
        "per_hour": number;
      };
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/settings/chrome — scope content:read */
  getSiteChrome: {
    method: "GET";
    path: "/api/manage/v1/settings/chrome";
    params: never;
    query: never;
    body: never;
    response: {
      "chrome": {
        "languages": {
          [key: string]: {
            "site_name": string;
            "tagline": string | null;
            "header_links": Array<{
              "label": string;
              "url": string;
            }>;
            "footer_links": Array<{
              "label": string;
              "url": string;
            }>;
          };
        };
        "logo_media_id": string | null;
        "social_links": Array<{
          "network": string;
          "url": string;
        }>;
      };
      "revision": number;
    };
  };
  /** GET /api/manage/v1/settings/seo — scope content:read */
  getSeoSettings: {
    method: "GET";
    path: "/api/manage/v1/settings/seo";
    params: never;
    query: never;
    body: never;
    response: {
      "seo": {
        "languages": {
          [key: string]: {
            "title_template": string;
            "description": string | null;
          };
        };
        "share_image_media_id": string | null;
      };
      "revision": number;
    };
  };
  /** GET /api/manage/v1/settings/robots — scope content:read */
  getRobotsRules: {
    method: "GET";
    path: "/api/manage/v1/settings/robots";
    params: never;
    query: never;
    body: never;
    response: {
      "robots": {
        "rules": Array<{
          "user_agent": string;
          "allow": Array<string>;
          "disallow": Array<string>;
        }>;
      };
      "revision": number;
      "sitemap_path": string | null;
    };
  };
  /** PUT /api/manage/v1/settings/chrome — scope settings:write — needs Idempotency-Key */
  putSiteChrome: {
    method: "PUT";
    path: "/api/manage/v1/settings/chrome";
    params: never;
    query: never;
    body: {
      "languages": {
        [key: string]: {
          "site_name": string;
          "tagline"?: string | null;
          "header_links"?: Array<{
            "label": string;
            "url": string;
          }>;
          "footer_links"?: Array<{
            "label": string;
            "url": string;
          }>;
        };
      };
      "logo_media_id"?: string | null;
      "social_links"?: Array<{
        "network": "mastodon" | "bluesky" | "github" | "linkedin" | "instagram" | "youtube" | "facebook" | "x" | "threads" | "rss" | "other";
        "url": string;
      }>;
      "expected_revision"?: number;
    };
    response: {
      "chrome": {
        "languages": {
          [key: string]: {
            "site_name": string;
            "tagline": string | null;
            "header_links": Array<{
              "label": string;
              "url": string;
            }>;
            "footer_links": Array<{
              "label": string;
              "url": string;
            }>;
          };
        };
        "logo_media_id": string | null;
        "social_links": Array<{
          "network": string;
          "url": string;
        }>;
      };
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/settings/seo — scope settings:write — needs Idempotency-Key */
  putSeoSettings: {
    method: "PUT";
    path: "/api/manage/v1/settings/seo";
    params: never;
    query: never;
    body: {
      "languages": {
        [key: string]: {
          "title_template": string;
          "description"?: string | null;
        };
      };
      "share_image_media_id"?: string | null;
      "expected_revision"?: number;
    };
    response: {
      "seo": {
        "languages": {
          [key: string]: {
            "title_template": string;
            "description": string | null;
          };
        };
        "share_image_media_id": string | null;
      };
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/settings/robots — scope settings:write — needs Idempotency-Key */
  putRobotsRules: {
    method: "PUT";
    path: "/api/manage/v1/settings/robots";
    params: never;
    query: never;
    body: {
      "rules": Array<{
        "user_agent": string;
        "allow"?: Array<string>;
        "disallow"?: Array<string>;
      }>;
      "expected_revision"?: number;
    };
    response: {
      "robots": {
        "rules": Array<{
          "user_agent": string;
          "allow": Array<string>;
          "disallow": Array<string>;
        }>;
      };
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/settings/access-rules — scope content:read */
  getAccessRules: {
    method: "GET";
    path: "/api/manage/v1/settings/access-rules";
    params: never;
    query: never;
    body: never;
    response: {
      "rules": Array<{
        "path_prefix": string;
        "role_ids": Array<string>;
        "roles": Array<{
          "id": string;
          "slug": string;
        }>;
      }>;
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/settings/access-rules — scope settings:write — needs Idempotency-Key */
  putAccessRules: {
    method: "PUT";
    path: "/api/manage/v1/settings/access-rules";
    params: never;
    query: never;
    body: {
      "rules": Array<{
        "path_prefix": string;
        "role_ids": Array<string>;
      }>;
      "expected_revision"?: number;
    };
    response: {
      "rules": Array<{
        "path_prefix": string;
        "role_ids": Array<string>;
        "roles": Array<{
          "id": string;
          "slug": string;
        }>;
      }>;
      "revision": number;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id}/restore-check — scope content:trash */
  checkEntryRestore: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/restore-check";
    params: {
      "id": string;
    };
    query: {
      "language_only"?: "true" | "false";
    };
    body: never;
    response: {
      "instance_ids": Array<string>;
      "translation_group_id": string;
      "busy_addresses": Array<{
        "instance_id": string;
        "lang": string;
        "slug": string;
        "held_by"?: string;
      }>;
      "broken_links": Array<{
        "instance_id": string;
        "lang": string;
        "field": string;
        "target_instance_id": string;
        "reason": "missing" | "in_trash";
      }>;
      "restorable": boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-publish — scope lifecycle:publish — needs Idempotency-Key */
  bulkPublishEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-publish";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-unpublish — scope lifecycle:publish — needs Idempotency-Key */
  bulkUnpublishEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-unpublish";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-trash — scope content:trash — needs Idempotency-Key */
  bulkTrashEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-trash";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-restore — scope content:trash — needs Idempotency-Key */
  bulkRestoreEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-restore";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-move — scope workflow:move — needs Idempotency-Key */
  bulkMoveEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-move";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
      "to": string;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-assign — scope workflow:assign — needs Idempotency-Key */
  bulkAssignEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-assign";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
      "assignee_ids": Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/entries/bulk-relate — scope content:write — needs Idempotency-Key */
  bulkRelateEntries: {
    method: "POST";
    path: "/api/manage/v1/entries/bulk-relate";
    params: never;
    query: never;
    body: {
      "ids": Array<string>;
      "field": string;
      "add"?: Array<string>;
      "remove"?: Array<string>;
    };
    response: {
      "action": "publish" | "unpublish" | "trash" | "restore" | "move" | "assign" | "relate";
      "results": Array<{
        "id": string;
        "status": number;
        "changed": Array<{
          "instance_id": string;
          "lang": string;
        }>;
        "code"?: string;
        "message"?: string;
        "details"?: {
          [key: string]: unknown;
        };
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/schedules — scope lifecycle:publish — needs Idempotency-Key */
  createSchedule: {
    method: "POST";
    path: "/api/manage/v1/schedules";
    params: never;
    query: never;
    body: {
      "entry_id": string;
      "action": "publish" | "unpublish";
      "at": string;
      "language_only"?: boolean;
      "expected_version_id"?: string;
    };
    response: {
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
  /** GET /api/manage/v1/schedules — scope content:read */
  listSchedules: {
    method: "GET";
    path: "/api/manage/v1/schedules";
    params: never;
    query: {
      "entry_id"?: string;
      "state"?: "scheduled" | "done" | "stale" | "failed" | "cancelled";
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
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
      }>;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** GET /api/manage/v1/schedules/calendar — scope content:read */
  getPublishingCalendar: {
    method: "GET";
    path: "/api/manage/v1/schedules/calendar";
    params: never;
    query: {
      "from": string;
      "to": string;
      "state"?: "scheduled" | "done" | "stale" | "failed" | "cancelled";
    };
    body: never;
    response: {
      "from": string;
      "to": string;
      "days": Array<{
        "date": string;
        "schedules": Array<{
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
        }>;
      }>;
    };
  };
  /** PUT /api/manage/v1/schedules/{id} — scope lifecycle:publish — needs Idempotency-Key */
  updateSchedule: {
    method: "PUT";
    path: "/api/manage/v1/schedules/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "at"?: string;
      "repin"?: boolean;
    };
    response: {
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
  /** POST /api/manage/v1/schedules/{id}/cancel — scope lifecycle:publish — needs Idempotency-Key */
  cancelSchedule: {
    method: "POST";
    path: "/api/manage/v1/schedules/{id}/cancel";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision"?: number;
    };
    response: {
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
  /** POST /api/manage/v1/releases — scope lifecycle:publish — needs Idempotency-Key */
  createRelease: {
    method: "POST";
    path: "/api/manage/v1/releases";
    params: never;
    query: never;
    body: {
      "name": string;
      "description"?: string | null;
      "at"?: string | null;
      "changes": Array<{
        "entry_id": string;
        "action": "publish" | "unpublish";
        "version_id"?: string;
      }>;
    };
    response: {
      "id": string;
      "name": string;
      "description": string | null;
      "changes": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "lang": string;
        "action": "publish" | "unpublish";
        "version_id": string;
      }>;
      "at": string | null;
      "state": "open" | "published" | "stale" | "failed";
      "outcome_code": string | null;
      "outcome_message": string | null;
      "problems": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "published_at": string | null;
      "replayed"?: boolean;
      "policy_results"?: Array<{
        "installation_id": string;
        "plugin_name": string;
        "policy_id": string;
        "policy_label": string;
        "locale": string;
        "message": string | null;
        "fields": Array<string>;
        "outcome": "transformed" | "unavailable";
        "failure"?: string;
      }>;
    };
  };
  /** GET /api/manage/v1/releases — scope content:read */
  listReleases: {
    method: "GET";
    path: "/api/manage/v1/releases";
    params: never;
    query: {
      "state"?: "open" | "published" | "stale" | "failed";
      "cursor"?: string;
      "limit"?: string;
    };
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "name": string;
        "description": string | null;
        "changes": Array<{
          "instance_id": string;
          "translation_group_id": string;
          "model_id": string;
          "lang": string;
          "action": "publish" | "unpublish";
          "version_id": string;
        }>;
        "at": string | null;
        "state": "open" | "published" | "stale" | "failed";
        "outcome_code": string | null;
        "outcome_message": string | null;
        "problems": Array<{
          "index": number;
          "instance_id": string;
          "lang": string;
          "action": string;
          "code": string;
          "message": string;
          "details"?: {
            [key: string]: unknown;
          };
        }>;
        "revision": number;
        "created_by": string;
        "created_at": string;
        "updated_at": string;
        "published_at": string | null;
        "replayed"?: boolean;
        "policy_results"?: Array<{
          "installation_id": string;
          "plugin_name": string;
          "policy_id": string;
          "policy_label": string;
          "locale": string;
          "message": string | null;
          "fields": Array<string>;
          "outcome": "transformed" | "unavailable";
          "failure"?: string;
        }>;
      }>;
      "page": {
        "limit": number;
        "has_more": boolean;
        "next_cursor": string | null;
      };
    };
  };
  /** GET /api/manage/v1/releases/{id} — scope content:read */
  getRelease: {
    method: "GET";
    path: "/api/manage/v1/releases/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "name": string;
      "description": string | null;
      "changes": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "lang": string;
        "action": "publish" | "unpublish";
        "version_id": string;
      }>;
      "at": string | null;
      "state": "open" | "published" | "stale" | "failed";
      "outcome_code": string | null;
      "outcome_message": string | null;
      "problems": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "published_at": string | null;
      "replayed"?: boolean;
      "policy_results"?: Array<{
        "installation_id": string;
        "plugin_name": string;
        "policy_id": string;
        "policy_label": string;
        "locale": string;
        "message": string | null;
        "fields": Array<string>;
        "outcome": "transformed" | "unavailable";
        "failure"?: string;
      }>;
    };
  };
  /** PUT /api/manage/v1/releases/{id} — scope lifecycle:publish — needs Idempotency-Key */
  updateRelease: {
    method: "PUT";
    path: "/api/manage/v1/releases/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision": number;
      "name"?: string;
      "description"?: string | null;
      "at"?: string | null;
      "changes"?: Array<{
        "entry_id": string;
        "action": "publish" | "unpublish";
        "version_id"?: string;
      }>;
      "repin"?: boolean;
    };
    response: {
      "id": string;
      "name": string;
      "description": string | null;
      "changes": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "lang": string;
        "action": "publish" | "unpublish";
        "version_id": string;
      }>;
      "at": string | null;
      "state": "open" | "published" | "stale" | "failed";
      "outcome_code": string | null;
      "outcome_message": string | null;
      "problems": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "published_at": string | null;
      "replayed"?: boolean;
      "policy_results"?: Array<{
        "installation_id": string;
        "plugin_name": string;
        "policy_id": string;
        "policy_label": string;
        "locale": string;
        "message": string | null;
        "fields": Array<string>;
        "outcome": "transformed" | "unavailable";
        "failure"?: string;
      }>;
    };
  };
  /** POST /api/manage/v1/releases/{id}/publish — scope lifecycle:publish — needs Idempotency-Key */
  publishRelease: {
    method: "POST";
    path: "/api/manage/v1/releases/{id}/publish";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "expected_revision"?: number;
    };
    response: {
      "id": string;
      "name": string;
      "description": string | null;
      "changes": Array<{
        "instance_id": string;
        "translation_group_id": string;
        "model_id": string;
        "lang": string;
        "action": "publish" | "unpublish";
        "version_id": string;
      }>;
      "at": string | null;
      "state": "open" | "published" | "stale" | "failed";
      "outcome_code": string | null;
      "outcome_message": string | null;
      "problems": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "published_at": string | null;
      "replayed"?: boolean;
      "policy_results"?: Array<{
        "installation_id": string;
        "plugin_name": string;
        "policy_id": string;
        "policy_label": string;
        "locale": string;
        "message": string | null;
        "fields": Array<string>;
        "outcome": "transformed" | "unavailable";
        "failure"?: string;
      }>;
    };
  };
  /** POST /api/manage/v1/releases/{id}/preview — scope content:read */
  previewRelease: {
    method: "POST";
    path: "/api/manage/v1/releases/{id}/preview";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "minutes"?: number;
    };
    response: {
      "release_id": string;
      "valid": boolean;
      "problems": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "code": string;
        "message": string;
        "details"?: {
          [key: string]: unknown;
        };
      }>;
      "items": Array<{
        "index": number;
        "instance_id": string;
        "lang": string;
        "action": string;
        "model": string;
        "url": string | null;
        "item": unknown;
      }>;
      "preview": string;
      "expires_at": string;
    };
  };
  /** DELETE /api/manage/v1/releases/{id} — scope lifecycle:publish — needs Idempotency-Key */
  deleteRelease: {
    method: "DELETE";
    path: "/api/manage/v1/releases/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/entries/{id}/recovery-draft — scope content:read */
  getRecoveryDraft: {
    method: "GET";
    path: "/api/manage/v1/entries/{id}/recovery-draft";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "instance_id": string;
      "lang": string;
      "values": {
        [key: string]: unknown;
      };
      "slug": string | null;
      "base_version_id": string | null;
      "reason": "lock_lost" | "version_conflict" | "unsaved";
      "saved_at": string;
      "expires_at": string;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/entries/{id}/recovery-draft — scope content:write — needs Idempotency-Key */
  keepRecoveryDraft: {
    method: "PUT";
    path: "/api/manage/v1/entries/{id}/recovery-draft";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "values": {
        [key: string]: unknown;
      };
      "slug"?: string | null;
      "base_version_id"?: string | null;
      "reason": "lock_lost" | "version_conflict" | "unsaved";
    };
    response: {
      "instance_id": string;
      "lang": string;
      "values": {
        [key: string]: unknown;
      };
      "slug": string | null;
      "base_version_id": string | null;
      "reason": "lock_lost" | "version_conflict" | "unsaved";
      "saved_at": string;
      "expires_at": string;
      "replayed"?: boolean;
    };
  };
  /** DELETE /api/manage/v1/entries/{id}/recovery-draft — scope content:write — needs Idempotency-Key */
  deleteRecoveryDraft: {
    method: "DELETE";
    path: "/api/manage/v1/entries/{id}/recovery-draft";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "instance_id": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** GET /api/manage/v1/redirects — scope content:read */
  listRedirects: {
    method: "GET";
    path: "/api/manage/v1/redirects";
    params: never;
    query: never;
    body: never;
    response: {
      "data": Array<{
        "id": string;
        "source": string;
        "target": string | null;
        "status": number;
        "note": string | null;
        "revision": number;
        "created_by": string;
        "created_at": string;
        "updated_at": string;
        "replayed"?: boolean;
      }>;
      "limits": {
        "redirects": number;
        "patterns": number;
      };
    };
  };
  /** POST /api/manage/v1/redirects — scope settings:write — needs Idempotency-Key */
  createRedirect: {
    method: "POST";
    path: "/api/manage/v1/redirects";
    params: never;
    query: never;
    body: {
      "source": string;
      "target"?: string | null;
      "status": 301 | 302 | 307 | 308 | 410 | 451;
      "note"?: string | null;
    };
    response: {
      "id": string;
      "source": string;
      "target": string | null;
      "status": number;
      "note": string | null;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** PUT /api/manage/v1/redirects/{id} — scope settings:write — needs Idempotency-Key */
  updateRedirect: {
    method: "PUT";
    path: "/api/manage/v1/redirects/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: {
      "source"?: string;
      "target"?: string | null;
      "status"?: 301 | 302 | 307 | 308 | 410 | 451;
      "note"?: string | null;
      "expected_revision"?: number;
    };
    response: {
      "id": string;
      "source": string;
      "target": string | null;
      "status": number;
      "note": string | null;
      "revision": number;
      "created_by": string;
      "created_at": string;
      "updated_at": string;
      "replayed"?: boolean;
    };
  };
  /** DELETE /api/manage/v1/redirects/{id} — scope settings:write — needs Idempotency-Key */
  deleteRedirect: {
    method: "DELETE";
    path: "/api/manage/v1/redirects/{id}";
    params: {
      "id": string;
    };
    query: never;
    body: never;
    response: {
      "id": string;
      "source": string;
      "deleted": true;
      "replayed"?: boolean;
    };
  };
  /** POST /api/manage/v1/redirects/review — scope content:read */
  reviewRedirects: {
    method: "POST";
    path: "/api/manage/v1/redirects/review";
    params: never;
    query: never;
    body: {
      "rules": Array<{
        "source": string;
        "target"?: string | null;
        "status": 301 | 302 | 307 | 308 | 410 | 451;
        "note"?: string | null;
      }>;
      "replace"?: boolean;
      "paths"?: Array<string>;
    };
    response: {
      "valid": boolean;
      "problems": Array<{
        "code": string;
        "message": string;
        "rule": {
          "id": string;
          "source": string;
        };
        "other"?: {
          "id": string;
          "source": string;
        };
        "chain"?: Array<string>;
        "item"?: {
          [key: string]: unknown;
        };
      }>;
      "resolutions": Array<{
        "path": string;
        "rule_id"?: string;
        "status": number | null;
        "location": string | null;
        "hops": Array<{
          "rule_id": string;
          "source": string;
          "status": number;
          "location": string | null;
        }>;
        "chain": boolean;
        "cycle": boolean;
      }>;
    };
  };
}

export type ManageOperationsId = keyof ManageOperations;
export type Body<K extends ManageOperationsId> = ManageOperations[K]["body"];

/** Method and path of every operation, for clients that call by operationId (the admin UI). */
export const ManageOperationsRoutes: { readonly [K in ManageOperationsId]: { readonly method: ManageOperations[K]["method"]; readonly path: ManageOperations[K]["path"] } } = {
  getSite: { method: "GET", path: "/api/manage/v1/site" },
  listEntries: { method: "GET", path: "/api/manage/v1/entries" },
  createEntry: { method: "POST", path: "/api/manage/v1/entries" },
  getEntry: { method: "GET", path: "/api/manage/v1/entries/{id}" },
  saveEntry: { method: "PUT", path: "/api/manage/v1/entries/{id}" },
  addEntryLanguage: { method: "POST", path: "/api/manage/v1/entries/{id}/languages" },
  listEntryVersions: { method: "GET", path: "/api/manage/v1/entries/{id}/versions" },
  restoreEntryVersion: { method: "POST", path: "/api/manage/v1/entries/{id}/versions/{version_id}/restore" },
  publishEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/publish" },
  unpublishEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/unpublish" },
  moveEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/move" },
  trashEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/trash" },
  restoreEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/restore" },
  purgeEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/purge" },
  listEntryDependents: { method: "GET", path: "/api/manage/v1/entries/{id}/dependents" },
  listEntryRelatedFrom: { method: "GET", path: "/api/manage/v1/entries/{id}/related-from" },
  startEditing: { method: "POST", path: "/api/manage/v1/entries/{id}/editing" },
  renewEditing: { method: "PUT", path: "/api/manage/v1/entries/{id}/editing" },
  stopEditing: { method: "DELETE", path: "/api/manage/v1/entries/{id}/editing" },
  takeOverEditing: { method: "POST", path: "/api/manage/v1/entries/{id}/editing/take-over" },
  createModelProposal: { method: "POST", path: "/api/manage/v1/models/proposals" },
  listModelProposals: { method: "GET", path: "/api/manage/v1/models/proposals" },
  getModelProposal: { method: "GET", path: "/api/manage/v1/models/proposals/{id}" },
  listModels: { method: "GET", path: "/api/manage/v1/models" },
  createModel: { method: "POST", path: "/api/manage/v1/models" },
  getModel: { method: "GET", path: "/api/manage/v1/models/{id}" },
  updateModel: { method: "PUT", path: "/api/manage/v1/models/{id}" },
  replaceModelDefinition: { method: "PUT", path: "/api/manage/v1/models/{id}/definition" },
  planModelDefinition: { method: "POST", path: "/api/manage/v1/models/{id}/definition/plan" },
  setModelFolder: { method: "PUT", path: "/api/manage/v1/models/{id}/folder" },
  removeModel: { method: "POST", path: "/api/manage/v1/models/{id}/remove" },
  createEntryProposal: { method: "POST", path: "/api/manage/v1/entries/{id}/proposals" },
  listProposals: { method: "GET", path: "/api/manage/v1/proposals" },
  getProposal: { method: "GET", path: "/api/manage/v1/proposals/{id}" },
  assignEntry: { method: "PUT", path: "/api/manage/v1/entries/{id}/assignment" },
  listEntryAssignees: { method: "GET", path: "/api/manage/v1/entries/{id}/assignees" },
  previewEntry: { method: "POST", path: "/api/manage/v1/entries/{id}/preview" },
  listRoles: { method: "GET", path: "/api/manage/v1/roles" },
  createRole: { method: "POST", path: "/api/manage/v1/roles" },
  updateRole: { method: "PUT", path: "/api/manage/v1/roles/{id}" },
  removeRole: { method: "POST", path: "/api/manage/v1/roles/{id}/remove" },
  getSettings: { method: "GET", path: "/api/manage/v1/settings" },
  updateSettings: { method: "PUT", path: "/api/manage/v1/settings" },
  listRichBlocks: { method: "GET", path: "/api/manage/v1/rich-blocks" },
  listPlugins: { method: "GET", path: "/api/manage/v1/plugins" },
  listPluginManageViews: { method: "GET", path: "/api/manage/v1/plugins/manage-views" },
  listPluginContentActions: { method: "GET", path: "/api/manage/v1/plugins/content-actions" },
  launchPluginManageView: { method: "POST", path: "/api/manage/v1/plugins/{id}/manage-views/{view}/launch" },
  launchPluginContentAction: { method: "POST", path: "/api/manage/v1/plugins/{id}/content-actions/{action}/entries/{instance_id}/launch" },
  listPluginOperations: { method: "GET", path: "/api/manage/v1/plugins/operations" },
  invokePluginOperation: { method: "POST", path: "/api/manage/v1/plugins/{id}/operations/{operation}/invoke" },
  listMediaSources: { method: "GET", path: "/api/manage/v1/media/sources" },
  listMediaSourceItems: { method: "GET", path: "/api/manage/v1/media/sources/{installationId}/{sourceId}/items" },
  importMediaSourceItem: { method: "POST", path: "/api/manage/v1/media/sources/{installationId}/{sourceId}/import" },
  uploadMedia: { method: "POST", path: "/api/manage/v1/media" },
  getMedia: { method: "GET", path: "/api/manage/v1/media/{id}" },
  listMedia: { method: "GET", path: "/api/manage/v1/media" },
  updateMedia: { method: "PUT", path: "/api/manage/v1/media/{id}" },
  listMediaFolders: { method: "GET", path: "/api/manage/v1/media/folders" },
  createMediaFolder: { method: "POST", path: "/api/manage/v1/media/folders" },
  updateMediaFolder: { method: "PUT", path: "/api/manage/v1/media/folders/{id}" },
  removeMediaFolder: { method: "POST", path: "/api/manage/v1/media/folders/{id}/remove" },
  moveMedia: { method: "POST", path: "/api/manage/v1/media/move" },
  replaceMedia: { method: "POST", path: "/api/manage/v1/media/{id}/replace" },
  listMediaOriginals: { method: "GET", path: "/api/manage/v1/media/{id}/originals" },
  setMediaOriginal: { method: "PUT", path: "/api/manage/v1/media/{id}/originals/{lang}" },
  removeMediaOriginal: { method: "DELETE", path: "/api/manage/v1/media/{id}/originals/{lang}" },
  getMediaUsage: { method: "GET", path: "/api/manage/v1/media/{id}/usage" },
  removeMedia: { method: "POST", path: "/api/manage/v1/media/{id}/remove" },
  getGeneratedBackend: { method: "GET", path: "/api/manage/v1/generated-backend" },
  getGenerationReadiness: { method: "GET", path: "/api/manage/v1/generation-readiness" },
  getGenerationReadinessContent: { method: "GET", path: "/api/manage/v1/generation-readiness/content" },
  createBackendReadToken: { method: "POST", path: "/api/manage/v1/backend-read-tokens" },
  listBackendReadTokens: { method: "GET", path: "/api/manage/v1/backend-read-tokens" },
  revokeBackendReadToken: { method: "DELETE", path: "/api/manage/v1/backend-read-tokens/{id}" },
  createImportSource: { method: "POST", path: "/api/manage/v1/imports/sources" },
  createImport: { method: "POST", path: "/api/manage/v1/imports" },
  uploadImportPart: { method: "PUT", path: "/api/manage/v1/imports/{id}/parts/{part}" },
  completeImportUpload: { method: "POST", path: "/api/manage/v1/imports/{id}/complete" },
  getImportJob: { method: "GET", path: "/api/manage/v1/imports/{id}" },
  advanceImport: { method: "POST", path: "/api/manage/v1/imports/{id}/advance" },
  pauseImport: { method: "POST", path: "/api/manage/v1/imports/{id}/pause" },
  resumeImport: { method: "POST", path: "/api/manage/v1/imports/{id}/resume" },
  cancelImport: { method: "POST", path: "/api/manage/v1/imports/{id}/cancel" },
  advanceImportUndo: { method: "POST", path: "/api/manage/v1/imports/{id}/undo" },
  retryImportUndo: { method: "POST", path: "/api/manage/v1/imports/{id}/undo/retry" },
  getImportFindings: { method: "GET", path: "/api/manage/v1/imports/{id}/findings" },
  getWordPressReview: { method: "GET", path: "/api/manage/v1/imports/{id}/wordpress/review" },
  decideWordPressReview: { method: "POST", path: "/api/manage/v1/imports/{id}/wordpress/review" },
  uploadImportMedia: { method: "PUT", path: "/api/manage/v1/imports/{id}/media" },
  getImportMapping: { method: "GET", path: "/api/manage/v1/imports/{id}/mapping" },
  putImportMapping: { method: "PUT", path: "/api/manage/v1/imports/{id}/mapping" },
  getImportPrincipals: { method: "GET", path: "/api/manage/v1/imports/{id}/principals" },
  getHistoryAssignments: { method: "GET", path: "/api/manage/v1/imports/{id}/history-assignments" },
  putHistoryAssignments: { method: "PUT", path: "/api/manage/v1/imports/{id}/history-assignments" },
  readImportArtifact: { method: "GET", path: "/api/manage/v1/imports/{id}/artifacts/{name}" },
  createExport: { method: "POST", path: "/api/manage/v1/exports" },
  advanceExport: { method: "POST", path: "/api/manage/v1/exports/{id}/advance" },
  getExportJob: { method: "GET", path: "/api/manage/v1/exports/{id}" },
  readExportChunk: { method: "GET", path: "/api/manage/v1/exports/{id}/file" },
  getCorsSettings: { method: "GET", path: "/api/manage/v1/settings/cors" },
  putCorsSettings: { method: "PUT", path: "/api/manage/v1/settings/cors" },
  listSavedQueries: { method: "GET", path: "/api/manage/v1/saved-queries" },
  createSavedQuery: { method: "POST", path: "/api/manage/v1/saved-queries" },
  updateSavedQuery: { method: "PUT", path: "/api/manage/v1/saved-queries/{id}" },
  deleteSavedQuery: { method: "DELETE", path: "/api/manage/v1/saved-queries/{id}" },
  listMenus: { method: "GET", path: "/api/manage/v1/menus" },
  getMenu: { method: "GET", path: "/api/manage/v1/menus/{name}" },
  putMenu: { method: "PUT", path: "/api/manage/v1/menus/{name}" },
  deleteMenu: { method: "DELETE", path: "/api/manage/v1/menus/{name}" },
  listPages: { method: "GET", path: "/api/manage/v1/pages" },
  getPage: { method: "GET", path: "/api/manage/v1/pages/{id}" },
  savePage: { method: "POST", path: "/api/manage/v1/pages" },
  listComments: { method: "GET", path: "/api/manage/v1/comments" },
  moderateComment: { method: "POST", path: "/api/manage/v1/comments/{id}/moderate" },
  deleteComment: { method: "DELETE", path: "/api/manage/v1/comments/{id}" },
  getCommentSettings: { method: "GET", path: "/api/manage/v1/settings/comments" },
  putCommentSettings: { method: "PUT", path: "/api/manage/v1/settings/comments" },
  getSiteChrome: { method: "GET", path: "/api/manage/v1/settings/chrome" },
  getSeoSettings: { method: "GET", path: "/api/manage/v1/settings/seo" },
  getRobotsRules: { method: "GET", path: "/api/manage/v1/settings/robots" },
  putSiteChrome: { method: "PUT", path: "/api/manage/v1/settings/chrome" },
  putSeoSettings: { method: "PUT", path: "/api/manage/v1/settings/seo" },
  putRobotsRules: { method: "PUT", path: "/api/manage/v1/settings/robots" },
  getAccessRules: { method: "GET", path: "/api/manage/v1/settings/access-rules" },
  putAccessRules: { method: "PUT", path: "/api/manage/v1/settings/access-rules" },
  checkEntryRestore: { method: "GET", path: "/api/manage/v1/entries/{id}/restore-check" },
  bulkPublishEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-publish" },
  bulkUnpublishEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-unpublish" },
  bulkTrashEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-trash" },
  bulkRestoreEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-restore" },
  bulkMoveEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-move" },
  bulkAssignEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-assign" },
  bulkRelateEntries: { method: "POST", path: "/api/manage/v1/entries/bulk-relate" },
  createSchedule: { method: "POST", path: "/api/manage/v1/schedules" },
  listSchedules: { method: "GET", path: "/api/manage/v1/schedules" },
  getPublishingCalendar: { method: "GET", path: "/api/manage/v1/schedules/calendar" },
  updateSchedule: { method: "PUT", path: "/api/manage/v1/schedules/{id}" },
  cancelSchedule: { method: "POST", path: "/api/manage/v1/schedules/{id}/cancel" },
  createRelease: { method: "POST", path: "/api/manage/v1/releases" },
  listReleases: { method: "GET", path: "/api/manage/v1/releases" },
  getRelease: { method: "GET", path: "/api/manage/v1/releases/{id}" },
  updateRelease: { method: "PUT", path: "/api/manage/v1/releases/{id}" },
  publishRelease: { method: "POST", path: "/api/manage/v1/releases/{id}/publish" },
  previewRelease: { method: "POST", path: "/api/manage/v1/releases/{id}/preview" },
  deleteRelease: { method: "DELETE", path: "/api/manage/v1/releases/{id}" },
  getRecoveryDraft: { method: "GET", path: "/api/manage/v1/entries/{id}/recovery-draft" },
  keepRecoveryDraft: { method: "PUT", path: "/api/manage/v1/entries/{id}/recovery-draft" },
  deleteRecoveryDraft: { method: "DELETE", path: "/api/manage/v1/entries/{id}/recovery-draft" },
  listRedirects: { method: "GET", path: "/api/manage/v1/redirects" },
  createRedirect: { method: "POST", path: "/api/manage/v1/redirects" },
  updateRedirect: { method: "PUT", path: "/api/manage/v1/redirects/{id}" },
  deleteRedirect: { method: "DELETE", path: "/api/manage/v1/redirects/{id}" },
  reviewRedirects: { method: "POST", path: "/api/manage/v1/redirects/review" },
};
export type Answer<K extends ManageOperationsId> = ManageOperations[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
