import { PageTagScanner } from "../../shared/services/media/inspect";
import { payloadTooLarge } from "./json-body";

/**
 * Size of every R2 part but the last. R2 wants parts of at least 5 MiB and all but the last of one
 * size; 8 MiB keeps a 5 GB file under 600 parts (R2 takes 10,000) while at most two parts (16 MiB)
 * are held in memory at once.
 */
export const STREAMED_PART_BYTES = 8 * 1024 * 1024;

/** What a streamed body turned out to be once stored. */
export interface StreamedFile {
  byteLength: number;
  /** SHA-256 of every byte stored, hex. */
  sha256: string;
}

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A request body read in parts of {@link STREAMED_PART_BYTES} and never held whole (the admin
 * streamed upload, docs/media.md): every byte is counted (past `maxBytes` → 413
 * `payload_too_large` with `max`) and hashed with `crypto.DigestStream` as it is read.
 * {@link head} reads the first part (or the whole body when it is smaller) so the content checks
 * can run before anything is stored; {@link storeTo} then streams it and the rest into an R2
 * multipart upload, searching every later chunk for page tags, and aborts the upload on any
 * refusal or fault. The request body's reader is released, not cancelled, so the router drains a
 * bounded rest before answering (workers/http/drain-body.ts).
 */
export class StreamedBody {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | null;
  readonly #maxBytes: number;
  readonly #digest = new crypto.DigestStream("SHA-256");
  readonly #hash = this.#digest.getWriter();
  readonly #scanner = new PageTagScanner();
  /** Whether later chunks are searched for page tags (after the head was checked whole). */
  #scanning = false;
  /** Bytes of a chunk that did not fit in the last part filled. */
  #pending: Uint8Array | null = null;
  #done = false;
  #count = 0;
  #head: Uint8Array | null = null;

  constructor(body: ReadableStream<Uint8Array> | null, maxBytes: number) {
    this.#reader = body?.getReader() ?? null;
    this.#maxBytes = maxBytes;
  }

  /** The first part of the body (all of it when smaller): what the content checks look at. */
  async head(): Promise<Uint8Array> {
    this.#head ??= await this.#fill();
    return this.#head;
  }

  /**
   * Streams the body into a new R2 multipart upload under `key`: `opened` is told the upload's id
   * before the first part is sent. Answers the stored size and SHA-256 once the upload is complete;
   * a refusal (a page tag, the size limit) or a fault aborts the upload and is thrown.
   */
  async storeTo(bucket: R2Bucket, key: string, contentType: string, opened: (uploadId: string) => Promise<void>): Promise<StreamedFile> {
    let current = await this.head();
    // The head was searched whole by the content checks; its tail joins the first later chunk.
    this.#scanner.push(current.subarray(Math.max(0, current.byteLength - 64)));
    this.#scanning = true;
    const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
    try {
      await opened(upload.uploadId);
      const parts: R2UploadedPart[] = [];
      for (let number = 1; ; number++) {
        const next = await this.#fill();
        parts.push(await upload.uploadPart(number, current));
        if (next.byteLength === 0) break;
        current = next;
      }
      await upload.complete(parts);
    } catch (error) {
      this.release();
      await upload.abort().catch(() => undefined);
      throw error;
    }
    await this.#hash.close();
    return { byteLength: this.#count, sha256: hex(await this.#digest.digest) };
  }

  /** Stops reading (after a refusal), leaving the rest of the body to the router's drain. */
  release(): void {
    if (this.#done) return;
    this.#done = true;
    this.#reader?.releaseLock();
  }

  /** The next part: exactly {@link STREAMED_PART_BYTES} bytes, fewer only at the end (empty past it). */
  async #fill(): Promise<Uint8Array> {
    const part = new Uint8Array(STREAMED_PART_BYTES);
    let filled = 0;
    while (filled < part.byteLength) {
      const chunk = this.#pending ?? (await this.#read());
      this.#pending = null;
      if (chunk === null) return part.subarray(0, filled);
      const room = part.byteLength - filled;
      if (chunk.byteLength > room) this.#pending = chunk.subarray(room);
      part.set(chunk.subarray(0, room), filled);
      filled += Math.min(room, chunk.byteLength);
    }
    return part;
  }

  /** The next chunk of the body, counted, hashed and (after the head) searched; null at its end. */
  async #read(): Promise<Uint8Array | null> {
    if (this.#done || this.#reader === null) return null;
    let chunk: Uint8Array | undefined;
    try {
      const read = await this.#reader.read();
      if (read.done) {
        this.release();
        return null;
      }
      chunk = read.value;
    } catch (error) {
      this.release();
      throw error;
    }
    this.#count += chunk.byteLength;
    if (this.#count > this.#maxBytes) {
      this.release();
      throw payloadTooLarge(this.#maxBytes);
    }
    if (this.#scanning) {
      try {
        this.#scanner.push(chunk);
      } catch (refusal) {
        this.release();
        throw refusal;
      }
    }
    await this.#hash.write(chunk);
    return chunk;
  }
}
