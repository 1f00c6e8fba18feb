import { decodeUtf8 } from "./json-body";

/**
 * Watches the bytes of a multipart/form-data body as they stream past and decodes every text part
 * (a part without a `filename`) fatally as UTF-8 — the runtime's `formData()` replaces bad bytes
 * with U+FFFD, so the text it hands back can no longer tell a sent U+FFFD from invalid bytes. File
 * parts are skipped, never buffered; a text part is kept only up to {@link MAX_TEXT_PART_BYTES}
 * (every text field's schema is far shorter, so a longer one is refused there anyway).
 */

/** Longest text part checked; past it the part is skipped (the route's schema refuses its length). */
const MAX_TEXT_PART_BYTES = 1024 * 1024;
/** Longest part header block read; past it the part is skipped (formData() refuses or reads it). */
const MAX_HEADER_BYTES = 16 * 1024;

const encoder = new TextEncoder();
const HEADER_END = encoder.encode("\r\n\r\n");

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first ?? 0, from); i !== -1 && i <= haystack.length - needle.length; i = haystack.indexOf(first ?? 0, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The boundary of a multipart Content-Type (quoted or not), or null. */
export function multipartBoundary(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

type State = "preamble" | "after_delimiter" | "headers" | "text" | "skip" | "done";

export class MultipartTextCheck {
  readonly #delimiter: Uint8Array;
  #state: State = "preamble";
  // The body is read as if it began with CRLF, so the first boundary line matches the delimiter too.
  #buffer: Uint8Array = encoder.encode("\r\n");
  #part: Uint8Array[] = [];
  #partSize = 0;
  #partName = "";
  /** The name of the first text part whose bytes are not UTF-8, once one is seen. */
  invalidField: string | null = null;

  constructor(boundary: string) {
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
  }

  feed(chunk: Uint8Array): void {
    if (this.#state === "done" || this.invalidField !== null) return;
    this.#buffer = concat(this.#buffer, chunk);
    for (;;) {
      if (!this.#step()) return;
    }
  }

  /** One move of the state machine over the buffer; false when it needs more bytes. */
  #step(): boolean {
    const buffer = this.#buffer;
    switch (this.#state) {
      case "preamble":
      case "skip":
      case "text": {
        const at = indexOf(buffer, this.#delimiter);
        const end = at === -1 ? Math.max(0, buffer.length - (this.#delimiter.length - 1)) : at;
        if (this.#state === "text") this.#keep(buffer.subarray(0, end));
        this.#buffer = buffer.slice(at === -1 ? end : at + this.#delimiter.length);
        if (at === -1) return false;
        if (this.#state === "text") this.#checkPart();
        this.#state = "after_delimiter";
        return true;
      }
      case "after_delimiter": {
        if (buffer.length < 2) return false;
        // "--" closes the body; otherwise the boundary line ends (transport padding is not sent by clients).
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          this.#state = "done";
          return false;
        }
        this.#state = "headers";
        return true;
      }
      case "headers": {
        const at = indexOf(buffer, HEADER_END);
        if (at === -1) {
          if (buffer.length > MAX_HEADER_BYTES) this.#state = "skip";
          return this.#state === "skip";
        }
        const headers = new TextDecoder("latin1").decode(buffer.subarray(0, at));
        this.#buffer = buffer.slice(at + HEADER_END.length);
        const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
        this.#partName = /;\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? "";
        this.#state = /;\s*filename\*?=/i.test(disposition) ? "skip" : "text";
        this.#part = [];
        this.#partSize = 0;
        return true;
      }
      case "done":
        return false;
    }
  }

  #keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#partSize += bytes.length;
    if (this.#partSize > MAX_TEXT_PART_BYTES) {
      this.#state = "skip";
      this.#part = [];
      return;
    }
    this.#part.push(bytes.slice());
  }

  #checkPart(): void {
    const bytes = new Uint8Array(this.#partSize);
    let offset = 0;
    for (const piece of this.#part) {
      bytes.set(piece, offset);
      offset += piece.length;
    }
    this.#part = [];
    try {
      decodeUtf8(bytes);
    } catch {
      this.invalidField ??= this.#partName;
    }
  }
}
