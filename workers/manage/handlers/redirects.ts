import { loadRules, reviewRedirects as review, type RedirectInput, type ReviewInput } from "../../../shared/services/redirects/redirects";
import { MAX_PATTERNS, MAX_REDIRECTS } from "../../../shared/services/redirects/rules";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandHandler } from "../respond";

/** GET /redirects. */
export async function listRedirects(call: ManageCall): Promise<Response> {
  return json({ data: await loadRules(call.ctx), limits: { redirects: MAX_REDIRECTS, patterns: MAX_PATTERNS } });
}

/** POST /redirects/review: read in the worker, writes nothing (docs/redirects.md). */
export async function reviewRedirects(call: ManageCall): Promise<Response> {
  return json(await review(call.ctx, call.body as ReviewInput));
}

export const createRedirect = commandHandler("createRedirect", (call) => call.body as RedirectInput);
export const updateRedirect = commandHandler("updateRedirect", (call) => ({ ...(call.body as Partial<RedirectInput> & { expected_revision?: number }), id: call.params.id ?? "" }));
export const deleteRedirect = commandHandler("deleteRedirect", (call) => ({ id: call.params.id ?? "" }));
