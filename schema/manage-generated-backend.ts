/**
 * The generated standalone backend in the management API (docs/generated-backend.md): the archive,
 * and the readiness lists of what refuses it (spec 3, "Generation and deployment refusals").
 */
import * as v from "valibot";
import type { RouteSpec } from "./contract";

const ProblemCode = v.pipe(v.string(), v.description("A spec 3 generation refusal code (docs/generated-backend.md, \"Refusals\")"));

/** One reason generation is refused. */
export const GenerationProblem = v.pipe(
  v.strictObject({
    code: ProblemCode,
    model: v.pipe(v.string(), v.description("The model's slug")),
    field: v.optional(v.pipe(v.string(), v.description("The field key; a nested one as `seo.title`"))),
    item: v.optional(v.pipe(v.string(), v.description("The published item (translation group id), for content-level problems"))),
    query: v.optional(v.pipe(v.string(), v.description("The saved query's name, for saved_query_private_field"))),
    detail: v.string(),
  }),
  v.title("GenerationProblem"),
);

export const ReadinessAnswer = v.pipe(v.strictObject({ problems: v.array(GenerationProblem) }), v.title("GenerationReadiness"));

export const ContentReadinessQuery = v.strictObject({
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512), v.description("The page's `next_cursor` from the previous answer"))),
});

export const ContentReadinessAnswer = v.pipe(
  v.strictObject({
    problems: v.array(GenerationProblem),
    page: v.strictObject({
      items: v.pipe(v.number(), v.description("Published items (translation groups) this page walked, at most 200")),
      next_cursor: v.pipe(v.nullable(v.string()), v.description("Null on the last page")),
    }),
  }),
  v.title("GenerationContentReadiness"),
);

const TokenId = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

const tokenEntries = {
  id: v.string(),
  name: v.string(),
  models: v.pipe(v.array(v.string()), v.description('Model ids the token reads, or ["*"]: every model, the routes reading none and openapi.json')),
  created_by: v.nullable(v.string()),
  created_at: v.string(),
  revoked_at: v.nullable(v.string()),
};

export const BackendReadToken = v.pipe(v.strictObject(tokenEntries), v.title("BackendReadToken"));

export const CreateBackendReadTokenBody = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  models: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(64))), v.minLength(1), v.maxLength(100), v.description('Model ids, or ["*"] for every model')),
});

const errors = ["unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "rate_limited"] as const;

export const generatedBackendRoutes: readonly RouteSpec[] = [
  {
    operationId: "getGeneratedBackend",
    method: "get",
    path: "/generated-backend",
    summary: "The site's standalone backend as a .tar.gz (deterministic: same site state, same bytes); needs the creator's site:infra",
    scope: "settings:write",
    response: v.pipe(v.string(), v.description("The gzip-compressed tar archive of the emitted project")),
    responseType: "application/gzip",
    errors: [...errors, "generation_refused"],
  },
  {
    operationId: "getGenerationReadiness",
    method: "get",
    path: "/generation-readiness",
    summary: "Every model-level problem that refuses generation, and saved queries naming private fields (an empty list: it will succeed as far as models go); needs the creator's site:infra",
    scope: "settings:write",
    response: ReadinessAnswer,
    errors: [...errors],
  },
  {
    operationId: "getGenerationReadinessContent",
    method: "get",
    path: "/generation-readiness/content",
    summary: "Content-level problems that refuse generation, walking published items in pages of at most 200; needs the creator's site:infra",
    scope: "settings:write",
    query: ContentReadinessQuery,
    response: ContentReadinessAnswer,
    errors: [...errors, "invalid_request"],
  },
  {
    operationId: "createBackendReadToken",
    method: "post",
    path: "/backend-read-tokens",
    summary: "Issue a read token for the generated backend: the secret is in this answer only (a replay answers token null); regenerate the backend to include it",
    scope: "settings:write",
    idempotent: true,
    body: CreateBackendReadTokenBody,
    status: 201,
    response: v.object({ ...tokenEntries, token: v.pipe(v.nullable(v.string()), v.description("The secret, shown once; null on an Idempotency-Key replay")), replayed: v.optional(v.boolean()) }),
    errors: [...errors, "invalid_request", "unknown_model", "idempotency_in_progress", "idempotency_key_reused"],
  },
  {
    operationId: "listBackendReadTokens",
    method: "get",
    path: "/backend-read-tokens",
    summary: "The generated backend's read tokens, newest first, revoked ones included; never their secrets",
    scope: "settings:write",
    response: v.strictObject({ data: v.array(BackendReadToken) }),
    errors: [...errors],
  },
  {
    operationId: "revokeBackendReadToken",
    method: "delete",
    destructive: true,
    path: "/backend-read-tokens/{id}",
    summary: "Revoke a read token of the generated backend (it leaves access/read-tokens.json at the next generation)",
    scope: "settings:write",
    idempotent: true,
    params: v.strictObject({ id: TokenId }),
    response: v.object({ ...tokenEntries, replayed: v.optional(v.boolean()) }),
    errors: [...errors, "not_found", "idempotency_in_progress", "idempotency_key_reused"],
  },
];
