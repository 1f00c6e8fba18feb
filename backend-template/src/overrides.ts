/**
 * Your operation overrides (docs: README.md, "Operation overrides"): a handler per operation id
 * answers in place of the built-in operation, after its access check. `next()` runs the built-in one.
 *
 *   export const overrides: OperationOverrides = {
 *     "Article.create": async ({ request, next }) => {
 *       const answer = await next(request);
 *       // … tell another service about the new row …
 *       return answer;
 *     },
 *   };
 *
 * An overridden `<Model>.create` cannot be combined with the model's list writes in one batch:
 * `POST /api/<model>/with-relations` then answers 501 atomic_create_unavailable (and leaves
 * openapi.json). A key naming no operation of this backend refuses start.
 */
import type { OperationOverrides } from "./runtime/overrides.js";

export const overrides: OperationOverrides = {};
