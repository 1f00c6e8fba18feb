import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { RouteSpec } from "../../schema/contract";
import { routeTable } from "../../workers/http/route-table";

const spec = (operationId: string, method: RouteSpec["method"], path: string): RouteSpec => ({ operationId, method, path, summary: operationId, response: v.unknown(), errors: [] });

// Parameter routes listed first on purpose: specificity, not table order, decides.
const routes = [
  spec("getModel", "get", "/models/{id}"),
  spec("putModel", "put", "/models/{id}"),
  spec("listProposals", "get", "/models/proposals"),
  spec("getVersion", "get", "/entries/{id}/versions/{version_id}"),
];
const match = routeTable("/api/x", routes, { headAsGet: true });
const at = (method: string, path: string) => match({ method, url: `http://h.test/api/x${path}` });

describe("routeTable (workers/http/route-table.ts)", () => {
  it("prefers a literal segment over a parameter whatever the table order", async () => {
    expect(await at("GET", "/models/proposals")).toMatchObject({ kind: "matched", route: { operationId: "listProposals" } });
    expect(await at("GET", "/models/mdl_1")).toMatchObject({ kind: "matched", route: { operationId: "getModel" }, params: { id: "mdl_1" } });
  });

  it("decodes parameters, and reports a malformed one instead of throwing", async () => {
    expect(await at("GET", "/entries/ent%5F1/versions/caf%C3%A9")).toMatchObject({ kind: "matched", params: { id: "ent_1", version_id: "café" } });
    for (const bad of ["%ZZ", "%", "%E0%A4%A", "%C0%AF", "%FF"]) {
      expect(await at("GET", `/entries/${bad}/versions/v1`), bad).toMatchObject({ kind: "malformed", route: { operationId: "getVersion" } });
    }
  });

  it("tells a known path with another method from an unknown path", async () => {
    expect(await at("DELETE", "/models/mdl_1")).toEqual({ kind: "method_not_allowed", allow: ["GET", "HEAD", "PUT"] });
    expect(await at("GET", "/nothing")).toEqual({ kind: "none" });
    expect(await at("GET", "/models")).toEqual({ kind: "none" });
  });

  it("matches paths exactly: no trailing slash, no empty segment, nothing outside the base", async () => {
    expect(await at("GET", "/models/mdl_1/")).toEqual({ kind: "none" });
    expect(await at("GET", "/entries//versions/v1")).toEqual({ kind: "none" });
    expect(await match({ method: "GET", url: "http://h.test/models/mdl_1" })).toEqual({ kind: "none" });
  });

  it("answers HEAD like GET only when asked", async () => {
    expect(await at("HEAD", "/models/mdl_1")).toMatchObject({ kind: "matched", route: { operationId: "getModel" } });
    const strict = routeTable("/api/x", routes);
    expect(await strict({ method: "HEAD", url: "http://h.test/api/x/models/mdl_1" })).toEqual({ kind: "method_not_allowed", allow: ["GET", "PUT"] });
  });
});
