/**
 * One batch of admin browser files on one shared server and browser (scripts/lib/shared-admin.mjs),
 * run by scripts/test-e2e.mjs inside a network namespace of the batch's own:
 * `node scripts/lib/e2e-shared-batch.mjs <result.json> <file>…`. The files run one after the other,
 * each in its own `node --test` (its own process, its own browser contexts); what each took and
 * whether it passed is written to <result.json> for the run's summary. Exit code 0 when every file
 * passed. A server or browser that does not start fails every file of the batch (none is skipped).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./load-ts.mjs";
import { SHARED_ADMIN_VARIABLE, startSharedAdmin } from "./shared-admin.mjs";

const [resultFile, ...files] = process.argv.slice(2);
const runFile = (file, env) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["--test", "--test-concurrency=1", file], { cwd: root, env, stdio: "inherit" });
    child.on("close", (code, signal) => resolve({ file, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });

const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-shared-"));
const results = [];
const started = Date.now();
let shared;
try {
  shared = await startSharedAdmin(path.join(dir, "shared-admin.json"));
  process.stdout.write(`shared server and browser started in ${((Date.now() - started) / 1000).toFixed(1)} s for ${files.length} files\n`);
} catch (error) {
  process.stdout.write(`the shared server or browser did not start: ${error.stack ?? error}\n`);
}
const setUpSeconds = (Date.now() - started) / 1000;
for (const file of files) results.push(shared ? await runFile(file, { ...process.env, [SHARED_ADMIN_VARIABLE]: path.join(dir, "shared-admin.json") }) : { file, code: 1, seconds: 0 });
await shared?.stop();
rmSync(dir, { recursive: true, force: true });
writeFileSync(resultFile, JSON.stringify({ setUpSeconds, results }));
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
