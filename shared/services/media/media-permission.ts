import { hasSystemPermission } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import type { MediaKind } from "./formats";

/** The system permissions media writes need (spec 2, Scopes: media:write). */
export type MediaPermission = "media:upload" | "media:update" | "media:delete";

/**
 * A media write's permission — `media:upload` to upload, `media:update` to edit, replace and manage
 * folders — asked before anything about an item is told, by the router before bytes are stored and
 * again inside the write. `doing` names the write in the refusal ("Replacing media").
 */
export function requireMediaPermission(ctx: Pick<LifecycleContext, "actor">, permission: MediaPermission, doing: string): void {
  if (!hasSystemPermission(ctx.actor.permissions, permission)) {
    throw new AppError("missing_permission", `${doing} needs ${permission}.`, { permission });
  }
}

/**
 * A file the router checked and stored in R2 before the write (upload and replace): which item,
 * which immutable object, and what its bytes are. Plain data, so it crosses Durable Object RPC.
 */
export interface StoredFile extends FileFacts {
  media_id: string;
  object_key: string;
  kind: MediaKind;
}

/** What the bytes of one stored file are: the facts an item, an original and a stored file all carry. */
export interface FileFacts {
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

/** A file's object and its facts: what an item's row, a language's original and a stored file share. */
export type ObjectFacts = FileFacts & { object_key: string };

/** The object and facts alone, picked from a row or an input that carries more. */
export function objectFacts(file: ObjectFacts): ObjectFacts {
  return {
    object_key: file.object_key,
    file_name: file.file_name,
    mime_type: file.mime_type,
    byte_length: file.byte_length,
    sha256: file.sha256,
    width: file.width,
    height: file.height,
  };
}
