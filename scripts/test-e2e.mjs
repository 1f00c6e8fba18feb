/**
 * `npm run test:e2e`: the Node and end-to-end test files (node --test), one file at a time. The
 * demo is seeded once for the run into a template state that every end-to-end file copies
 * (scripts/lib/dev-server.mjs), instead of each file migrating and seeding its own. Extra
 * arguments are passed to node --test (e.g. one file: `npm run test:e2e -- test/e2e/cli.test.mjs`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSeedTemplate, SEED_TEMPLATE_VARIABLE } from "./lib/dev-server.mjs";
import { root } from "./lib/load-ts.mjs";

const files = process.argv.slice(2);
const template = mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-template-"));
let status = 1;
try {
  const started = Date.now();
  createSeedTemplate(template);
  process.stderr.write(`test:e2e: demo seeded once in ${((Date.now() - started) / 1000).toFixed(1)} s (${template})\n`);
  const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...(files.length > 0 ? files : ["test/node/", "test/e2e/"])], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, [SEED_TEMPLATE_VARIABLE]: template },
  });
  status = run.status ?? 1;
} finally {
  rmSync(template, { recursive: true, force: true });
}
process.exit(status);
