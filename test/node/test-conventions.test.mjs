// Conventions the workerd suite depends on for its speed (docs/testing.md).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function sources(dir) {
  return readdirSync(path.join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => /\.(ts|mts)$/.test(f))
    .map((f) => path.join(dir, f));
}

describe("workerd test conventions", () => {
  it("calls the worker with workerFetch, never SELF.fetch (its cost grows with every request a runtime serves)", () => {
    const offenders = ["test/unit", "test/objects", "test/integration", "test/helpers", "test/setup"]
      .flatMap(sources)
      .filter((file) => !file.endsWith(path.join("helpers", "worker.ts")))
      .filter((file) => /\bSELF\b/.test(readFileSync(path.join(root, file), "utf8")));
    assert.deepEqual(offenders, [], `use workerFetch from test/helpers/worker.ts in: ${offenders.join(", ")}`);
  });
});
