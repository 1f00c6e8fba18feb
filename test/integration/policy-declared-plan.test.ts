import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../shared/db/client";
import { declaredPolicyQuery } from "../../shared/services/plugins/policies";

/**
 * Every write asks whether its site declares a content policy, in its first batch
 * (docs/write-fairness.md, "CPU per write"). The answer must come from the partial index of the
 * policy-declaring installations (migration 0065), never from a walk of every active installation
 * with its manifest parsed — 50 rows a write on the bench site before. Which installations are
 * asked is tested through the API in plugin-policies.test.ts.
 */
describe("the declared-policy query", () => {
  it("reads the partial index of policy-declaring installations, not the site's plugins", async () => {
    const query = declaredPolicyQuery(createDb(env.DB), "site_x");
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.parameters)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toContain("idx_plugin_installations_policies (site_id=?)");
    expect(details).not.toMatch(/SCAN plugin_installations|sqlite_autoindex_plugin_installations/);
  });
});
