import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { AppError } from "../../errors";
import {
  EXECUTABLE_EXTENSIONS,
  EXECUTABLE_FORMATS,
  EXECUTABLE_SIGNATURES,
  EXECUTABLE_TYPES,
  MARKUP_EXTENSIONS,
  isMarkupType,
  kindOfFormat,
  type MediaKind,
} from "./formats";
import { claimedDimensions, MAX_DIMENSION } from "./upload-fields";

/** What the caller says about a file; only the bytes decide its type (spec 2 rule 1). */
export interface UploadClaims {
  fileName: string;
  /** The `type` field, else the file part's Content-Type; null when neither was sent. */
  declaredType: string | null;
  width?: number;
  height?: number;
  /** width / height, used with one of `width` / `height` when the header gives no dimensions. */
  aspectRatio?: number;
}

/** A file the site may hold: its kind, format and MIME type from the bytes, and its dimensions. */
export interface InspectedMedia {
  kind: MediaKind;
  /** file-type's extension name of the detected format, null when the bytes name none. */
  format: string | null;
  mimeType: string;
  width: number | null;
  height: number | null;
}

/** Allowed formats by kind (the site's `media.allowed` setting, shared/content/site-settings.ts). */
export type AllowedFormats = Readonly<Record<MediaKind, readonly string[]>>;

/**
 * Tags that make a file render or run as a page when a browser sniffs it, searched in the whole file
 * (a polyglot hides them after a valid image header or in a tail). XML prologs and XMP packets are
 * not among them: real photographs carry those in their metadata.
 */
const MARKUP_TAG = /^<(?:script|html|body|iframe|svg|object|embed|frameset|meta\s+http-equiv)[\s>/]|^<!doctype\s+html|^<\?xml-stylesheet/i;

/** Longest text a page tag above needs, from its `<` (`<meta` + white space + `http-equiv`, with room). */
const TAG_WINDOW = 48;

/**
 * Whether a page tag starts anywhere in the bytes. Scans for `<` and decodes only a small window
 * after each one, so a 32 MiB file is never copied into one large string.
 */
function containsPageTag(bytes: Uint8Array): boolean {
  const latin1 = new TextDecoder("latin1");
  for (let at = bytes.indexOf(0x3c); at !== -1; at = bytes.indexOf(0x3c, at + 1)) {
    if (MARKUP_TAG.test(latin1.decode(bytes.subarray(at, at + TAG_WINDOW)))) return true;
  }
  return false;
}

/**
 * The same page-tag search over a file that arrives in chunks (the admin streamed upload): each
 * chunk is searched together with the last `TAG_WINDOW - 1` bytes of what came before, so a tag
 * split between two chunks is found exactly as {@link containsPageTag} finds it in a whole buffer.
 * Holds at most one chunk plus that small tail.
 */
export class PageTagScanner {
  #tail = new Uint8Array(0);

