import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { JsonValue } from "./common";
import { wellFormed } from "./text";
import { WholeNumberPath } from "./whole-number-path";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const JobPath = v.strictObject({ id: Id });
const Sha256 = v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/), v.description("SHA-256 of the whole file, 64 hex digits"));
const Cursor = v.strictObject({ cursor: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,12}$/))) });

/** The largest part of an import file (spec 2, Limits: CLI upload-import parts). */
export const IMPORT_PART_BYTES = 5 * 1024 * 1024;
/** A part's JSON body: the part in base64 (4/3 of its bytes) and the envelope. */
export const IMPORT_PART_BODY_BYTES = Math.ceil(IMPORT_PART_BYTES / 3) * 4 + 1024;

const ImportState = v.picklist(["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused", "done", "cancelled", "failed", "undoing", "undone"]);

/** An import job as every import operation answers it (docs/imports.md). */
export const ImportJob = v.pipe(
  v.object({
    id: v.string(),
    source_id: v.string(),
    kind: v.picklist(["wordpress", "driftwood"]),
    state: ImportState,
    paused_from: v.nullable(ImportState),
    position: v.pipe(v.number(), v.description("Counts the job's moves; a step's Idempotency-Key claim records it (spec 2, rule 5)")),
    file: v.object({ name: v.string(), bytes: v.nullable(v.number()), sha256: v.nullable(v.string()) }),
    progress: v.object({ items_total: v.number(), items_done: v.number(), findings: v.number(), parsed_bytes: v.number() }),
    next: v.pipe(v.array(v.string()), v.description("What may be done next: upload, complete_upload, advance, decide, pause, resume, cancel, undo")),
    failure: v.nullable(v.object({ code: v.string(), message: v.string() })),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  v.title("ImportJob"),
);

const JobAnswer = v.object({ import: ImportJob, replayed: v.optional(v.boolean()) });

const Mapping = v.strictObject({
  post: v.nullable(Id),
  page: v.nullable(Id),
  category: v.nullable(Id),
  tag: v.nullable(Id),
});

export const CreateImportSourceBody = v.strictObject({
  kind: v.picklist(["wordpress", "driftwood"]),
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200), wellFormed()),
});
export const CreateImportBody = v.strictObject({
  source_id: Id,
  file_name: v.pipe(v.string(), v.minLength(1), v.maxLength(255), wellFormed()),
});
export const UploadImportPartBody = v.strictObject({
  content_base64: v.pipe(v.string(), v.minLength(4), v.maxLength(IMPORT_PART_BODY_BYTES), v.description("The part's bytes in base64: 5 MiB for every part but the last")),
});
export const CompleteImportUploadBody = v.strictObject({ sha256: Sha256 });
export const DecideWordPressReviewBody = v.strictObject({
  mapping: v.optional(Mapping),
  renames: v.optional(v.pipe(v.record(v.pipe(v.string(), v.regex(/^[0-9]{1,12}$/)), v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.description("Item seq → the slug it takes instead of a taken one"))),
  approve: v.optional(v.boolean()),
});
export const UploadImportMediaBody = v.strictObject({
  attachment_url: v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.description("The attachment's URL as the file names it (wp:attachment_url)")),
  content_base64: v.pipe(v.string(), v.minLength(4), v.maxLength(IMPORT_PART_BODY_BYTES), v.description("The file's bytes in base64, at most 5 MiB")),
});
export const PutImportMappingBody = v.strictObject({
  mapping: v.optional(Mapping),
  fetch_attachments: v.optional(v.pipe(v.boolean(), v.description("Fetch attachment URLs not sent with uploadImportMedia (through the outbound address policy); default false"))),
  models: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), v.picklist(["existing", "refuse"])),
      v.description("A Driftwood import: per model of the file the site already has (by slug), write its entries into the site's model (existing; only a compatible one) or leave the model and its entries out (refuse)"),
    ),
  ),
});
const AuthorLogin = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
/**
 * Login → person id or null. Not a valibot `record`: it skips `constructor`, `prototype` and
 * `__proto__` without a word, and those are WordPress logins like any other (probe finding: an
 * author named `constructor` could not be assigned). Checked entry by entry, kept as sent.
 */
