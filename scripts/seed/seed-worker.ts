/**
 * The worker `npm run seed` bundles and runs on Miniflare against the same persisted D1 database
 * (and R2 bucket) as `wrangler dev`. One request seeds; the answer is the seed's JSON result.
 */
import { AppError } from "../../shared/errors";
import { seedDemo, type SeedEnv } from "./demo";

export default {
  async fetch(_request: Request, env: SeedEnv): Promise<Response> {
    try {
      return Response.json(await seedDemo(env));
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const details = error instanceof AppError ? { code: error.code, details: error.details ?? null } : {};
      const stack = error instanceof Error ? (error.stack ?? null) : null;
      return Response.json({ error: message, ...details, stack }, { status: 500 });
    }
  },
} satisfies ExportedHandler<SeedEnv>;
