import type * as v from "valibot";
import type { ErrorCode } from "../shared/errors";

/** Any valibot schema the contract can hold. */
export type AnySchema = v.GenericSchema;

/**
 * One operation of an API surface, declared once. The router validates with these schemas; the
 * OpenAPI files, types, CLI commands and MCP tools are generated from the same table.
 */
export interface RouteSpec {
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Path relative to the surface's base, with `{name}` parameters. */
  path: string;
  summary: string;
  /** Management scope (or plugin capability) the operation needs. */
  scope?: string;
  /** Writes that need an Idempotency-Key header. */
  idempotent?: boolean;
  /** A POST that writes nothing lasting: the router asks no Idempotency-Key for it. */
  noKey?: true;
  /** A POST that only reads (its question needs a body, e.g. the redirect review): MCP `readOnlyHint` like a GET. */
  readOnly?: true;
  /**
   * The write removes, withdraws or overwrites what it cannot give back by itself (delete, Trash,
   * unpublish, replacing a definition or settings, taking over a lease): MCP `destructiveHint`.
   * Writes without it only add (a new entry, a new draft version kept beside the old ones).
   */
  destructive?: true;
  /**
   * Sending the same request again (same arguments, new key) has no further effect: MCP
   * `idempotentHint`. PUT and DELETE are so by their method; a POST says it here.
   */
  repeatable?: true;
  params?: AnySchema;
  query?: AnySchema;
  /**
   * The request body. For a JSON route, the whole body; for a multipart route, its text fields
   * (each a string), while `multipart` names the file part.
   */
  body?: AnySchema;
  /**
   * A multipart/form-data route (an upload): the router reads it with its own cap instead of the
   * JSON reader, parses the text fields with `body`, and hands the one file part on by itself.
   */
  multipart?: MultipartSpec;
  /**
   * A route whose body is the raw bytes of one file (the admin streamed upload), streamed rather than
   * parsed: the text says what the body is; `query` carries the other fields.
   */
  binaryBody?: string;
  /** A JSON body larger than the surface's usual cap (an import part in base64), in bytes. */
  maxBodyBytes?: number;
  /** Success status and body. */
  status?: number;
  /**
   * Other success statuses the operation answers with the same body (e.g. an upload's 200 when an
   * existing item is reused instead of 201), each with what it means.
   */
  otherStatuses?: readonly { status: number; description: string }[];
  response: AnySchema;
  /** Media type of the success body (default `application/json`). */
  responseType?: string;
  /** Refusals the operation may answer with (status comes from ERROR_STATUS). */
  errors: readonly ErrorCode[];
}

/** The file part of a multipart/form-data route and the caps of its reading. */
export interface MultipartSpec {
  /** Name of the one (required) file part. */
  file: string;
  /** Largest file, in bytes. */
  maxFileBytes: number;
  /** Largest whole body (file, text fields and part headers), in bytes. */
  maxBodyBytes: number;
}

export interface Surface {
  title: string;
  version: string;
  description: string;
  /** Base path every route path is relative to (e.g. /api/manage/v1). */
  basePath: string;
  /** How callers authenticate, as an OpenAPI security scheme. */
  security?: { name: string; scheme: Record<string, unknown> };
  /** Refusals of the surface's shared body reader, answered by every operation that is not a GET (e.g. 413 payload_too_large). */
  bodyErrors?: readonly ErrorCode[];
  /** Refusals every operation of the surface may answer once its caller is known (e.g. 403 site_suspended, docs/operations-api.md). */
  callerErrors?: readonly ErrorCode[];
  /** The body of every refusal (default: the ErrorBody envelope of the public and management APIs). */
  errorBody?: AnySchema;
  routes: readonly RouteSpec[];
}
