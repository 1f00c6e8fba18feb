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
    summary: "Every model-level problem that refuses generation (an empty list: it will succeed as far as models go); needs the creator's site:infra",
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
];
