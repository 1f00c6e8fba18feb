/**
 * The generated OpenAPI files are valid OpenAPI 3.1 (checked with an independent validator), and the
 * management file documents exactly the routes the router serves. Run by `npm run test:e2e`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { loadTs, root } from "../../scripts/lib/load-ts.mjs";

const files = ["openapi-v1.json", "openapi/public-v1.json", "openapi/plugin-v1.json", "openapi/admin-v1.json", "openapi/ops-v1.json"];

describe("OpenAPI artefacts", () => {
  for (const file of files) {
    it(`${file} is valid OpenAPI 3.1`, async () => {
      const document = JSON.parse(readFileSync(path.join(root, file), "utf8"));
      assert.equal(document.openapi, "3.1.0");
      const validator = new Validator();
      const result = await validator.validate(document);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
      assert.equal(validator.version, "3.1");
    });
  }

  it("documents every served management route, and serves every documented one", async () => {
    const { manageSurface } = await loadTs("schema/manage-api.ts");
    const { HANDLERS } = await loadTs("workers/manage/handlers/index.ts");
    const document = JSON.parse(readFileSync(path.join(root, "openapi-v1.json"), "utf8"));
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    const served = manageSurface.routes.map((r) => `${r.method} ${manageSurface.basePath}${r.path}`).sort();
    assert.deepEqual(documented, served);
    const operations = manageSurface.routes.map((r) => r.operationId).sort();
    assert.deepEqual(Object.keys(HANDLERS).sort(), operations, "every operation has a handler and every handler an operation");
    for (const route of manageSurface.routes.filter((r) => r.method !== "get" && !r.noKey)) {
      const op = document.paths[`${manageSurface.basePath}${route.path}`][route.method];
      assert.ok(op.parameters.some((p) => p.name === "Idempotency-Key" && p.required), `${route.operationId} requires Idempotency-Key`);
    }
    // Every success status a route answers is documented: the upload's 201, and its 200 when it reuses an item.
    for (const route of manageSurface.routes) {
      const op = document.paths[`${manageSurface.basePath}${route.path}`][route.method];
      for (const status of [route.status ?? 200, ...(route.otherStatuses ?? []).map((o) => o.status)]) {
        assert.ok(op.responses[String(status)], `${route.operationId} documents ${status}`);
      }
    }
    // Every route whose command asks the site's content policies (policy-subjects.ts POLICY_COMMANDS)
    // documents their refusals: spec 2 rule 14 and the errors table (the page editor's save once did not).
    const asking = ["createEntry", "saveEntry", "addEntryLanguage", "restoreEntryVersion", "publishEntry", "unpublishEntry", "moveEntry", "trashEntry", "restoreEntry", "purgeEntry", "publishRelease", "savePage"];
    for (const operationId of asking) {
      const route = manageSurface.routes.find((r) => r.operationId === operationId);
      assert.ok(route, `${operationId} is a management route`);
      const codes = Object.values(document.paths[`${manageSurface.basePath}${route.path}`][route.method].responses).map((r) => r.description).join(", ");
      // A save may be transformed; every other write may only be allowed or refused.
      const transforms = ["createEntry", "saveEntry", "addEntryLanguage", "savePage"].includes(operationId) ? ["plugin_policy_transform_invalid", "plugin_policy_transform_conflict"] : [];
      for (const code of ["plugin_policy_refused", "plugin_policy_unavailable", "plugin_policy_budget_exhausted", ...transforms]) {
        assert.ok(codes.split(", ").includes(code), `${operationId} documents ${code}`);
      }
    }
    const upload = document.paths[`${manageSurface.basePath}/media`].post.responses;
    assert.ok(upload["200"]?.content && upload["201"]?.content, "uploadMedia documents 201 and the reuse's 200");
  });

  it("documents every operators' route, each write but the move with a required Idempotency-Key", async () => {
    const { opsSurface } = await loadTs("schema/ops-api.ts");
    const document = JSON.parse(readFileSync(path.join(root, "openapi/ops-v1.json"), "utf8"));
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    assert.deepEqual(documented, opsSurface.routes.map((r) => `${r.method} ${opsSurface.basePath}${r.path}`).sort());
    for (const route of opsSurface.routes.filter((r) => r.method !== "get" && r.operationId !== "moveSiteDatabase")) {
      const op = document.paths[`${opsSurface.basePath}${route.path}`][route.method];
      assert.ok(op.parameters.some((p) => p.name === "Idempotency-Key" && p.required), `${route.operationId} requires Idempotency-Key`);
    }
  });

  it("documents every plugin protocol route, each with a handler", async () => {
    const { pluginSurface } = await loadTs("schema/plugin-api.ts");
    const { PLUGIN_HANDLERS } = await loadTs("workers/plugin/router.ts");
    const document = JSON.parse(readFileSync(path.join(root, "openapi/plugin-v1.json"), "utf8"));
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    assert.deepEqual(documented, pluginSurface.routes.map((r) => `${r.method} ${pluginSurface.basePath}${r.path}`).sort());
    assert.deepEqual(Object.keys(PLUGIN_HANDLERS).sort(), pluginSurface.routes.map((r) => r.operationId).sort());
    assert.ok(document.components.schemas.ErrorBody.properties.outcome, "refusals are documented as the outcome envelope");
  });

  it("documents every public route, each with a handler", async () => {
    const { publicSurface } = await loadTs("schema/public-api.ts");
    const { PUBLIC_HANDLERS } = await loadTs("workers/routes/public.ts");
    const document = JSON.parse(readFileSync(path.join(root, "openapi/public-v1.json"), "utf8"));
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    assert.deepEqual(documented, publicSurface.routes.map((r) => `${r.method} ${r.path}`).sort());
    assert.deepEqual(Object.keys(PUBLIC_HANDLERS).sort(), publicSurface.routes.map((r) => r.operationId).sort());
  });

  it("documents every admin route, each with a handler written for the access it declares", async () => {
    const { adminSurface } = await loadTs("schema/admin-api.ts");
    const { ADMIN_HANDLERS } = await loadTs("workers/admin/router.ts");
    const document = JSON.parse(readFileSync(path.join(root, "openapi/admin-v1.json"), "utf8"));
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)).sort();
    assert.deepEqual(documented, adminSurface.routes.map((r) => `${r.method} ${r.path}`).sort());
    const handled = Object.entries(ADMIN_HANDLERS).flatMap(([access, handlers]) => Object.keys(handlers).map((id) => `${access} ${id}`)).sort();
    assert.deepEqual(handled, adminSurface.routes.map((r) => `${r.access} ${r.operationId}`).sort());
  });
});
