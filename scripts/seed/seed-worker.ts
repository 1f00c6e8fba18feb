/**
 * The worker `npm run seed` bundles and runs on Miniflare against the same persisted D1 database
 * (and R2 bucket) as `wrangler dev`. One request seeds; the answer is the seed's JSON result.
 * The request body carries the demo credentials the caller kept from an earlier run (shown-once
 * secrets); live ones are reused, missing or revoked ones minted again.
 */
import { AppError } from "../../shared/errors";
import { ensureDemoCredentials, type DemoCredentials } from "./credentials";
import { seedDemo, type SeedEnv } from "./demo";
import { ensureDemoEditor } from "./editor";
import { ensureDemoOperator } from "./operator";
import { ensureDemoSearch } from "./search";

export default {
  async fetch(request: Request, env: SeedEnv): Promise<Response> {
    try {
      const known = (await request.json().catch(() => ({}))) as Partial<DemoCredentials>;
      const result = await seedDemo(env);
      const demo = result.sites.find((s) => s.slug === "demo");
      if (!demo) throw new Error("demo site missing after seeding");
      await ensureDemoSearch(env.DB, demo.id);
      const credentials = await ensureDemoCredentials(env.DB, demo.id, result.admin_id, known);
      const editor = await ensureDemoEditor(env.DB, demo.id, new Date().toISOString());
      const superadmin = await ensureDemoOperator(env.DB, new Date().toISOString());
      return Response.json({ ...result, editor, superadmin, credentials });
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const details = error instanceof AppError ? { code: error.code, details: error.details ?? null } : {};
      const stack = error instanceof Error ? (error.stack ?? null) : null;
      return Response.json({ error: message, ...details, stack }, { status: 500 });
    }
  },
} satisfies ExportedHandler<SeedEnv>;
