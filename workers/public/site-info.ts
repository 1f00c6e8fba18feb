import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import type { PublicAnswer } from "./respond";

/** Video providers rich-text embeds always allow, besides the site's own origins. */
export const BUILT_IN_EMBED_PROVIDERS = ["https://www.youtube.com", "https://player.vimeo.com"] as const;

/** GET /v1/_embeds: where rich-text embeds may come from on this site. */
export function embeds(site: Site): PublicAnswer {
  return {
    body: JSON.stringify({ data: { providers: BUILT_IN_EMBED_PROVIDERS, origins: site.settings.embed_origins } }),
    tags: [cacheTag.site(site.id)],
    cacheable: true,
  };
}
