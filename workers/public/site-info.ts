import { BUILT_IN_EMBED_PROVIDERS } from "../../shared/content/rich-text-rules";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import type { PublicAnswer } from "./respond";


/** GET /v1/_embeds: where rich-text embeds may come from on this site: the built-in video providers (their exact forms: docs/rich-text.md) and the site's origins. */
export function embeds(site: Site): PublicAnswer {
  return {
    body: JSON.stringify({ data: { providers: BUILT_IN_EMBED_PROVIDERS, origins: site.settings.embed_origins } }),
    tags: [cacheTag.site(site.id)],
    cacheable: true,
  };
}
