#!/usr/bin/env node
/**
 * `npm run docs:screenshots [-- test/e2e/admin-ui-x.test.mjs …]`: refreshes the screenshots of
 * docs/admin-ui/ (docs/admin-ui.md, "Screenshots"). The admin is built once and the demo seeded
 * once; then each browser test file runs alone, in its own network namespace (`unshare -n`: its
 * fixed ports touch nothing else), with `UPDATE_DOCS_SCREENSHOTS=1`, writing the visible window of
 * each screen it checks into a temporary directory outside the repository — the project under the
 * running `wrangler dev` never changes during a run (writing into docs/ mid-run is what stalled
 * earlier runs). A screen's shot is taken only once its checks passed; the shots are made small
 * (at most 256 colours, strongest deflate: scripts/lib/png-optimise.mjs) and copied into
 * docs/admin-ui/. A file that fails or outlasts its time (DOCS_SCREENSHOTS_TIMEOUT seconds, 900 by
 * default; its process group is then stopped) is run once more (DOCS_SCREENSHOTS_ATTEMPTS); the
 * screens either attempt shot are kept, and the script names the file and exits 1. A seeded template named
 * by DRIFTWOOD_E2E_SEED_TEMPLATE (scripts/lib/dev-server.mjs) is used instead of seeding.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSeedTemplate, SEED_TEMPLATE_VARIABLE } from "./lib/dev-server.mjs";
import { root } from "./lib/load-ts.mjs";
import { palettePng } from "./lib/png-optimise.mjs";

/** The files whose screens docs/admin-ui*.md show, when none are named. */
const DEFAULT_FILES = [
  "test/e2e/admin-ui-models.test.mjs",
  "test/e2e/admin-ui-settings.test.mjs",
  "test/e2e/admin-ui-site-screens.test.mjs",
  "test/e2e/admin-ui-account.test.mjs",
  "test/e2e/admin-ui-editor-day.test.mjs",
  "test/e2e/admin-ui-lifecycle.test.mjs",
];
const DOCS = path.join(root, "docs", "admin-ui");
const timeoutSeconds = Number(process.env.DOCS_SCREENSHOTS_TIMEOUT ?? 900);
/** Runs of a file that fails (DOCS_SCREENSHOTS_ATTEMPTS, 2 by default). */
const ATTEMPTS = Math.max(1, Number(process.env.DOCS_SCREENSHOTS_ATTEMPTS ?? 2));
const files = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_FILES;

const say = (line) => process.stderr.write(`docs:screenshots: ${line}\n`);

/**
 * Stops every process of the network namespace `pid` lives in: the test runner, its browser and
 * the `wrangler dev` it started in a process group of its own. Only this run's namespace: a
 * process is matched by its /proc/<pid>/ns/net, never by name.
 */
function killNamespace(pid) {
  let namespace;
  try {
    namespace = readlinkSync(`/proc/${pid}/ns/net`);
    if (namespace === readlinkSync("/proc/self/ns/net")) return; // not unshared (yet): never this one
  } catch {
    return;
  }
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/net`) === namespace) process.kill(Number(entry), "SIGKILL");
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

/** Runs one test file in its own namespace and process group; resolves with its exit code (null on timeout). */
function runFile(file, env) {
  return new Promise((resolve) => {
    const child = spawn("unshare", ["-n", "sh", "-c", `ip link set lo up && exec "${process.execPath}" --test --test-concurrency=1 "${file}"`], { cwd: root, env, stdio: "inherit" });
    const timer = setTimeout(() => {
      say(`${file} outlasted ${timeoutSeconds} s: stopping it`);
      killNamespace(child.pid);
      resolve(null);
    }, timeoutSeconds * 1000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

if (spawnSync("unshare", ["-n", "sh", "-c", "ip link set lo up"], { stdio: "ignore" }).status !== 0) {
  say("needs `unshare -n` (root or user namespaces): the browser tests bind fixed ports.");
  process.exit(1);
}
const build = spawnSync(process.execPath, [path.join(root, "scripts", "build-admin.mjs")], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
// A seeded template named by the caller (as for npm run test:e2e) is used as it is and kept.
const given = process.env[SEED_TEMPLATE_VARIABLE];
const template = given || mkdtempSync(path.join(os.tmpdir(), "driftwood-docs-template-"));
const failed = [];
try {
  if (!given) createSeedTemplate(template);
  mkdirSync(DOCS, { recursive: true });
  for (const file of files) {
    // Every screen's shot is written only after its own checks passed (axe, 360 px, the state the
    // test waited for), so the shots an attempt took are good even when a later step of it fails.
    // A failed file is run once more (a loaded machine times out a wait now and then), and the
    // shots of both attempts are kept, the latest of a name winning.
    const taken = new Map();
    let passed = false;
    for (let attempt = 1; attempt <= ATTEMPTS && !passed; attempt += 1) {
      const shots = mkdtempSync(path.join(os.tmpdir(), "driftwood-docs-shots-"));
      const started = Date.now();
      const code = await runFile(file, { ...process.env, [SEED_TEMPLATE_VARIABLE]: template, UPDATE_DOCS_SCREENSHOTS: "1", DOCS_SCREENSHOTS_DIR: shots });
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      passed = code === 0;
      for (const name of readdirSync(shots).filter((n) => n.endsWith(".png"))) taken.set(name, readFileSync(path.join(shots, name)));
      rmSync(shots, { recursive: true, force: true });
      say(`${file} attempt ${attempt}: ${passed ? "passed" : code === null ? "timed out" : `failed (exit ${code})`} in ${seconds} s, ${taken.size} screens shot so far`);
    }
    if (!passed) failed.push(file);
    let before = 0;
    let after = 0;
    for (const [name, png] of taken) {
      const small = palettePng(png);
      writeFileSync(path.join(DOCS, name), small);
      before += png.length;
      after += small.length;
    }
    say(`${file}: ${taken.size} screenshots, ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB in docs/admin-ui/`);
  }
} finally {
  if (!given) rmSync(template, { recursive: true, force: true });
}
if (failed.length > 0) {
  say(`not refreshed: ${failed.join(", ")}`);
  process.exit(1);
}
