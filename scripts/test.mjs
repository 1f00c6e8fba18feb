/**
 * `npm test`: the quick checks (typecheck, contract check, admin build), then the long suites —
 * the workerd suite (vitest), the Node files (test/node) and the end-to-end files (test/e2e, through
 * scripts/test-e2e.mjs) — and how long each step took. The exit code is non-zero when any failed.
 *
 * `TEST_MODE` chooses how the long suites share the machine (docs/testing.md, "What runs"):
 * - `phased` (default): first the workerd suite **beside** the demo's seeding and the Node files
 *   (none opens a browser; the workerd suite keeps one core busy, the seed and the Node files
 *   mostly wait on child processes), then the end-to-end files in `E2E_LANES` lanes (default 1) on
 *   the seeded template, with the machine to themselves.
 * - `sequential`: the workerd suite, then scripts/test-e2e.mjs with everything.
 * - `parallel`: the workerd suite and scripts/test-e2e.mjs side by side (measured slower on two
 *   cores: docs/testing.md). `TEST_PARALLEL=1` is the old name of this mode.
 * Output lines of steps that run side by side are prefixed with the step's name.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./lib/load-ts.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs one command; resolves with its exit code and wall time. Output lines get `prefix`. */
function run(label, command, args, { prefix = "", env = {} } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", prefix ? "pipe" : "inherit", prefix ? "pipe" : "inherit"], env: { ...process.env, ...env } });
    if (prefix) {
      for (const [stream, target] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        let rest = "";
        stream.on("data", (chunk) => {
          const lines = (rest + chunk).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) target.write(`${prefix} ${line}\n`);
        });
        stream.on("end", () => rest && target.write(`${prefix} ${rest}\n`));
      }
    }
    child.on("close", (code, signal) => resolve({ label, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

const results = [];
for (const [label, script] of [["typecheck", "typecheck"], ["contract check", "contract:check"], ["admin build", "build:admin"]]) {
  const result = await run(label, npm, ["run", "--silent", script]);
  results.push(result);
  if (result.code !== 0) break;
}
if (results.every((r) => r.code === 0)) {
  const mode = process.env.TEST_MODE ?? (process.env.TEST_PARALLEL === "1" ? "parallel" : "phased");
  const workerd = (prefix) => run("workerd suite", process.execPath, ["node_modules/vitest/vitest.mjs", "run"], { prefix });
  const e2e = (label, prefix, env = {}) => run(label, process.execPath, ["scripts/test-e2e.mjs"], { prefix, env });
  if (mode === "parallel") results.push(...(await Promise.all([workerd("[workerd]"), e2e("node and end-to-end suite", "[e2e]")])));
  else if (mode === "sequential") results.push(await workerd(""), await e2e("node and end-to-end suite", ""));
  else {
    // The seeded template is made by the first phase's Node part and used by the end-to-end files.
    const template = mkdtempSync(path.join(os.tmpdir(), "driftwood-test-template-"));
    try {
      results.push(...(await Promise.all([workerd("[workerd]"), e2e("seed and node suite", "[node]", { E2E_PART: "node", E2E_SEED_INTO: template })])));
      // One lane by default: two lanes measured 636 s instead of ≈ 1,000 s, but two of their browser
      // files failed on a loaded run ("worker restarted mid-request", a 30 s screen wait) — see
      // docs/testing.md, "Lanes". `E2E_LANES=2 npm test` runs them in two.
      results.push(await e2e("end-to-end suite", "", { E2E_PART: "e2e", DRIFTWOOD_E2E_SEED_TEMPLATE: template, E2E_LANES: process.env.E2E_LANES ?? "1" }));
    } finally {
      rmSync(template, { recursive: true, force: true });
    }
  }
}
process.stdout.write("\n");
for (const r of results) process.stdout.write(`npm test: ${r.label.padEnd(26)} ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s\n`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
