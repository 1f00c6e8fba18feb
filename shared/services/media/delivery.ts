/**
 * Pure rules of public media delivery (docs/media.md, "Public delivery"): ranges, conditional
 * requests and how a browser may treat the bytes. The worker (workers/public/media-file.ts) applies them.
 */

/** Browsers keep a delivered object this long: an address names immutable bytes. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Defence in depth: even a file a browser renders as a page can run nothing and load nothing. */
export const DELIVERY_CSP = "default-src 'none'; sandbox";

/** A `Range` header read against an object of `size` bytes. */
export type RangeRequest =
  /** No usable range (absent, another unit, bad syntax, several ranges): the whole object, 200. */
  | { kind: "whole" }
  /** One satisfiable range, inclusive bounds: 206. */
  | { kind: "part"; start: number; end: number }
  /** A well-formed range no byte satisfies: 416. */
  | { kind: "unsatisfiable" };

const SINGLE = /^bytes=[ \t]*(\d{0,20})-(\d{0,20})[ \t]*$/i;

/**
 * RFC 9110 §14: `bytes=a-b`, `bytes=a-` and `bytes=-n`. A header that does not parse is ignored (the
 * whole object, as the RFC allows). Decision: several ranges are ignored too (the whole object, 200),
 * never a multipart/byteranges answer — clients fetching media ask for one range at a time.
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (header === null) return { kind: "whole" };
  const match = SINGLE.exec(header.trim());
  if (!match) return { kind: "whole" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: "part", start, end };
}

/** Whether an `If-None-Match` header names this (strong) entity tag; weak comparison, as RFC 9110 asks. */
export function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => bare(tag) === bare(etag));
}

/** Whether `If-Range` lets the range apply: absent, or naming this entity tag exactly (a date is never trusted). */
export function ifRangeAllows(header: string | null, etag: string): boolean {
  return header === null || header.trim() === etag;
}

/**
 * Raster images, audio and video are shown in place; everything else (PDF, archives, any type a
 * browser might render as a page or run) is a download.
 */
export function servedInline(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type.startsWith("image/")) return type !== "image/svg+xml";
  return type.startsWith("audio/") || type.startsWith("video/");
}

/** RFC 8187 value characters: everything else is percent-encoded. */
function rfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `inline` or `attachment`, with the file name as RFC 6266 `filename*=UTF-8''…`. */
export function contentDisposition(contentType: string, fileName: string): string {
  return `${servedInline(contentType) ? "inline" : "attachment"}; filename*=UTF-8''${rfc8187(fileName)}`;
}
