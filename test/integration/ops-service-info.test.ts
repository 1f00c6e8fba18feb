import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { ADMIN } from "../helpers/admin-api";
import { ops, OPS_TOKEN } from "../helpers/ops-api";
import { workerFetch } from "../helpers/worker";

/** GET /api/ops: the deployment's product and version (docs/operations-api.md). */
describe("GET /api/ops", () => {
  it("answers package.json's version to the operators' token only", async () => {
    const info = await ops("GET", "");
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ name: "driftwood", version: packageJson.version });
    expect(packageJson.version).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
    expect((await ops("GET", "", { token: "wrong" })).status).toBe(401);
    expect((await ops("GET", "/", {})).status).toBe(404);
  });
});

/** HEAD answers like GET on every read route, as on the management, admin and public surfaces (RFC 9110 §9.3.2). */
describe("HEAD on the operators' reads", () => {
  it("answers GET's status and headers without a body, and the 405's Allow names HEAD", async () => {
    const authorization = `Bearer ${OPS_TOKEN}`;
    for (const path of ["", "/sites", "/sites/demo-missing", "/model-proposals"]) {
      const get = await workerFetch(`${ADMIN}/api/ops${path}`, { headers: { authorization } });
      const getLength = (await get.arrayBuffer()).byteLength;
      const head = await workerFetch(`${ADMIN}/api/ops${path}`, { method: "HEAD", headers: { authorization } });
      expect([path, head.status, head.headers.get("content-type"), head.headers.get("content-length")]).toEqual([path, get.status, get.headers.get("content-type"), String(getLength)]);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
    // Checked before the path, like GET: a wrong token is 401 whatever the method.
    expect((await workerFetch(`${ADMIN}/api/ops/sites`, { method: "HEAD", headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const refused = await workerFetch(`${ADMIN}/api/ops/sites`, { method: "DELETE", headers: { authorization } });
    expect([refused.status, refused.headers.get("allow")]).toEqual([405, "GET, HEAD, POST"]);
  });
});
