import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

/**
 * Spec 1, public `limit`: "page size, capped by the server; asking for more returns the cap"
 * (issue 22 item 13). Any well-formed positive whole number over the cap — 7 digits, 40 digits —
 * is the cap, on every public list (items, search, related-from); malformed values stay 400.
 */

type Paged = { page: { limit: number } };

const HUGE = ["1000000", "9999999", "12345678901234567890", "9".repeat(40), "1" + "0".repeat(400)];
const MALFORMED = ["0", "00", "01", "-5", "+5", "1.5", "1e3", "abc", " 5", "５"];

describe("public limit above the cap", () => {
  it("returns the cap for any well-formed positive number, and 400 for malformed ones", async () => {
    const s = await seedSite({ settings: { search: { enabled: true } } });
    const models = await blogModels(s.ctx());
    const settings = JSON.stringify({ search: { enabled: true, models: [models.article.id] } });
    await env.DB.prepare("UPDATE sites SET settings = ? WHERE id = ?").bind(settings, s.site.id).run();
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Tides" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const lists = [
      { path: "/v1/article?", cap: 100 },
      { path: "/v1/article/tides/related-from?", cap: 100 },
      { path: "/v1/_search?q=tides&", cap: 50 },
    ];
    for (const { path, cap } of lists) {
      for (const limit of HUGE) {
        const res = await publicGet<Paged>(s.host, `${path}limit=${limit}`);
        expect(res.status, `${path}limit=${limit.slice(0, 12)}… ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.page.limit).toBe(cap);
      }
      for (const limit of MALFORMED) {
        const res = await publicGet<{ error: { code: string } }>(s.host, `${path}limit=${encodeURIComponent(limit)}`);
        expect(res.status, `${path}limit=${limit}`).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
      }
    }
  });
});
