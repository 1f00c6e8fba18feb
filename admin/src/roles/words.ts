import type { LanguageAction, ModelOperation, SystemPermission } from "../../../schema/permissions";

/** Permissions in words (docs/permissions.md); the name in code follows in the matrix's hints. */
export const OPERATION_WORDS: Record<ModelOperation, string> = {
  read: "Read",
  create: "Create",
  update: "Update",
  "update:own": "Update own",
  delete: "Delete",
  publish: "Publish",
  unpublish: "Unpublish",
  restore: "Restore",
};

export const SYSTEM_WORDS: Record<SystemPermission, string> = {
  "site:settings": "Change site settings",
  "site:infra": "Change hosts and infrastructure",
  "site:plugins": "Install and manage plugins",
  "model:apply": "Change models",
  "model:delete": "Delete models",
  "media:upload": "Upload media",
  "media:update": "Change media",
  "media:delete": "Delete media",
  "role:manage": "Manage roles and people",
  "data:import": "Import content",
  "data:export": "Export content",
  "content:restore": "Restore from Trash",
};

export const LANGUAGE_ACTION_WORDS: Record<LanguageAction, string> = {
  read: "Read",
  create: "Create",
  update: "Update",
  delete: "Delete",
  restore: "Restore",
  review: "Review",
  publish: "Publish",
  unpublish: "Unpublish",
};
