import type { UploadMediaFields } from "../../../schema/manage-media";
import { textsByLanguage } from "../../../schema/text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS, cutText, isWellFormedText } from "../../content/plain-text";
import { AppError } from "../../errors";
import { parse } from "../validation/parse";
import type { InspectedMedia, UploadClaims } from "./inspect";
import type { StoredFile } from "./media-permission";
import type { OnDuplicate, UploadMediaInput } from "./upload";

/** Longest alt text in one language. */
export const MAX_ALT_TEXT_LENGTH = 1000;

const AltTexts = textsByLanguage(MAX_ALT_TEXT_LENGTH, "Alt text by language of the site");

/** The upload's text fields, typed: what the caller named and what it claims about the file. */
export interface UploadOptions {
  claims: UploadClaims;
  alt_texts?: Record<string, string>;
  folder_id?: string | null;
  edited_from?: string;
  on_duplicate: OnDuplicate;
}

/** Longest stored file name, in UTF-16 units (the `name` field's limit). */
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * A file name safe to store and put in a URL path segment: the last path segment of what was sent,
 * without control characters (C0, DEL, C1) and bidirectional controls, at most 255 UTF-16 units cut
 * without splitting a surrogate pair; "file" when nothing is left. A name that is not well-formed
 * Unicode (a lone surrogate) is refused: 400 invalid_request (docs/media.md, "Text in names").
 */
export function cleanFileName(sent: string): string {
  if (!isWellFormedText(sent)) throw new AppError("invalid_request", "The file name is not well-formed Unicode (a lone surrogate).", { field: "name" });
  const last = sent.split(/[/\\]/).pop() ?? "";
  const clean = cutText(last.replace(CONTROL_CHARACTERS, "").replace(BIDI_CONTROLS, "").trim(), MAX_FILE_NAME_LENGTH).trim();
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}

/** Largest width or height, in pixels, sent or read from an image header (the `width` field's limit). */
export const MAX_DIMENSION = 99999;

/** "1.5", "16:9" or "16/9" as width / height. */
function ratio(text: string): number {
  const [w, h] = text.split(/[:/]/).map(Number);
  const value = h === undefined ? (w ?? 0) : (w ?? 0) / h;
  if (!Number.isFinite(value) || value <= 0) throw new AppError("invalid_request", "aspectRatio must be a positive width / height.", { field: "aspectRatio" });
  return value;
}

/**
 * The text fields of POST /media (already closed by the route schema) as options: `alt_texts` is a
 * JSON object of the site's languages; an empty `folder_id` names Unfiled.
 */
export function uploadOptions(fields: UploadMediaFields, file: { name: string; type: string }, languages: readonly string[]): UploadOptions {
  let alt: Record<string, string> | undefined;
  if (fields.alt_texts !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(fields.alt_texts);
    } catch {
      throw new AppError("invalid_request", "alt_texts must be a JSON object of texts by language.", { field: "alt_texts" });
    }
    alt = parse(AltTexts, raw);
    const unknown = Object.keys(alt).filter((lang) => !languages.includes(lang));
    if (unknown.length > 0) throw new AppError("unknown_locale", "alt_texts names languages the site does not have.", { languages: unknown });
  }
  const claims: UploadClaims = {
    fileName: cleanFileName(fields.name ?? file.name),
    declaredType: fields.type ?? (file.type === "" ? null : file.type),
    ...(fields.width !== undefined ? { width: Number(fields.width) } : {}),
    ...(fields.height !== undefined ? { height: Number(fields.height) } : {}),
    ...(fields.aspectRatio !== undefined ? { aspectRatio: ratio(fields.aspectRatio) } : {}),
  };
  // The side computed from the other and the aspect ratio obeys the same 1..99999 as a sent one.
  const derived = claimedDimensions(claims);
  if (derived && (derived.width < 1 || derived.width > MAX_DIMENSION || derived.height < 1 || derived.height > MAX_DIMENSION)) {
    throw new AppError("invalid_request", `aspectRatio gives a ${claims.width === undefined ? "width" : "height"} outside 1 to ${MAX_DIMENSION} pixels.`, {
      field: "aspectRatio",
      width: derived.width,
      height: derived.height,
    });
  }
  return {
    claims,
    ...(alt !== undefined ? { alt_texts: alt } : {}),
    ...(fields.folder_id !== undefined ? { folder_id: fields.folder_id === "" ? null : fields.folder_id } : {}),
    ...(fields.edited_from !== undefined ? { edited_from: fields.edited_from } : {}),
    on_duplicate: fields.on_duplicate ?? "ask",
  };
}

/** Request dimensions: both fields, or one of them and the aspect ratio (the other side rounded). */
export function claimedDimensions(claims: UploadClaims): { width: number; height: number } | null {
  const { width, height, aspectRatio } = claims;
  if (width !== undefined && height !== undefined) return { width, height };
  if (aspectRatio === undefined) return null;
  if (width !== undefined) return { width, height: Math.round(width / aspectRatio) };
  if (height !== undefined) return { width: Math.round(height * aspectRatio), height };
  return null;
}

/**
 * A checked file stored under `objectKey` of item `mediaId`, as the commands that bring a file
 * (upload, replace, an original by language) take it: what the bytes are (`inspected`, and the
 * length and SHA-256 of what was stored) and the file name the caller's fields gave.
 */
export function storedFileOf(
  target: { mediaId: string; objectKey: string },
  stored: { byteLength: number; sha256: string },
  inspected: InspectedMedia,
  fileName: string,
): StoredFile {
  return {
    media_id: target.mediaId,
    object_key: target.objectKey,
    kind: inspected.kind,
    file_name: fileName,
    mime_type: inspected.mimeType,
    byte_length: stored.byteLength,
    sha256: stored.sha256,
    width: inspected.width,
    height: inspected.height,
  };
}

/**
 * The `uploadMedia` command's input: the stored file and what the caller named (`options`). One shape
 * for the management upload and the admin streamed upload.
 */
export function uploadCommandInput(
  target: { mediaId: string; objectKey: string },
  stored: { byteLength: number; sha256: string },
  inspected: InspectedMedia,
  options: UploadOptions,
): UploadMediaInput {
  return {
    ...storedFileOf(target, stored, inspected, options.claims.fileName),
    ...(options.alt_texts !== undefined ? { alt_texts: options.alt_texts } : {}),
    ...(options.folder_id !== undefined ? { folder_id: options.folder_id } : {}),
    ...(options.edited_from !== undefined ? { edited_from: options.edited_from } : {}),
    on_duplicate: options.on_duplicate,
  };
}
