import type { D1Migration } from "cloudflare:test";
import type { Env as DriftwoodEnv } from "../shared/env";

declare global {
  namespace Cloudflare {
    interface Env extends DriftwoodEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

/** Text fixtures imported whole (vite `?raw`), e.g. the WordPress exports of test/fixtures/wordpress. */
declare module "*.xml?raw" {
  const text: string;
  export default text;
}
