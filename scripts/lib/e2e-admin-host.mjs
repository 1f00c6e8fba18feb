/**
 * A lane's shared admin server and browser (scripts/lib/shared-admin.mjs), run by
 * scripts/test-e2e.mjs inside a network namespace of its own:
 * `node scripts/lib/e2e-admin-host.mjs`. It starts one `wrangler dev` and one Chromium, then
 * runs the admin browser files the lane sends it, one file name a line on stdin, each in its own
 * `node --test` (its own process, its own browser contexts), one after the other. On file
 * descriptor 3 it writes one JSON line when the server and browser are up (`{ started, ok }`), one
 * per file (`{ file, code, seconds, cpu }`) and one when stdin ended and both are stopped
 * (`{ stopped }`). A server or browser that does not start fails every file it is sent (none is
 * skipped). The lane decides which files and when (docs/testing.md, "One server and one browser
 * for the admin files"): files come one at a time from the run's queue, so the lanes stay balanced
 * file by file, not batch by batch.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { CPU_CGROUP_VARIABLE } from "./cpu-cgroup.mjs";
import { root } from "./load-ts.mjs";
import { SHARED_ADMIN_VARIABLE, startSharedAdmin } from "./shared-admin.mjs";

const report = createWriteStream(null, { fd: 3 });
const say = (message) => new Promise((resolve) => report.write(`${JSON.stringify(message)}\n`, resolve));
let running; // the file's node --test now
let shared;
// Stopped from outside: the file now running stops, and so does the shared server, whose process
// group (wrangler runs detached) a stop of this group would not reach.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    running?.kill("SIGTERM");
    void shared?.stop();
    setTimeout(() => process.exit(130), 500);
  });
}
// E2E_CPU_CGROUP (scripts/lib/cpu-cgroup.mjs): this process's own cgroup; a file's CPU is the whole
// group's while it ran — its test process, the shared server's and the browser's work for it.
const groupCpu = () => (process.env[CPU_CGROUP_VARIABLE] ? Number(readFileSync(path.join(process.env[CPU_CGROUP_VARIABLE], "cpuacct.usage"), "utf8")) / 1e9 : undefined);
const runFile = (file, env) =>
  new Promise((resolve) => {
    const started = Date.now();
    const cpuBefore = groupCpu();
    const child = spawn(process.execPath, ["--test", "--test-concurrency=1", file], { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
    // In this process's group: a stop of the lane's group reaches the file's processes too.
    running = child;
    child.on("close", (code, signal) => resolve({ file, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, cpu: cpuBefore === undefined ? undefined : groupCpu() - cpuBefore }));
    // A file whose process could not start fails, named, instead of ending the host unheard.
    child.on("error", (error) => {
      process.stderr.write(`${file}: its process failed: ${error.stack ?? error}\n`);
      resolve({ file, code: 1, seconds: (Date.now() - started) / 1000, cpu: undefined });
    });
  });

const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-shared-"));
const described = path.join(dir, "shared-admin.json");
const started = Date.now();
try {
  shared = await startSharedAdmin(described);
  process.stdout.write(`shared server and browser started in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} catch (error) {
  process.stdout.write(`the shared server or browser did not start: ${error.stack ?? error}\n`);
}
await say({ started: (Date.now() - started) / 1000, ok: Boolean(shared) });
for await (const line of createInterface({ input: process.stdin })) {
  const file = line.trim();
  if (!file) continue;
  await say(shared ? await runFile(file, { ...process.env, [SHARED_ADMIN_VARIABLE]: described }) : { file, code: 1, seconds: 0 });
}
const stopping = Date.now();
await shared?.stop();
rmSync(dir, { recursive: true, force: true });
await say({ stopped: (Date.now() - stopping) / 1000 });
process.exit(0);
