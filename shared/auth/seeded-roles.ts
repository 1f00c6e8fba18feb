import type { PermissionSet } from "../../schema/permissions";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "./permissions";

/** A role every site starts with. */
export interface SeededRole {
  slug: "admin" | "editor" | "author" | "viewer";
  name: string;
  description: string;
  permissions: PermissionSet;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The roles every site starts with (frozen; copy before changing). Operations are granted on
 * `"*"`, so they cover models created later.
 */
export const SEEDED_ROLES: readonly SeededRole[] = deepFreeze([
  {
    slug: "admin",
    name: "Admin",
    description: "Everything: all content operations on every model and every site permission.",
    permissions: { models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] },
  },
  {
    slug: "editor",
    name: "Editor",
    description: "Writes, publishes and restores all content; manages media; exports data.",
    permissions: {
      models: { "*": ["read", "create", "update", "delete", "publish", "unpublish", "restore"] },
      system: ["media:upload", "media:update", "media:delete", "content:restore", "data:export"],
    },
  },
  {
    slug: "author",
    name: "Author",
    description: "Reads all content, creates entries and updates the entries they own; uploads media.",
    permissions: { models: { "*": ["read", "create", "update:own"] }, system: ["media:upload"] },
  },
  {
    slug: "viewer",
    name: "Viewer",
    description: "Reads all content.",
    permissions: { models: { "*": ["read"] }, system: [] },
  },
]);
