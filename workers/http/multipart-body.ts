import type { MultipartSpec } from "../../schema/contract";
import { AppError } from "../../shared/errors";
import { payloadTooLarge } from "./json-body";
import { MultipartTextCheck, multipartBoundary } from "./multipart-text";

/** The file part of an upload, buffered whole (spec 2, Limits: uploads through the API are buffered). */
export interface UploadedFile {
  /** The part's file name as sent (may be empty). */
  name: string;
  /** The part's Content-Type as sent ("" when none); only a claim, the bytes decide. */
  type: string;
  bytes: Uint8Array;
}

/** A multipart/form-data body: its text fields (each sent once) and its one file. */
export interface MultipartForm {
  fields: Record<string, string>;
  file: UploadedFile;
}

/**
 * The body stream counted while it is read: past `maxBytes` it stops reading and errors. The request
 * body's reader is released, not cancelled, so the router can drain a bounded rest before answering
 * (workers/http/drain-body.ts), as the JSON reader does.
 */
function cappedStream(body: ReadableStream<Uint8Array>, maxBytes: number, state: { over: boolean }, text: MultipartTextCheck): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        reader.releaseLock();
        controller.close();
        return;
      }
      size += value.byteLength;
      if (size > maxBytes) {
        state.over = true;
        reader.releaseLock();
        controller.error(new Error("body over its cap"));
        return;
      }
      text.feed(value);
      controller.enqueue(value);
    },
    cancel() {
      reader.releaseLock();
    },
  });
}

/**
 * Reads a multipart/form-data upload within its caps (the JSON routes keep their own reader,
 * workers/http/json-body.ts): a Content-Length over `maxBodyBytes` is refused before reading, a body
 * that turns out larger stops being read at the chunk that crosses it, and a file over
 * `maxFileBytes` is refused — each 413 `payload_too_large`. Exactly one file part named
 * `spec.file`; every other part is a text field sent once, in UTF-8; else 400 `invalid_request`.
 */
export async function readMultipartForm(request: Request, spec: MultipartSpec): Promise<MultipartForm> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > spec.maxBodyBytes) throw payloadTooLarge(spec.maxFileBytes);
  const contentType = request.headers.get("content-type") ?? "";
  const boundary = multipartBoundary(contentType);
  if (!/^multipart\/form-data\s*;/i.test(contentType) || boundary === null) throw new AppError("invalid_request", "Send the upload as multipart/form-data.");
  if (request.body === null) throw new AppError("invalid_request", `The upload needs a "${spec.file}" part.`, { field: spec.file });

  const state = { over: false };
  const text = new MultipartTextCheck(boundary);
  let form: FormData;
  try {
    form = await new Response(cappedStream(request.body, spec.maxBodyBytes, state, text), { headers: { "content-type": contentType } }).formData();
  } catch {
    if (state.over) throw payloadTooLarge(spec.maxFileBytes);
    throw new AppError("invalid_request", "The multipart/form-data body could not be read.");
  }

  // formData() replaced bytes that are not UTF-8 with U+FFFD; the raw bytes were checked as they passed.
  if (text.invalidField !== null) throw new AppError("invalid_request", "A text field of the upload is not valid UTF-8.", { field: text.invalidField });

  // No prototype: a part named "__proto__" is a field like any other (and refused as unknown).
  const fields = Object.create(null) as Record<string, string>;
  let file: File | undefined;
  for (const [name, value] of form.entries()) {
    if (name === spec.file) {
      if (typeof value === "string") throw new AppError("invalid_request", `"${spec.file}" must be a file part (with a filename).`, { field: spec.file });
      if (file) throw new AppError("invalid_request", `Send one "${spec.file}" part.`, { field: spec.file });
      file = value;
      continue;
    }
    if (typeof value !== "string") throw new AppError("invalid_request", `"${name}" must be a text field.`, { field: name });
    if (name in fields) throw new AppError("invalid_request", `Send "${name}" once.`, { field: name });
    fields[name] = value;
  }
  if (!file) throw new AppError("invalid_request", `The upload needs a "${spec.file}" part.`, { field: spec.file });
  if (file.size > spec.maxFileBytes) throw payloadTooLarge(spec.maxFileBytes);
  return { fields, file: { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) } };
}
