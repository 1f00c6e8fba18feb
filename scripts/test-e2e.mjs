/**
 * `npm run test:e2e`: the Node and end-to-end test files (node --test). The demo is seeded once for
 * the run into a template state that every end-to-end file copies (scripts/lib/dev-server.mjs),
 * instead of each file migrating and seeding its own. Extra arguments are passed to node --test
 * (e.g. one file: `npm run test:e2e -- test/e2e/cli.test.mjs`), which then runs them one at a time.
 *
 * The whole suite runs in **lanes** (docs/testing.md, "Lanes"): most of an end-to-end file's time
 * is waiting — for `wrangler dev` to start, for a browser, for a server's timer — so several files
 * at once finish sooner even on two cores. The files bind fixed ports (and the seeded demo plugin
 * is always on 8789), so each end-to-end lane runs in its own network namespace (`unshare -n`, its
 * own loopback): no port is shared, nothing else on the machine is touched. `test/node/` runs in
 * lane 0 in the machine's own namespace, because the generated-backend test may install the
 * emitted project's packages from the registry. Without `unshare` (not root, no user namespaces)
 * everything runs in one lane, one file at a time, as before. `E2E_LANES=n` sets the number of
 * end-to-end lanes (default 1 = one lane with everything, until a clean run measures lanes: see
 * docs/testing.md).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSeedTemplate, SEED_TEMPLATE_VARIABLE } from "./lib/dev-server.mjs";
import { root } from "./lib/load-ts.mjs";

/**
 * Seconds a file took on an idle 2-core machine (docs/testing.md), to balance the lanes; files not
 * listed count as DEFAULT_SECONDS (a server start and a few requests).
 */
const MEASURED_SECONDS = {
  "test/e2e/admin-ui-site-screens.test.mjs": 100,
  "test/e2e/rich-text-xss.test.mjs": 80,
  "test/e2e/admin-ui-models.test.mjs": 80,
  "test/e2e/admin-ui-account.test.mjs": 70,
  "test/e2e/admin-ui-lifecycle.test.mjs": 60,
  "test/e2e/admin-ui-editor-day.test.mjs": 60,
  "test/e2e/admin-ui-settings.test.mjs": 50,
  "test/e2e/events-crash.test.mjs": 40,
  "test/e2e/admin-ui-suspended.test.mjs": 60,
  "test/e2e/admin-ui-people.test.mjs": 45,
  "test/e2e/admin-ui-editor-flow.test.mjs": 42,
  "test/e2e/admin-ui-fields.test.mjs": 40,
  "test/e2e/admin-ui-content.test.mjs": 37,
  "test/e2e/admin-ui-review.test.mjs": 36,
  "test/e2e/admin-ui-media.test.mjs": 29,
  "test/e2e/ops-cli.test.mjs": 26,
  "test/e2e/plugin-operations.test.mjs": 24,
  "test/e2e/move-site.test.mjs": 23,
};
const DEFAULT_SECONDS = 15;

const testFiles = (dir) =>
  readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".test.mjs"))
    .sort()
    .map((f) => `${dir}/${f}`);

/** Whether this machine can give a lane its own loopback (`unshare -n` and `ip` work here). */
function namespacesWork() {
  const probe = spawnSync("unshare", ["-n", "sh", "-c", "ip link set lo up"], { stdio: "ignore" });
  return probe.status === 0;
}

/** Spreads files over `n` lanes, longest first, each to the lane with the least time so far. */
function balance(files, n) {
  const lanes = Array.from({ length: n }, () => ({ seconds: 0, files: [] }));
  const weighted = files.map((f) => ({ f, s: MEASURED_SECONDS[f] ?? DEFAULT_SECONDS })).sort((a, b) => b.s - a.s || a.f.localeCompare(b.f));
  for (const { f, s } of weighted) {
    const lane = lanes.reduce((least, l) => (l.seconds < least.seconds ? l : least));
    lane.files.push(f);
    lane.seconds += s;
  }
  return lanes.map((l) => l.files.sort());
}

/** Runs one lane's files with node --test (one at a time); output lines prefixed with the lane's name. */
function runLane(name, files, env, isolated) {
  const node = [process.execPath, "--test", "--test-concurrency=1", ...files];
  const quoted = node.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const [command, args] = isolated ? ["unshare", ["-n", "sh", "-c", `ip link set lo up && exec ${quoted}`]] : [node[0], node.slice(1)];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    for (const [stream, target] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      let rest = "";
      stream.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) target.write(`[${name}] ${line}\n`);
      });
      stream.on("end", () => rest && target.write(`[${name}] ${rest}\n`));
    }
    child.on("close", (code, signal) => resolve({ name, files: files.length, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

const chosen = process.argv.slice(2);
// `E2E_PART`: `all` (default), `node` (test/node only) or `e2e` (test/e2e only) — scripts/test.mjs
// runs the Node files beside the workerd suite and the end-to-end files after it.
const part = process.env.E2E_PART ?? "all";
// A template named by the caller (a seeded state kept between runs) is used as it is and kept;
// `E2E_SEED_INTO=<dir>` seeds into that directory and keeps it for a later part.
const given = process.env[SEED_TEMPLATE_VARIABLE];
const seedInto = process.env.E2E_SEED_INTO;
const template = given || seedInto || mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-template-"));
let status = 1;
try {
  const started = Date.now();
  if (!given) createSeedTemplate(template);
  process.stderr.write(`test:e2e: demo ${given ? "template given" : "seeded once"} in ${((Date.now() - started) / 1000).toFixed(1)} s (${template})\n`);
  const env = { ...process.env, [SEED_TEMPLATE_VARIABLE]: template };
  const wanted = Number(process.env.E2E_LANES ?? 1);
  const nodeFiles = part === "e2e" ? [] : testFiles("test/node");
  const e2eFiles = part === "node" ? [] : testFiles("test/e2e");
  if (chosen.length > 0 || wanted <= 1 || !namespacesWork() || e2eFiles.length === 0) {
    const files = chosen.length > 0 ? chosen : [...nodeFiles, ...e2eFiles];
    const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...files], { cwd: root, stdio: "inherit", env });
    status = run.status ?? 1;
  } else {
    const lanes = [
      ...(nodeFiles.length > 0 ? [runLane("node", nodeFiles, env, false)] : []),
      ...balance(e2eFiles, wanted).map((files, i) => runLane(`e2e-${i + 1}`, files, env, true)),
    ];
    const results = await Promise.all(lanes);
    for (const r of results) process.stderr.write(`test:e2e: lane ${r.name.padEnd(6)} ${r.files} files ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s\n`);
    status = results.every((r) => r.code === 0) ? 0 : 1;
  }
} finally {
  if (!given && !seedInto) rmSync(template, { recursive: true, force: true });
}
process.exit(status);
