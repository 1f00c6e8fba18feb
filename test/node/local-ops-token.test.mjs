/**
 * The local operators' token (scripts/lib/local-ops-token.mjs): generated once beside the local
 * state with mode 0600 and the same on every later run; wrangler.jsonc never sets OPS_TOKEN (a
 * deployment sets it as a secret). Run by `npm run test:e2e`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { localOpsToken } from "../../scripts/lib/local-ops-token.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

describe("local OPS_TOKEN", () => {
  it("is generated once, kept with mode 0600, and reused", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dw-ops-token-"));
    try {
      const first = localOpsToken(path.join(dir, "state"));
      assert.match(first, /^dwops_local_[A-Za-z0-9_-]{32}$/);
      const file = path.join(dir, "state", "driftwood-ops-token");
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(localOpsToken(path.join(dir, "state")), first);
      assert.equal(readFileSync(file, "utf8").trim(), first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is never in wrangler.jsonc", () => {
    assert.doesNotMatch(readFileSync(path.join(root, "wrangler.jsonc"), "utf8"), /OPS_TOKEN"\s*:/);
  });

  it("is passed by npm start with --var and printed by the seed as ops_token", () => {
    assert.match(readFileSync(path.join(root, "scripts/start.mjs"), "utf8"), /"--var", `OPS_TOKEN:\$\{info\.ops_token\}`/);
    assert.match(readFileSync(path.join(root, "scripts/seed.mjs"), "utf8"), /ops_token: localOpsToken\(persistTo\)/);
  });
});
