import { AppError } from "../../errors";

/**
 * What a read of a job's file asks for (docs/exports.md, "Reading"): a first byte and at most how
 * many bytes (`offset`/`length`, or `Range: bytes=a-b` / `bytes=a-`), or the last `suffix` bytes
 * (`Range: bytes=-n`, RFC 9110 §14.1.2). Shared by readExportChunk and readImportArtifact.
 */
export type ByteRange = { offset: number; length: number } | { suffix: number };

/** The bytes one read answers: its first byte and how many (0 only for an empty file read from 0). */
export interface ResolvedRange {
  offset: number;
  length: number;
}

/**
 * Resolves `range` against a file of `total` bytes, at most `max` bytes a read. No byte of the file
 * satisfies it — a first byte at or past the end, a suffix of 0, any range of an empty file asked
 * with a Range header — is 416 `range_not_satisfiable` with `total` (the HTTP answer adds
 * `Content-Range: bytes *\/total`), as RFC 9110 §15.5.17 asks. The one exception: the JSON read
 * (MCP) of an empty file from offset 0 answers its zero bytes, so a client reading "until
 * `next_offset` is null" reads an empty receipt or problem file like any other.
 */
export function resolveByteRange(range: ByteRange, total: number, max: number, fromHeader: boolean): ResolvedRange {
  if ("suffix" in range) {
    if (range.suffix <= 0 || total === 0) throw unsatisfiable(total);
    const offset = Math.max(0, total - range.suffix);
    return { offset, length: Math.min(total - offset, max) };
  }
  const { offset, length } = range;
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
    throw new AppError("invalid_request", "offset and length are whole numbers of bytes.", { offset, length });
  }
  if (offset === 0 && total === 0 && !fromHeader) return { offset: 0, length: 0 };
  if (offset >= total) throw unsatisfiable(total, offset);
  return { offset, length: Math.min(length, max, total - offset) };
}

function unsatisfiable(total: number, offset?: number): AppError {
  return new AppError("range_not_satisfiable", "No byte of the file lies in the range asked for.", { ...(offset === undefined ? {} : { offset }), total });
}

/**
 * The `Range` header of a request (RFC 9110 §14.2): null when absent or in another unit than bytes
 * (which the RFC says to ignore: the read is then the JSON one); one `bytes=a-b`, `bytes=a-` or
 * `bytes=-n`. Decision: a bytes range that does not parse, ends before it starts, or names several
 * ranges is 400 `invalid_request` rather than ignored — ignoring it would answer JSON to a client
 * that asked for bytes. An open end reads at most `openLength` bytes.
 */
export function rangeHeader(request: Request, openLength: number): ByteRange | null {
  const header = request.headers.get("range");
  if (header === null) return null;
  const value = header.trim();
  if (!/^bytes\s*=/i.test(value)) return null;
  const m = /^bytes\s*=\s*(\d*)-(\d*)\s*$/i.exec(value);
  if (!m || (m[1] === "" && m[2] === "")) throw new AppError("invalid_request", "Range is one byte range: bytes=<first>-<last>, bytes=<first>- or bytes=-<count>.", { range: header });
  const [, first = "", last = ""] = m;
  // Positions of any length are valid (RFC 9110 §14.1.2): past the largest safe integer they are
  // past any file's end — a last position or a suffix the rest or the whole file, a first one 416.
  const position = (digits: string) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);
  if (first === "") return { suffix: position(last) };
  const start = position(first);
  const end = last === "" ? start + openLength - 1 : position(last);
  if (end < start) throw new AppError("invalid_request", "The range ends before it starts.", { range: header });
  return { offset: start, length: end - start + 1 };
}
