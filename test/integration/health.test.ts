import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { workerFetch } from "../helpers/worker";

describe("site by Host", () => {
  it("answers health for a host that serves a site", async () => {
    const s = await seedSite();
    const response = await workerFetch(`http://${s.host}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, site: s.site.slug });
  });

  it("ignores the port and letter case of the Host", async () => {
    const s = await seedSite();
    const response = await workerFetch(`http://${s.host.toUpperCase()}:8787/health`);
    expect(await response.json()).toEqual({ ok: true, site: s.site.slug });
  });

  it("answers the same 404 for an unknown host on every path", async () => {
    const bodies = new Set<string>();
    for (const path of ["/health", "/v1/article", "/", "/anything/else"]) {
      const response = await workerFetch(`http://nowhere.test${path}`);
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { code: string; request_id?: string } };
      expect(body.error.code).toBe("not_found");
      delete body.error.request_id;
      bodies.add(JSON.stringify(body));
    }
    expect(bodies.size).toBe(1);
  });

  it("never lets a header or parameter choose another site", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const response = await workerFetch(`http://${a.host}/health`, { headers: { "x-site-id": b.site.id, "x-forwarded-host": b.host } });
    expect(await response.json()).toEqual({ ok: true, site: a.site.slug });
    // A parameter naming a site is not accepted at all.
    const param = await workerFetch(`http://${a.host}/health?site=${b.site.slug}`);
    expect(param.status).toBe(400);
  });
});
