/**
 * `npm test`: the quick checks (typecheck, contract check, admin build), then the two long suites —
 * the workerd suite (vitest, one runtime at a time) and the Node / end-to-end suite
 * (scripts/test-e2e.mjs, one file at a time) — one after the other, and how long each step took.
 * The exit code is non-zero when any step failed.
 *
 * `TEST_PARALLEL=1` runs the two long suites side by side (output lines prefixed `[workerd]`,
 * `[e2e]`). Not the default: measured on a 2-core machine they slowed each other more than they
 * overlapped (docs/testing.md), and browser tests waiting 30 s for a screen timed out under it.
 */
import { spawn } from "node:child_process";
import { root } from "./lib/load-ts.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs one command; resolves with its exit code and wall time. Output lines get `prefix`. */
function run(label, command, args, { prefix = "" } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", prefix ? "pipe" : "inherit", prefix ? "pipe" : "inherit"], env: process.env });
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
  const workerd = (prefix) => run("workerd suite", process.execPath, ["node_modules/vitest/vitest.mjs", "run"], { prefix });
  const e2e = (prefix) => run("node and end-to-end suite", process.execPath, ["scripts/test-e2e.mjs"], { prefix });
  if (process.env.TEST_PARALLEL === "1") results.push(...(await Promise.all([workerd("[workerd]"), e2e("[e2e]")])));
  else results.push(await workerd(""), await e2e(""));
}
process.stdout.write("\n");
for (const r of results) process.stdout.write(`npm test: ${r.label.padEnd(26)} ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s\n`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
