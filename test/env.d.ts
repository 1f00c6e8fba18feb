import type { D1Migration } from "cloudflare:test";
import type { Env as DriftwoodEnv } from "../shared/env";

declare global {
  namespace Cloudflare {
    interface Env extends DriftwoodEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The worker's entry point as the pool resolves it (test/setup/memo-main-import.ts). */
      TEST_WORKER_MAIN: string;
    }
  }
}

