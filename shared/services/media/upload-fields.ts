import * as v from "valibot";
import type { UploadMediaFields } from "../../../schema/manage-media";
import { AppError } from "../../errors";
import { parse } from "../validation";
import type { UploadClaims } from "./inspect";
import type { OnDuplicate } from "./upload";

/** Longest alt text in one language. */
export const MAX_ALT_TEXT_LENGTH = 1000;

const AltTexts = v.record(v.string(), v.pipe(v.string(), v.maxLength(MAX_ALT_TEXT_LENGTH)));

/** The upload's text fields, typed: what the caller named and what it claims about the file. */
export interface UploadOptions {
  claims: UploadClaims;
  alt_texts?: Record<string, string>;
  folder_id?: string | null;
  edited_from?: string;
  on_duplicate: OnDuplicate;
}

/**
 * A file name safe to store and put in a URL path segment: the last path segment of what was sent,
 * without control characters, at most 255 characters; "file" when nothing is left.
 */
export function cleanFileName(sent: string): string {
  const last = sent.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255);
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}

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
  return {
    claims,
    ...(alt !== undefined ? { alt_texts: alt } : {}),
    ...(fields.folder_id !== undefined ? { folder_id: fields.folder_id === "" ? null : fields.folder_id } : {}),
    ...(fields.edited_from !== undefined ? { edited_from: fields.edited_from } : {}),
    on_duplicate: fields.on_duplicate ?? "ask",
  };
}
