import { etagMatches, ifRangeAllows } from "../../shared/services/media/delivery";

/** What a byte read tells about the whole file it reads (an export's, an import artefact's). */
export interface ServedFile {
  total: number;
  sha256: string;
  contentType: string;
}

/** The range a read answers, and its bytes (none for a HEAD, which reads nothing). */
export interface ServedPart {
  offset: number;
  length: number;
  bytes: Uint8Array;
}

/** A strong entity tag (RFC 9110 §8.8.3): the file's SHA-256 names exactly its bytes. */
export const strongEtag = (sha256: string): string => `"${sha256}"`;

/**
 * The answer to a `Range` read of a file whose SHA-256 is known (docs/exports.md, "Reading"), in
 * RFC 9110 §13.2.2's order: an `If-None-Match` naming the file's tag is 304; an `If-Range` that is
 * not the file's strong tag (another tag, a weak one, a date — no Last-Modified is sent, so a date
 * never matches) is the whole file, 200, as §13.1.5 asks; otherwise the range, 206 with
 * `Content-Range`. Every answer carries `ETag`, `Accept-Ranges` and the SHA-256; a HEAD gets the
 * same headers and reads no byte (`part(false)`, no stream opened).
 */
export async function byteReadAnswer(
  request: Request,
  file: ServedFile,
  read: { part: (withBytes: boolean) => Promise<ServedPart>; whole: () => Promise<ReadableStream<Uint8Array>> },
): Promise<Response> {
  const etag = strongEtag(file.sha256);
  const head = request.method === "HEAD";
  const headers = new Headers({ etag, "x-content-sha256": file.sha256, "accept-ranges": "bytes", "cache-control": "private, no-store" });
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", file.contentType);
  if (!ifRangeAllows(request.headers.get("if-range"), etag)) {
    headers.set("content-length", String(file.total));
    if (head || file.total === 0) return new Response(null, { status: 200, headers });
    // A stream of known length: the file's pages are never held whole.
    const fixed = new FixedLengthStream(file.total);
    void (await read.whole()).pipeTo(fixed.writable).catch(() => undefined);
    return new Response(fixed.readable, { status: 200, headers });
  }
  const part = await read.part(!head);
  headers.set("content-length", String(part.length));
  headers.set("content-range", `bytes ${part.offset}-${part.offset + part.length - 1}/${file.total}`);
  return new Response(head ? null : part.bytes, { status: 206, headers });
}
