import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../shared/env";

/** One per site: serialises the site's writes and keeps leases, idempotency claims and rate limits. */
export class SiteObject extends DurableObject<Env> {
  async ping(): Promise<string> {
    return "pong";
  }
}
