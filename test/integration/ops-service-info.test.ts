import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { ops } from "../helpers/ops-api";

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
