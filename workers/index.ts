import { systemClock } from "../shared/clock";
import type { Env, EventMessage } from "../shared/env";
import { consumeEvents } from "../shared/events/deliver";
import { route } from "./router";
export { SiteObject } from "../objects/site/site-object";

export default {
  fetch: route,
  /** Outbound events: each message names one outbox event, delivered to its site's subscribers (docs/events.md). */
  async queue(batch: MessageBatch<EventMessage>, env: Env): Promise<void> {
    await consumeEvents(env, systemClock, batch);
  },
} satisfies ExportedHandler<Env, EventMessage>;
