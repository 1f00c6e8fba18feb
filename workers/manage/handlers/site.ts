import { ALL_SCOPES } from "../../../schema/scopes";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** GET /site: the credential's site and the scopes there are. */
export async function getSite(call: ManageCall): Promise<Response> {
  const { site, credential } = call;
  return json({
    id: site.id,
    slug: site.slug,
    name: site.name,
    default_lang: site.default_lang,
    languages: site.languages,
    scopes_available: ALL_SCOPES,
    credential: { id: credential.id, name: credential.name, scopes: credential.scopes, model_ids: credential.model_ids },
  });
}
