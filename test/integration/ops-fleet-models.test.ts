import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall } from "../helpers/admin-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { adminSession } from "../helpers/people-api";
import { ops, opsKey } from "../helpers/ops-api";

/** POST /api/ops/model-proposals and GET /api/ops/model-proposals (docs/fleet-models.md). */

type Result = { site_id: string; slug: string; proposal_id?: string; mode?: "create" | "update"; changes?: { kind: string }[]; error?: { code: string } };
type Report = { data: { site_id: string; slug: string; open: number; applied: number; dismissed: number; stale: number }[] };
type Proposal = { id: string; mode: string; state: string; stale: boolean; source: { kind: string; id: string; label: string }; definition: { fields: { id?: string; key: string }[] } };

let models = 0;
const definition = (slug: string, extra: Record<string, unknown>[] = []) => ({
  model: { name: `Product ${slug}`, slug, enableI18n: false },
  fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }, { key: "price", label: "Price", type: "decimal" }, ...extra],
});

describe("model proposals across a fleet", () => {
  it("proposes one definition to three sites (update where the slug exists, create elsewhere); each site applies as today; the report counts states", async () => {
    const slug = `product${Date.now().toString(36)}${models++}`;
    const [a, b, c] = [await seedSite({ languages: ["en"] }), await seedSite({ languages: ["en"] }), await seedSite({ languages: ["en"] })];
    const existing = await addModel(a.ctx(), { slug, name: `Product ${slug}`, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    const key = opsKey();
    const body = { sites: [a.site.id, b.site.slug, c.site.id], definition: definition(slug), note: "prices everywhere" };
    const proposed = await ops<{ data: Result[] }>("POST", "/model-proposals", { body, key });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    expect(proposed.body.data.map((r) => [r.site_id, r.mode])).toEqual([
      [a.site.id, "update"],
      [b.site.id, "create"],
      [c.site.id, "create"],
    ]);
    for (const r of proposed.body.data) {
      expect(r.proposal_id).toMatch(/^mpr_/);
      expect(Array.isArray(r.changes)).toBe(true);
    }

    // On A it is an ordinary proposal over its model, the existing field matched by key, from the operators.
    const tokenA = await credential(a);
    const onA = await manage<Proposal>(tokenA, "GET", `/models/proposals/${proposed.body.data[0]?.proposal_id}`);
    expect(onA.status).toBe(200);
    expect(onA.body).toMatchObject({ mode: "update", state: "open", stale: false, source: { kind: "management", id: "operators", label: "Operators" } });
    expect(onA.body.definition.fields.find((f) => f.key === "title")?.id).toBe(existing.fields[0]?.id);

    // The same key replays the answer: no second proposal anywhere.
    const replay = await ops<{ data: Result[]; replayed?: true }>("POST", "/model-proposals", { body, key });
    expect(replay.status).toBe(201);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.data.map((r) => r.proposal_id)).toEqual(proposed.body.data.map((r) => r.proposal_id));
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM model_proposals WHERE site_id IN (?, ?, ?)").bind(a.site.id, b.site.id, c.site.id).first<{ n: number }>();
    expect(count?.n).toBe(3);

    // B's administrator applies it; C's dismisses it; A's model changes meanwhile, so A's goes stale.
    const sessionB = await adminSession(b);
    const applied = await adminCall<{ model: { slug: string } }>(sessionB, "POST", `/api/models/proposals/${proposed.body.data[1]?.proposal_id}/apply`, { siteId: b.site.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.model.slug).toBe(slug);
    const sessionC = await adminSession(c);
    expect((await adminCall(sessionC, "POST", `/api/models/proposals/${proposed.body.data[2]?.proposal_id}/dismiss`, { siteId: c.site.id })).status).toBe(200);
    const model = (await manage<{ id: string; updated_at: string; definition: { fields: Record<string, unknown>[] } }>(tokenA, "GET", `/models/${existing.id}`)).body;
    const direct = await manage<Proposal>(tokenA, "POST", "/models/proposals", {
      body: { mode: "update", model_id: model.id, base_updated_at: model.updated_at, definition: { model: { name: `Product ${slug}`, slug }, fields: [...model.definition.fields, { key: "sku", label: "SKU", type: "text" }] } },
    });
    expect(direct.status, JSON.stringify(direct.body)).toBe(201);
    const sessionA = await adminSession(a);
    expect((await adminCall(sessionA, "POST", `/api/models/proposals/${direct.body.id}/apply`, { siteId: a.site.id })).status).toBe(200);

    const report = await ops<Report>("GET", `/model-proposals?model=${slug}`);
    expect(report.status).toBe(200);
    const of = (id: string) => report.body.data.find((r) => r.site_id === id);
    expect(of(a.site.id)).toMatchObject({ open: 1, applied: 0, dismissed: 0, stale: 1 });
    expect(of(b.site.id)).toMatchObject({ open: 0, applied: 1, dismissed: 0, stale: 0 });
    expect(of(c.site.id)).toMatchObject({ open: 0, applied: 0, dismissed: 1, stale: 0 });
    // Proposals made by people are not the operators' and are not counted.
    expect(of(a.site.id)?.applied).toBe(0);
  });

  it("a suspended site answers its refusal while the others get their proposal; field ids and unknown sites are refused", async () => {
    const slug = `gadget${Date.now().toString(36)}${models++}`;
    const [ok, paused] = [await seedSite({ languages: ["en"] }), await seedSite({ languages: ["en"] })];
    expect((await ops("POST", `/sites/${paused.site.id}/suspend`, { body: {} })).status).toBe(200);
    const res = await ops<{ data: Result[] }>("POST", "/model-proposals", { body: { sites: [ok.site.id, paused.site.id], definition: definition(slug) } });
    expect(res.status).toBe(201);
    expect(res.body.data[0]).toMatchObject({ site_id: ok.site.id, mode: "create" });
    expect(res.body.data[1]).toEqual({ site_id: paused.site.id, slug: paused.site.slug, error: { code: "site_suspended", message: expect.any(String) } });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM model_proposals WHERE site_id = ?").bind(paused.site.id).first()).toEqual({ n: 0 });

    const withIds = definition(slug);
    (withIds.fields[0] as Record<string, unknown>).id = "fld_x";
    expect((await ops("POST", "/model-proposals", { body: { sites: [ok.site.id], definition: withIds } })).status).toBe(400);
    expect((await ops("POST", "/model-proposals", { body: { sites: ["site_nope0000"], definition: definition(slug) } })).status).toBe(404);
    expect((await ops("POST", "/model-proposals", { body: { sites: [], definition: definition(slug) } })).status).toBe(400);
  });
});
