/**
 * `npm test`: the quick checks (typecheck, contract check, admin build), then the long suites —
 * the workerd suite (vitest), the Node files (test/node) and the end-to-end files (test/e2e, through
 * scripts/test-e2e.mjs) — and how long each step took. The exit code is non-zero when any failed.
 *
 * `TEST_MODE` chooses how the long suites share the machine (docs/testing.md, "What runs"):
 * - `packed` (default; `phased` is its old name): the workerd suite (one vitest worker: one core)
 *   **beside** scripts/test-e2e.mjs, which seeds the demo, bundles the worker once, runs the Node
 *   files and then takes the end-to-end files from a queue in `E2E_LANES` lanes (default 1); when
 *   the workerd suite is done it is told (SIGUSR2) to widen to `E2E_LANES_LATER` lanes (default
 *   2: docs/testing.md, "Lanes"; `E2E_LANES_LATER=1` keeps one).
 * - `sequential`: the workerd suite, then scripts/test-e2e.mjs with everything.
 * - `parallel`: the workerd suite and scripts/test-e2e.mjs side by side (measured slower on two
 *   cores: docs/testing.md). `TEST_PARALLEL=1` is the old name of this mode.
 * Output lines of steps that run side by side are prefixed with the step's name.
 */
import { spawn } from "node:child_process";
import { root } from "./lib/load-ts.mjs";
import { readdirSync, readFileSync } from "node:fs";
import { cpuGrowth, groupCpu, unfinishedProjects } from "./lib/workerd-watchdog.mjs";
import { FailureCollector, failureSummary, flakySummary } from "./lib/failure-summary.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

// Process groups of watched commands (detached, so a terminal's Ctrl+C does not reach them): stopped
// with this script.
const ownGroups = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const pid of ownGroups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
    process.exit(130);
  });
}

/**
 * Runs one command; resolves with its exit code, wall time and — for a `collect`ed one — the
 * failure lines of its output (scripts/lib/failure-summary.mjs). Output lines get `prefix`.
 */
function run(label, command, args, { prefix = "", env = {}, started: onStart = () => {}, silenceLimitSeconds = 0, collect = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    // A watched command (silenceLimitSeconds) runs in its own process group, so a silent one can be
    // stopped whole (vitest and its workerd children); its output is kept for the watchdog.
    const watched = silenceLimitSeconds > 0;
    const piped = Boolean(prefix) || watched || collect;
    const failures = new FailureCollector();
    const child = spawn(command, args, { cwd: root, detached: watched, stdio: ["ignore", piped ? "pipe" : "inherit", piped ? "pipe" : "inherit"], env: { ...process.env, ...env } });
    onStart(child);
    if (watched) ownGroups.add(child.pid);
    let output = "";
    let silent = false;
    let lastOutput = Date.now();
    const timer = watched
      ? setInterval(() => {
          if (silent || Date.now() - lastOutput < silenceLimitSeconds * 1000) return;
          silent = true;
          clearInterval(timer);
          process.stdout.write(`${prefix} npm test: ${label} printed nothing for ${silenceLimitSeconds} s: stopping it\n`);
          // What its processes do while silent (spinning or waiting), before they are stopped.
          const before = groupCpu(child.pid, readdirSync, readFileSync);
          setTimeout(() => {
            for (const line of cpuGrowth(before, groupCpu(child.pid, readdirSync, readFileSync), 10)) process.stdout.write(`${prefix} npm test: silent ${label}: ${line}\n`);
            try {
              process.kill(-child.pid, "SIGKILL");
            } catch {
              child.kill("SIGKILL");
            }
          }, 10_000);
        }, 5000)
      : null;
    if (piped) {
      for (const [stream, target] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        let rest = "";
        stream.on("data", (chunk) => {
          lastOutput = Date.now();
          if (watched) output += chunk;
          const lines = (rest + chunk).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) {
            if (collect) failures.add(line);
            target.write(prefix ? `${prefix} ${line}\n` : `${line}\n`);
          }
        });
        stream.on("end", () => {
          if (!rest) return;
          if (collect) failures.add(rest);
          target.write(prefix ? `${prefix} ${rest}\n` : `${rest}\n`);
        });
      }
    }
    // Stopped for silence: a grandchild that left the group could keep the pipes open, so the exit
    // is enough (its output so far is kept).
    child.on("exit", (code, signal) => {
      if (silent) setTimeout(() => resolve({ label, code: code ?? 1, seconds: (Date.now() - started) / 1000, silent, output, failures: failures.lines(), flaky: failures.flaky(), tail: failures.tail() }), 2000);
    });
    // A command that could not start (EAGAIN, ENOENT) fails named, instead of ending this script.
    child.on("error", (error) => {
      if (timer) clearInterval(timer);
      ownGroups.delete(child.pid);
      resolve({ label, code: 1, seconds: (Date.now() - started) / 1000, silent, output, failures: [`${label} could not run: ${error.message}`], flaky: [], tail: [] });
    });
    child.on("close", (code, signal) => {
      if (timer) clearInterval(timer);
      ownGroups.delete(child.pid);
      resolve({ label, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, silent, output, failures: failures.lines(), flaky: failures.flaky(), tail: failures.tail() });
    });
  });
}