const AuthorAssignments = v.pipe(
  v.custom<Record<string, string | null>>(
    (input) => typeof input === "object" && input !== null && !Array.isArray(input) && Object.entries(input).every(([login, person]) => v.is(AuthorLogin, login) && (person === null || v.is(Id, person))),
    "expected an object of WordPress author login (1 to 200 characters) → person id or null",
  ),
  // The JSON Schema of the contract and MCP tools stops at the pipe's custom schema, so it is stated here.
  v.metadata({ type: "object", propertyNames: { type: "string", minLength: 1, maxLength: 200 }, additionalProperties: { anyOf: [{ type: "string", minLength: 1, maxLength: 64 }, { type: "null" }] } }),
);
export const PutHistoryAssignmentsBody = v.strictObject({
  assignments: v.pipe(
    AuthorAssignments,
    v.description("WordPress author login → the person (a member of the site) its items' history is assigned to, or null to keep the author's name only"),
  ),
});
const Empty = v.strictObject({});
const FieldPlan = v.object({
  model_id: v.string(),
  title: v.nullable(v.string()),
  body: v.nullable(v.string()),
  excerpt: v.nullable(v.string()),
  categories: v.nullable(v.string()),
  tags: v.nullable(v.string()),
  parent: v.nullable(v.string()),
  date: v.nullable(v.string()),
  image: v.nullable(v.string()),
});
const MappingAnswer = v.object({
  import: ImportJob,
  mapping: v.object({
    proposed: v.record(v.string(), v.nullable(v.string())),
    chosen: v.nullable(v.record(v.string(), v.nullable(v.string()))),
    fields: v.record(v.string(), FieldPlan),
    problems: JsonValue,
    fetch_attachments: v.boolean(),
    models: v.optional(
      v.pipe(
        v.array(
          v.object({
            model: v.string(),
            existing_model_id: v.string(),
            compatible: v.boolean(),
            kind: v.nullable(v.object({ exported: v.string(), site: v.string() })),
            fields: v.array(v.object({ key: v.string(), difference: v.picklist(["not_on_site", "type", "required_not_exported"]), exported_type: v.nullable(v.string()), site_type: v.nullable(v.string()) })),
            choice: v.nullable(v.picklist(["existing", "refuse"])),
          }),
        ),
        v.description("A Driftwood import: the file's models the site already has (by slug), how each differs, and the choice made"),
      ),
    ),
  }),
  replayed: v.optional(v.boolean()),
});
const Principal = v.object({
  item_seq: v.number(),
  login: v.string(),
  display_name: v.string(),
  email: v.string(),
  items: v.number(),
  person_id: v.nullable(v.string()),
  proposed_person_id: v.nullable(v.string()),
});
const Offset = v.pipe(v.string(), v.regex(/^[0-9]{1,15}$/));
/** How many bytes a JSON read asks for: at least one (a read of none would answer `next_offset` = `offset` forever). */
const Length = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,14}$/), v.description("Bytes to read, 1 or more (at most 1 MiB are answered)"));

const COMMON = ["unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited", "missing_permission", "not_found"] as const;
const WRITE = [...COMMON, "invalid_request", "idempotency_in_progress", "idempotency_key_reused"] as const;
const STEP = [...WRITE, "import_state_conflict"] as const;

const step = (operationId: string, path: string, summary: string, extra: Partial<RouteSpec> = {}): RouteSpec => ({
  operationId,
  method: "post",
  path,
  summary,
  scope: "data:import",
  idempotent: true,
  params: JobPath,
  body: Empty,
  response: JobAnswer,
  errors: [...STEP],
  ...extra,
});