  /** Refuses (415 `unsupported_media_type`, reason markup) when a page tag starts in the bytes seen so far. */
  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#tail.byteLength + chunk.byteLength);
    joined.set(this.#tail);
    joined.set(chunk, this.#tail.byteLength);
    if (containsPageTag(joined)) refuseMarkup("bytes");
    this.#tail = joined.slice(Math.max(0, joined.byteLength - (TAG_WINDOW - 1)));
  }
}

/** The final extension of a file name, lower case ("" when none): what a browser or OS goes by. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot <= 0 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/**
 * Every extension an operating system may take the name to have: Windows strips trailing dots and
 * spaces (`x.exe.` and `x.hta. .` run as x.exe / x.hta) and reads `name:stream` as an NTFS stream of
 * `name` (`x.exe::$DATA` is x.exe). So the extension is decided on the whole name and on each
 * `:`-separated part, each with trailing dots and spaces stripped (docs/media.md, "Content checks").
 */
export function extensionsOf(fileName: string): string[] {
  const strip = (name: string) => name.replace(/[. ]+$/, "");
  const names = [fileName, ...fileName.split(":")].map(strip);
  return [...new Set(names.map(extensionOf).filter((ext) => ext !== ""))];
}

function bareType(type: string | null): string {
  return (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function startsWith(bytes: Uint8Array, at: number, signature: readonly number[]): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

/** Offset of the first byte after a UTF-8 byte order mark and ASCII white space. */
function contentStart(bytes: Uint8Array): number {
  let at = startsWith(bytes, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x0c)) at++;
  return at;
}

function refuseExecutable(reason: "bytes" | "extension" | "declared_type"): never {
  throw new AppError("executable_file", "Programs and scripts cannot be uploaded.", { reason });
}

function refuseMarkup(reason: "bytes" | "extension" | "declared_type"): never {
  throw new AppError("unsupported_media_type", "Markup (HTML, SVG, XML) cannot be uploaded.", { reason: "markup", found_by: reason });
}

/**
 * Dimensions from the image's own header; null when the header gives none (truncated, no SOF).
 * A header claiming more than 99999 pixels a side (the request fields' bound) is refused: 415
 * `unsupported_media_type`, reason `dimensions_out_of_range`.
 */
function headerDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes);
  } catch {
    return null;
  }
  if (!(size.width > 0 && size.height > 0)) return null;
  if (size.width > MAX_DIMENSION || size.height > MAX_DIMENSION) {
    throw new AppError("unsupported_media_type", `The image's header claims more than ${MAX_DIMENSION} pixels a side.`, {
      reason: "dimensions_out_of_range",
      width: size.width,
      height: size.height,
      max: MAX_DIMENSION,
    });
  }
  return { width: size.width, height: size.height };
}


/**
 * The content checks of an upload (docs/media.md, "Content checks"), in this order:
 * 1. a program or script by bytes, extension or declared type → 422 `executable_file`;
 * 2. markup by bytes (leading `<`, or a page tag anywhere), extension or declared type → 415
 *    `unsupported_media_type`;
 * 3. the format the bytes say (a contradicting declared type is ignored) must be allowed for its
 *    kind by the site → else 415 `unsupported_media_type` (`reason: format_not_allowed`);
 * 4. an image's dimensions come from its header, else from the request fields, else 415
 *    (`reason: dimensions_unreadable`).
 */
export async function inspectMedia(bytes: Uint8Array, claims: UploadClaims, allowed: AllowedFormats): Promise<InspectedMedia> {
  const extensions = extensionsOf(claims.fileName);
  const declared = bareType(claims.declaredType);
  const start = contentStart(bytes);
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);

  if (EXECUTABLE_SIGNATURES.some((sig) => startsWith(bytes, 0, sig)) || startsWith(bytes, start, [0x23, 0x21])) refuseExecutable("bytes");
  if (detected && EXECUTABLE_FORMATS.has(detected.ext)) refuseExecutable("bytes");
  if (extensions.some((ext) => EXECUTABLE_EXTENSIONS.has(ext))) refuseExecutable("extension");
  if (EXECUTABLE_TYPES.has(declared)) refuseExecutable("declared_type");

  if (bytes[start] === 0x3c || (detected && (detected.ext === "xml" || detected.mime.includes("xml") || detected.mime === "text/html"))) refuseMarkup("bytes");
  if (containsPageTag(bytes)) refuseMarkup("bytes");
  if (extensions.some((ext) => MARKUP_EXTENSIONS.has(ext))) refuseMarkup("extension");
  if (isMarkupType(declared)) refuseMarkup("declared_type");

  const format = detected?.ext ?? null;
  const kind = kindOfFormat(format ?? undefined);
  if (format === null || !allowed[kind].includes(format)) {
    throw new AppError("unsupported_media_type", "This site does not accept files of this format.", { reason: "format_not_allowed", kind, format, allowed: allowed[kind] });
  }
  const mimeType = detected?.mime ?? "application/octet-stream";

  if (kind !== "image") {
    // Only images are measured from their bytes in this slice; a video's size is what the caller says.
    const claimed = claimedDimensions(claims);
    return { kind, format, mimeType, width: claimed?.width ?? null, height: claimed?.height ?? null };
  }
  const dims = headerDimensions(bytes) ?? claimedDimensions(claims);
  if (!dims) throw new AppError("unsupported_media_type", "The image's header gives no dimensions; send width and height.", { reason: "dimensions_unreadable" });
  return { kind, format, mimeType, width: dims.width, height: dims.height };
}
