import type { Env } from "../shared/env";
export { SiteObject } from "../objects/site/site-object";

export default {
  async fetch(): Promise<Response> {
    return new Response("ok");
  },
} satisfies ExportedHandler<Env>;
