import type { Env, EventMessage } from "../shared/env";
import { route } from "./router";
export { SiteObject } from "../objects/site/site-object";

export default {
  fetch: route,
  async queue(batch: MessageBatch<EventMessage>): Promise<void> {
    // Outbound delivery arrives with the plugin and webhook issue; until then events stay in the outbox.
    batch.ackAll();
  },
} satisfies ExportedHandler<Env, EventMessage>;
