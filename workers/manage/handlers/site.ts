import { ALL_SCOPES } from "../../../schema/scopes";
import { callerKey, type Caller } from "../../../shared/auth/caller";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/**
 * What GET /site says of who asks, as `credential`: the credential (never its secret); for a
 * person's session, the session in the same shape — the caller's key `person:<person id>`, the
 * person's name, every scope, every model (docs/admin-ui.md, "One API").
 */
function credentialView(caller: Caller) {
  if (caller.kind === "session") return { id: callerKey(caller), name: caller.person.name, scopes: [...ALL_SCOPES], model_ids: null };
  const { id, name, scopes, model_ids } = caller.credential;
  return { id, name, scopes, model_ids };
}

/** GET /site: the caller's site and the scopes there are. */
export async function getSite(call: ManageCall): Promise<Response> {
  const { site } = call;
  return json({
    id: site.id,
    slug: site.slug,
    name: site.name,
    default_lang: site.default_lang,
    languages: site.languages,
    scopes_available: ALL_SCOPES,
    credential: credentialView(call.caller),
  });
}