/** Imports as jobs (docs/imports.md; spec 2, data:import and idempotency rules 3 and 5). */
export const importRoutes: readonly RouteSpec[] = [
  {
    operationId: "createImportSource",
    method: "post",
    path: "/imports/sources",
    summary: "Name where content comes from: a WordPress export (WXR) or a Driftwood export",
    scope: "data:import",
    idempotent: true,
    body: CreateImportSourceBody,
    status: 201,
    response: v.object({ source: v.object({ id: v.string(), kind: v.string(), name: v.string(), created_at: v.string() }), replayed: v.optional(v.boolean()) }),
    errors: [...WRITE],
  },
  {
    operationId: "createImport",
    method: "post",
    path: "/imports",
    summary: "Create an import job of a source; it waits for its file (uploadImportPart, completeImportUpload)",
    scope: "data:import",
    idempotent: true,
    body: CreateImportBody,
    status: 201,
    response: JobAnswer,
    errors: [...WRITE],
  },
  {
    operationId: "uploadImportPart",
    method: "put",
    path: "/imports/{id}/parts/{part}",
    summary: "Store one part of the file (base64; 5 MiB for every part but the last; at most 20 parts); sending a part again replaces it",
    scope: "data:import",
    idempotent: true,
    params: v.strictObject({ id: Id, part: WholeNumberPath(4) }),
    body: UploadImportPartBody,
    maxBodyBytes: IMPORT_PART_BODY_BYTES,
    response: v.object({ import_id: v.string(), part: v.number(), byte_length: v.number(), sha256: v.string(), replayed: v.optional(v.boolean()) }),
    errors: [...WRITE, "import_state_conflict", "import_part_invalid", "import_file_too_large"],
  },
  step("completeImportUpload", "/imports/{id}/complete", "Complete the upload: parts 1..n, the whole file's SHA-256 checked (a different one discards the parts)", {
    body: CompleteImportUploadBody,
    errors: [...STEP, "import_upload_incomplete", "import_checksum_mismatch"],
  }),
  {
    operationId: "getImportJob",
    method: "get",
    path: "/imports/{id}",
    summary: "The import job: state, position, file, progress, what may be done next",
    scope: "data:import",
    params: JobPath,
    response: JobAnswer,
    errors: [...COMMON],
  },
  step("advanceImport", "/imports/{id}/advance", "One bounded step: read the next part of the file, or write the next items once the review is approved", {
    errors: [...STEP, "import_review_pending", "import_mapping_invalid", "plugin_policy_unavailable", "plugin_policy_budget_exhausted"],
  }),
  step("pauseImport", "/imports/{id}/pause", "Pause the job (advance is refused until resumed)"),
  step("resumeImport", "/imports/{id}/resume", "Resume a paused job where it was"),
  step("cancelImport", "/imports/{id}/cancel", "Stop the job for good; entries already written stay until undone", { destructive: true }),
  step("advanceImportUndo", "/imports/{id}/undo", "One undo step: remove the next entries the import created (an entry changed since is kept and reported)", { destructive: true }),
  step("retryImportUndo", "/imports/{id}/undo/retry", "Try again the removals an undo could not do, then one undo step", { destructive: true }),
  {
    operationId: "getImportFindings",
    method: "get",
    path: "/imports/{id}/findings",
    summary: "One page of the job's findings (at most 100), oldest first",
    scope: "data:import",
    params: JobPath,
    query: Cursor,
    response: v.object({
      findings: v.array(v.object({ seq: v.number(), item_seq: v.nullable(v.number()), code: v.string(), message: v.string(), details: v.record(v.string(), JsonValue), created_at: v.string() })),
      next_cursor: v.nullable(v.string()),
    }),
    errors: [...COMMON, "invalid_request"],
  },
  {
    operationId: "getWordPressReview",
    method: "get",
    path: "/imports/{id}/wordpress/review",
    summary: "What the import will create, the proposed and chosen mapping, and the address conflicts of one page of items, before anything is written",
    scope: "data:import",
    params: JobPath,
    query: Cursor,
    response: v.object({
      import: ImportJob,
      counts: v.record(v.string(), v.object({ total: v.number(), by_status: v.record(v.string(), v.number()) })),
      mapping: v.object({ proposed: v.record(v.string(), v.nullable(v.string())), chosen: v.nullable(v.record(v.string(), v.nullable(v.string()))), problems: JsonValue }),
      fields: v.record(v.string(), JsonValue),
      conflicts: v.array(v.object({ item_seq: v.number(), kind: v.string(), source_key: v.string(), slug: v.string(), model_id: v.string(), taken_by: JsonValue })),
      decided: v.boolean(),
      choices: v.record(v.string(), v.string()),
      next_cursor: v.nullable(v.string()),
    }),
    errors: [...COMMON, "invalid_request", "import_state_conflict"],
  },
  step("decideWordPressReview", "/imports/{id}/wordpress/review", "Record the review's choices: the mapping, new slugs for taken addresses, approval", {
    body: DecideWordPressReviewBody,
    response: v.object({ import: ImportJob, decisions: v.object({ mapping: Mapping, renames: v.record(v.string(), v.string()), approved: v.boolean() }), replayed: v.optional(v.boolean()) }),
    errors: [...STEP, "import_mapping_invalid"],
  }),
  {
    operationId: "uploadImportMedia",
    method: "put",
    path: "/imports/{id}/media",
    summary: "Send the bytes of one attachment URL of a WordPress file (at most 5 MiB); its write step takes them into the media library; the same URL sent again replaces them",
    scope: "data:import",
    idempotent: true,
    params: JobPath,
    body: UploadImportMediaBody,
    maxBodyBytes: IMPORT_PART_BODY_BYTES,
    response: v.object({ import_id: v.string(), url: v.string(), byte_length: v.number(), sha256: v.string(), replayed: v.optional(v.boolean()) }),
    errors: [...WRITE, "import_state_conflict"],
  },
  {
    operationId: "getImportMapping",
    method: "get",
    path: "/imports/{id}/mapping",
    summary: "The import's mapping: WordPress — proposed and chosen models, where each value goes, whether attachment URLs are fetched; Driftwood — its models the site already has and the choices",
    scope: "data:import",
    params: JobPath,
    response: MappingAnswer,
    errors: [...COMMON, "import_state_conflict"],
  },
  step("putImportMapping", "/imports/{id}/mapping", "Choose the models each kind goes into and whether attachment URLs are fetched; a Driftwood import: existing or refuse per model the site already has (before the writes)", {
    method: "put",
    body: PutImportMappingBody,
    response: MappingAnswer,
    errors: [...STEP, "import_mapping_invalid"],
  }),
  {
    operationId: "getImportPrincipals",
    method: "get",
    path: "/imports/{id}/principals",
    summary: "One page of the file's authors (principals): items each wrote, the person its history is assigned to, a member proposed by e-mail",
    scope: "data:import",
    params: JobPath,
    query: Cursor,
    response: v.object({ principals: v.array(Principal), next_cursor: v.nullable(v.string()) }),
    errors: [...COMMON, "invalid_request", "import_state_conflict"],
  },
  {
    operationId: "getHistoryAssignments",
    method: "get",
    path: "/imports/{id}/history-assignments",
    summary: "One page of history assignments: for each author of the file, the person its items' versions name, or its name kept",
    scope: "data:import",
    params: JobPath,
    query: Cursor,
    response: v.object({
      assignments: v.array(v.object({ login: v.string(), display_name: v.string(), person_id: v.nullable(v.string()), kept_as: v.picklist(["person", "name"]) })),
      next_cursor: v.nullable(v.string()),
    }),
    errors: [...COMMON, "invalid_request", "import_state_conflict"],
  },
  step("putHistoryAssignments", "/imports/{id}/history-assignments", "Assign authors of the file to members of the site (or keep their names) before the writes", {
    method: "put",
    body: PutHistoryAssignmentsBody,
    response: v.object({ import: ImportJob, assignments: v.record(v.string(), v.nullable(v.string())), replayed: v.optional(v.boolean()) }),
    errors: [...STEP, "import_mapping_invalid"],
  }),
  {
    operationId: "readImportArtifact",
    method: "get",
    path: "/imports/{id}/artifacts/{name}",
    summary:
      "One byte range of the receipt or the problem file of a settled job: with a Range header (bytes=a-b), 206 with the bytes and Content-Range; otherwise (MCP) JSON with the range in base64 and the whole file's SHA-256",
    scope: "data:import",
    params: v.strictObject({ id: Id, name: v.picklist(["receipt", "problems"]) }),
    query: v.strictObject({ offset: v.optional(Offset), length: v.optional(Length) }),
    response: v.object({
      content_base64: v.string(),
      name: v.string(),
      content_type: v.string(),
      offset: v.number(),
      length: v.number(),
      total: v.number(),
      next_offset: v.nullable(v.number()),
      sha256: v.string(),
      page: v.pipe(v.null(), v.description("Always null: an artifact has no export pages (spec 2: page and next_page null outside an export page)")),
      next_page: v.null(),
      position: v.number(),
    }),
    otherStatuses: [{ status: 206, description: "With a Range header: the bytes (application/x-ndjson), Content-Range, X-Content-SHA256 of the whole file" }],
    errors: [...COMMON, "invalid_request", "import_state_conflict", "range_not_satisfiable"],
  },
];
