import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const JobPath = v.strictObject({ id: Id });
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));

/** An export job (docs/exports.md). */
export const ExportJob = v.pipe(
  v.object({
    id: v.string(),
    state: v.picklist(["building", "finished", "cancelled"]),
    position: v.pipe(v.number(), v.description("Counts the export's moves; a step's Idempotency-Key claim records it (spec 2, rule 5)")),
    filter: v.object({ model_ids: v.nullable(v.array(v.string())), languages: v.nullable(v.array(v.string())) }),
    format: v.object({ name: v.string(), version: v.number(), content_type: v.string() }),
    pages: v.number(),
    total_bytes: v.number(),
    sha256: v.pipe(v.nullable(v.string()), v.description("SHA-256 of the whole file, once finished")),
    section: v.picklist(["header", "entries", "media", "end", "seal"]),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  v.title("ExportJob"),
);

const JobAnswer = v.object({ export: ExportJob, replayed: v.optional(v.boolean()) });

/** A filter names each model and language once (as bulk ids do): a repeat is a mistake, not a wider filter. */
const once = (what: string) => v.check((list: string[]) => new Set(list).size === list.length, `Each ${what} may appear once.`);

export const CreateExportBody = v.strictObject({
  model_ids: v.optional(v.nullable(v.pipe(v.array(Id), v.minLength(1), v.maxLength(200), once("model id")))),
  languages: v.optional(v.nullable(v.pipe(v.array(Lang), v.minLength(1), v.maxLength(50), once("language")))),
});

const Offset = v.pipe(v.string(), v.regex(/^[0-9]{1,15}$/));
/** How many bytes a JSON read asks for: at least one (a read of none would answer `next_offset` = `offset` forever). */
const Length = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/), v.description("Bytes to read, 1 or more (at most 1 MiB are answered)"));

const COMMON = ["unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited", "missing_permission", "not_found"] as const;
const WRITE = [...COMMON, "invalid_request", "idempotency_in_progress", "idempotency_key_reused"] as const;

/** Exports as jobs (docs/exports.md; spec 2, data:export). */
export const exportRoutes: readonly RouteSpec[] = [
  {
    operationId: "createExport",
    method: "post",
    path: "/exports",
    summary: "Create an export of the whole site, or of some models and languages the caller reads; it is built by advanceExport",
    scope: "data:export",
    idempotent: true,
    body: CreateExportBody,
    status: 201,
    response: JobAnswer,
    errors: [...WRITE, "export_limited_role", "locale_denied"],
  },
  {
    operationId: "advanceExport",
    method: "post",
    path: "/exports/{id}/advance",
    summary: "Build the next page of the export (header, entries, media, end), then seal it with the whole file's SHA-256",
    scope: "data:export",
    idempotent: true,
    params: JobPath,
    body: v.strictObject({}),
    response: JobAnswer,
    errors: [...WRITE, "export_state_conflict"],
  },
  {
    operationId: "getExportJob",
    method: "get",
    path: "/exports/{id}",
    summary: "The export: state, pages, size, SHA-256 once finished",
    scope: "data:export",
    params: JobPath,
    response: JobAnswer,
    errors: [...COMMON],
  },
  {
    operationId: "readExportChunk",
    method: "get",
    path: "/exports/{id}/file",
    summary:
      "One byte range of a finished export: with a Range header (bytes=a-b), 206 with the bytes and Content-Range; otherwise (MCP) JSON with the range in base64, the whole file's content type and SHA-256, and the page it lies in",
    scope: "data:export",
    params: JobPath,
    query: v.strictObject({
      offset: v.optional(Offset),
      length: v.optional(Length),
      page: v.optional(
        v.pipe(
          v.string(),
          v.regex(/^[1-9][0-9]{0,5}$/),
          v.description("A kept page: the read starts at its first byte (or at an offset inside it) and stops at its last (read-export-chunk --page)"),
        ),
      ),
    }),
    response: v.object({
      content_base64: v.string(),
      content_type: v.string(),
      offset: v.number(),
      length: v.number(),
      total: v.number(),
      next_offset: v.nullable(v.number()),
      sha256: v.string(),
      page: v.nullable(v.number()),
      next_page: v.nullable(v.number()),
      page_sha256: v.optional(v.pipe(v.string(), v.description("With page: the SHA-256 of that kept page alone"))),
    }),
    otherStatuses: [{ status: 206, description: "With a Range header: the bytes (application/x-ndjson), Content-Range, X-Content-SHA256 of the whole file" }],
    errors: [...COMMON, "invalid_request", "export_state_conflict", "range_not_satisfiable"],
  },
];