/**
 * The workerd suite, watched (scripts/lib/workerd-watchdog.mjs): silent for WORKERD_SILENCE_LIMIT_S
 * (default 300 s; the slowest file took 43 s at load 15–30, docs/testing.md), it is stopped and the
 * groups that had not passed every file run again, whole. A second silence fails.
 */
async function workerdSuite(prefix) {
  const vitest = ["node_modules/vitest/vitest.mjs", "run"];
  const silenceLimitSeconds = Number(process.env.WORKERD_SILENCE_LIMIT_S ?? 300);
  const first = await run("workerd suite", process.execPath, vitest, { prefix, silenceLimitSeconds, collect: true });
  if (!first.silent) return first;
  const projects = unfinishedProjects(first.output);
  process.stdout.write(`${prefix} npm test: running again the groups that had not passed every file: ${projects.join(", ")}\n`);
  const again = await run("workerd suite", process.execPath, [...vitest, ...projects.flatMap((name) => ["--project", name])], { prefix, silenceLimitSeconds, collect: true });
  const stalled = `the first run printed nothing for ${silenceLimitSeconds} s and was stopped; run again: ${projects.join(", ")}${again.silent ? " — silent again" : ""}`;
  return { label: "workerd suite (one group stalled, run again)", code: again.silent ? 1 : again.code, seconds: first.seconds + again.seconds, failures: [stalled, ...again.failures] };
}

const results = [];
for (const [label, script] of [["typecheck", "typecheck"], ["contract check", "contract:check"], ["admin build", "build:admin"]]) {
  const result = await run(label, npm, ["run", "--silent", script]);
  results.push(result);
  if (result.code !== 0) break;
}
if (results.every((r) => r.code === 0)) {
  const mode = process.env.TEST_MODE ?? (process.env.TEST_PARALLEL === "1" ? "parallel" : "packed");
  // Screenshots are artefacts, not checks: none in the full run (test/e2e/admin-ui/harness.mjs).
  process.env.DRIFTWOOD_E2E_SCREENSHOTS ??= "0";
  const workerd = (prefix) => workerdSuite(prefix);
  const e2e = (label, prefix, env = {}, started) => run(label, process.execPath, ["scripts/test-e2e.mjs"], { prefix, env, started, collect: true });
  if (mode === "parallel") results.push(...(await Promise.all([workerd("[workerd]"), e2e("node and end-to-end suite", "[e2e]")])));
  else if (mode === "sequential") results.push(await workerd(""), await e2e("node and end-to-end suite", ""));
  else {
    // Packed: the workerd suite (one vitest worker: one core) beside scripts/test-e2e.mjs, which
    // seeds, runs the Node files and then the end-to-end files in `E2E_LANES` lanes (default 1);
    // when the workerd suite is done, SIGUSR2 widens it to `E2E_LANES_LATER` lanes. Default 2 (session
    // 15): the crash test's failure beside a second lane was the seed's backlog in its queue and the
    // resend look's page, both fixed, and the whole end-to-end part then passed twice with two lanes
    // (docs/testing.md, "Lanes" and "Measured"). Still true under load: wrangler's proxy may answer a
    // POST "Your worker restarted mid-request" when its pooled keep-alive connection to the worker
    // closes as the request is written; keyed Node-side requests are sent again, the browser's are not.
    // Not 3: a lane keeps ≈ 1.3 cores busy, so a third lane adds load, not throughput.
    let e2eChild;
    const e2eRun = e2e("node and end-to-end suite", "[e2e]", { E2E_LANES: process.env.E2E_LANES ?? "1", E2E_LANES_LATER: process.env.E2E_LANES_LATER ?? "2" }, (child) => (e2eChild = child));
    const workerdRun = workerd("[workerd]").then((result) => {
      e2eChild?.kill("SIGUSR2");
      return result;
    });
    results.push(...(await Promise.all([workerdRun, e2eRun])));
  }
}
process.stdout.write("\n");
for (const r of results) process.stdout.write(`npm test: ${r.label.padEnd(26)} ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s\n`);
// CI shows only the tail of the output: the failing tests and files of each suite, once more, last.
for (const line of [...flakySummary(results), ...failureSummary(results)]) process.stdout.write(`${line}\n`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
