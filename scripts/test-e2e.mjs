/**
 * `npm run test:e2e`: the Node and end-to-end test files (node --test). Once per run: the demo is
 * seeded into a template state that every end-to-end server copies (scripts/lib/dev-server.mjs),
 * the worker is bundled into a directory `wrangler dev` serves without building or watching the
 * repository (scripts/lib/prebuilt-worker.mjs), and Chromium is unpacked. Extra arguments are passed
 * to node --test (e.g. one file: `npm run test:e2e -- test/e2e/cli.test.mjs`), one at a time.
 *
 * The whole suite runs in **lanes** taking files from one queue, longest first (docs/testing.md,
 * "Lanes"): most of an end-to-end file's time is waiting — for `wrangler dev` to start, for a
 * browser, for a server's timer — so several files at once finish sooner even on two cores. The
 * files bind fixed ports (and the seeded demo plugin is always on 8789), so each end-to-end file
 * runs in a network namespace of its own (`unshare -n`, its own loopback): no port is shared,
 * nothing else on the machine is touched. `test/node/` runs in the machine's own namespace, because
 * the generated-backend test may install the emitted project's packages from the registry: the
 * files that need neither the seeded template nor the bundled worker from the start, beside the
 * seed and the bundle; `generated-backend` and `deploy` (AFTER_PREPARATION) once both are ready, beside the lanes. Without `unshare` (not root, no user namespaces) everything runs in one process, one
 * file at a time. `E2E_LANES=n` sets the number of lanes (default 1: docs/testing.md, "Lanes"); SIGUSR2 widens to
 * `E2E_LANES_LATER` (scripts/test.mjs sends it when the workerd suite beside it is done).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runFiles, startAdminHost } from "./lib/e2e-lane.mjs";
import { createSeedTemplate, SEED_TEMPLATE_VARIABLE } from "./lib/dev-server.mjs";
import { isPrebuiltWorker, PREBUILT_WORKER_VARIABLE, prepareWorker } from "./lib/prebuilt-worker.mjs";
import { root } from "./lib/load-ts.mjs";

/**
 * Seconds a file took (docs/testing.md, "Measured"), to take the long files first; files not listed
 * count as DEFAULT_SECONDS (a server start and a few requests). A run prints every file's seconds at
 * its end. Admin files are queued one by one since session 16, so their seconds order them too.
 */
const MEASURED_SECONDS = {
  // Session 16 (2026-11-28 08:03–08:10 UTC), the whole Node and end-to-end part with two lanes from
  // the start at load 3–10: `E2E_LANES=2 node scripts/test-e2e.mjs`, branch budget-e2e at 1befa73
  // (site-screens: its run alone, after a failed first run).
  "test/e2e/admin-ui-lifecycle.test.mjs": 74,
  "test/e2e/events-crash.test.mjs": 74,
  "test/e2e/rich-text-xss.test.mjs": 69,
  "test/e2e/admin-ui-site-screens.test.mjs": 67,
  "test/e2e/admin-ui-content.test.mjs": 41,
  "test/e2e/ops-cli.test.mjs": 40,
  "test/e2e/cli.test.mjs": 37,
  "test/e2e/admin-ui-editor-flow.test.mjs": 36,
  "test/e2e/admin-ui-review.test.mjs": 36,
  "test/e2e/admin-ui-fields.test.mjs": 25,
  "test/e2e/admin-ui-editor-day.test.mjs": 23,
  "test/e2e/admin-ui-people.test.mjs": 22,
  "test/e2e/admin-ui-models.test.mjs": 18,
  "test/e2e/admin-ui-account.test.mjs": 15,
  "test/e2e/plugin-operations.test.mjs": 15,
  "test/e2e/admin-ui-media.test.mjs": 13,
  "test/e2e/admin-ui-plugin-actions.test.mjs": 12,
  "test/e2e/admin-ui-suspended.test.mjs": 12,
  "test/e2e/admin-ui-trash.test.mjs": 9,
  "test/e2e/admin-ui-settings.test.mjs": 8,
  "test/e2e/admin-ui-shell.test.mjs": 8,
  "test/e2e/oauth-connect.test.mjs": 8,
  "test/e2e/public-cors-browser.test.mjs": 8,
  "test/e2e/admin-ui-lists.test.mjs": 6,
  "test/e2e/local-dev-stall.test.mjs": 6,
  "test/e2e/mcp-sdk.test.mjs": 6,
  "test/e2e/public-client.test.mjs": 6,
  "test/e2e/static-site-sync.test.mjs": 6,
  "test/e2e/plugin.test.mjs": 5,
};
const DEFAULT_SECONDS = 15;

/**
 * Admin browser files run on their lane's shared server and browser (scripts/lib/shared-admin.mjs,
 * scripts/lib/e2e-lane.mjs; docs/testing.md, "One server and one browser for the admin files"): every
 * admin file. Each writes only what it names itself (stamped titles, slugs and emails, its own
 * models, roles, uploads and invited people) and reads only those and seeded rows no other admin
 * file changes, so any of them may share a server with any other, in any order. What each had
 * to stop relying on to share (session 14; the table in docs/testing.md says it file by file):
 * - admin-ui-account: "View on site" on a model of its own (it changed the seeded article's site_path);
 * - admin-ui-models: its new role goes to a person it invites (it re-roled the seeded demo editor,
 *   whose rights the lease files use);
 * - admin-ui-people: reads only its own invitations in the pending list (it compared the whole list);
 * - admin-ui-review: proposals on article entries of its own (the newest seeded-model entries may be
 *   another file's, under its lease), and waits for its own comment settings in the site's cache;
 * - admin-ui-shell: the readiness check on the seeded second site, whose models no file changes;
 * - admin-ui-suspended: the shared server runs with the operators' token (SHARED_ADMIN_VARS); the
 *   second site it suspends is resumed in the same test;
 * - admin-ui-lists: the only file that writes member-only paths; comment settings are saved and read
 *   back by it (the review file waits for its own);
 * - admin-ui-settings: runs LAST on its server (SHARED_ADMIN_LAST): the language it adds and the
 *   fallback order it saves are read by every later screen and public read of the demo site.
 */
const SHARED_ADMIN_FILES = [
  "test/e2e/admin-ui-account.test.mjs",
  "test/e2e/admin-ui-content.test.mjs",
  "test/e2e/admin-ui-editor-day.test.mjs",
  "test/e2e/admin-ui-editor-flow.test.mjs",
  "test/e2e/admin-ui-fields.test.mjs",
  "test/e2e/admin-ui-lifecycle.test.mjs",
  "test/e2e/admin-ui-lists.test.mjs",
  "test/e2e/admin-ui-media.test.mjs",
  "test/e2e/admin-ui-models.test.mjs",
  "test/e2e/admin-ui-people.test.mjs",
  "test/e2e/admin-ui-plugin-actions.test.mjs",
  "test/e2e/admin-ui-review.test.mjs",
  "test/e2e/admin-ui-settings.test.mjs",
  "test/e2e/admin-ui-shell.test.mjs",
  "test/e2e/admin-ui-site-screens.test.mjs",
  "test/e2e/admin-ui-suspended.test.mjs",
  "test/e2e/admin-ui-trash.test.mjs",
];
/**
 * Shared files that change what later files on their server would read, and read nothing a later
 * file changes: each is taken once no other admin file is queued, and its lane's server stops after
 * it (runQueue), so no admin file runs after one on the same server.
 */
const SHARED_ADMIN_LAST = ["test/e2e/admin-ui-settings.test.mjs"];
const secondsOf = (file) => MEASURED_SECONDS[file] ?? DEFAULT_SECONDS;

/** `E2E_ONLY=a,b`: only the files whose names contain one of these (trying the lanes on a few files). */
const only = (process.env.E2E_ONLY ?? "").split(",").filter(Boolean);
const testFiles = (dir) =>
  readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((part) => f.includes(part))))
    .sort()
    .map((f) => `${dir}/${f}`);

/** Whether this machine can give a lane its own loopback (`unshare -n` and `ip` work here). */
function namespacesWork() {
  const probe = spawnSync("unshare", ["-n", "sh", "-c", "ip link set lo up"], { stdio: "ignore" });
  return probe.status === 0;
}

/** The files in the order the lanes take them: longest first (the short ones fill the gaps at the end). */
const longestFirst = (files) => [...files].sort((a, b) => secondsOf(b) - secondsOf(a) || a.localeCompare(b));

/**
 * A failed end-to-end file runs once more, alone, on a server of its own (docs/testing.md, "Retried
 * once, alone"): the local runtime under CI's load made 30-second waits fail in files that pass on
 * their own. Both runs are reported; the file passes only if its second run does. At most this
 * many files a run, so a broken build fails in its own time, not twice over.
 */
const MAX_RETRIED_FILES = 3;

/**
 * The end-to-end files as one queue taken by `lanes` lanes: a lane runs one file in a network
 * namespace of its own, then takes the next, longest first, so a lane never waits on a badly guessed
 * balance. An admin browser file (SHARED_ADMIN_FILES) runs on the lane's admin host instead — one
 * shared server and browser per lane, started when the lane takes its first admin file and stopped
 * when the lane ends (scripts/lib/e2e-lane.mjs): the admin files are items of the queue like any
 * other, so the lanes end within a file of each other. A SHARED_ADMIN_LAST file is taken once no
 * other admin file is queued, and its lane's host stops after it. `widen(n)` (SIGUSR2 from
 * scripts/test.mjs when the workerd suite is done) adds lanes up to `n`. `beside` (Node files, in
 * the machine's namespace) run one after the other in a track of their own beside the lanes: in
 * session 15's clean-clone runs they held lane 1 for ≈ 170 s (`generated-backend` and `deploy`,
 * ≈ 130 s of CPU: mostly waiting on their processes) while the workerd suite had the other core,
 * so ≈ 0.6 of a core idled. Resolves with every run once the lanes and the track are done.
 */
function runQueue({ beside, files, lanes, env }) {
  const queue = longestFirst(files);
  const runs = [];
  const retried = new Set();
  let open = 0;
  let named = 0;
  let finish;
  const lanesDone = new Promise((resolve) => (finish = resolve));
  const besideDone = (async () => {
    for (const file of beside) runs.push(await runFiles("node", [file], env, false));
  })();
  const done = Promise.all([lanesDone, besideDone]).then(() => runs);
  // The next item, longest first — but a SHARED_ADMIN_LAST file only once no other admin file is
  // queued: its lane's server stops after it, and a later admin file would need a new one.
  const isAdmin = (item) => typeof item === "string" && SHARED_ADMIN_FILES.includes(item) && !SHARED_ADMIN_LAST.includes(item);
  const take = () => queue.splice(Math.max(0, queue.findIndex((item) => !SHARED_ADMIN_LAST.includes(item) || !queue.some(isAdmin))), 1)[0];
  const lane = async (name) => {
    open += 1;
    let host = null;
    const closeHost = async () => {
      if (host) runs.push(await host.close());
      host = null;
    };
    for (let item = take(); item; item = take()) {
      let run;
      if (typeof item !== "string") run = { ...(await runFiles(name, [item.retry], env, true)), retry: true };
      else if (SHARED_ADMIN_FILES.includes(item)) {
        if (host && !host.alive()) await closeHost();
        host ??= startAdminHost(name, env);
        run = await host.run(item);
        if (SHARED_ADMIN_LAST.includes(item)) await closeHost();
      } else run = await runFiles(name, [item], env, true);
      runs.push(run);
      const file = run.files[0];
      if (run.code === 0 || run.retry || retried.size >= MAX_RETRIED_FILES) continue;
      retried.add(file);
      process.stderr.write(`test:e2e: ${name} ${file} FAILED (its lines above): once more, alone, on a server of its own\n`);
      queue.unshift({ retry: file });
    }
    await closeHost();
    open -= 1;
    if (open === 0) finish(runs);
  };
  const widen = (n) => {
    while (named < n && (named === 0 || queue.length > 0)) {
      named += 1;
      void lane(`e2e-${named}`);
    }
  };
  widen(Math.max(1, lanes));
  return { done, widen };
}

/**
 * Node files that wait for the run's preparation: `generated-backend` copies the seeded template,
 * and `deploy` rebuilds `admin/dist`, which the worker's bundle copies (scripts/lib/prebuilt-worker.mjs).
 */
const AFTER_PREPARATION = ["test/node/generated-backend.test.mjs", "test/node/deploy.test.mjs"];

/** createSeedTemplate in a child process (its output passed through); resolves with the exit code. */
function seedInChild(dir) {
  const code = `import(${JSON.stringify(pathToFileURL(path.join(root, "scripts/lib/dev-server.mjs")).href)}).then((m) => m.createSeedTemplate(${JSON.stringify(dir)}))`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    child.on("close", (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
    // A process that could not start (EAGAIN under CI's load): a failed seed, printed, not a crash.
    child.on("error", (error) => {
      process.stderr.write(`test:e2e: the seed's process failed: ${error.stack ?? error}\n`);
      resolve(1);
    });
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
// scripts/test.mjs sends SIGUSR2 when the workerd suite beside this run is done: from then on the
// end-to-end files run in `E2E_LANES_LATER` lanes. Listened to from the start (the signal's default
// would end the process), remembered if it comes before the lanes start.
const later = Number(process.env.E2E_LANES_LATER ?? process.env.E2E_LANES ?? 1);
let widened = false;
let widenQueue = () => {};
process.on("SIGUSR2", () => {
  process.stderr.write(`test:e2e: the workerd suite is done: ${later} lanes from now\n`);
  widened = true;
  widenQueue(later);
});
let status = 1;
let worker;
try {
  const nodeFiles = part === "e2e" ? [] : testFiles("test/node");
  const e2eFiles = part === "node" ? [] : testFiles("test/e2e");
  const queued = chosen.length === 0 && e2eFiles.length > 0 && namespacesWork();
  // The Node files that need neither the seeded template nor the bundled worker start at once,
  // beside the seed and the bundle (58–98 s of wall in CI, mostly waiting: docs/testing.md), in the
  // machine's own namespace; the others beside the lanes once both are ready.
  const early = queued ? nodeFiles.filter((f) => !AFTER_PREPARATION.includes(f)) : [];
  const earlyRun = early.length > 0 ? runFiles("node", early, process.env, false) : Promise.resolve(null);
  const started = Date.now();
  // Seeded in a child process, so this one's event loop keeps reading the early files' output.
  const seeded = given ? Promise.resolve(0) : seedInChild(template);
  // The worker bundled once for every server of the run, served from files no test writes
  // (scripts/lib/prebuilt-worker.mjs) — unless the caller names one already prepared.
  const prepare = async () => {
    const builtAt = Date.now();
    if (!isPrebuiltWorker(process.env[PREBUILT_WORKER_VARIABLE])) {
      if (!existsSync(path.join(root, "admin", "dist", "index.html"))) await (await import("./build-admin.mjs")).buildAdmin({ quiet: true });
      if (worker) rmSync(worker, { recursive: true, force: true });
      worker = mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-worker-"));
      await prepareWorker(worker);
    }
    // @sparticuz/chromium unpacks its browser into /tmp on first use: once here, not by two lanes at once.
    await (await import("@sparticuz/chromium")).default.executablePath();
    process.stderr.write(`test:e2e: worker bundled and browser unpacked in ${((Date.now() - builtAt) / 1000).toFixed(1)} s\n`);
  };
  // Once more when the first attempt fails (its error printed): beside the workerd suite's start,
  // one failed bundle must not fail every end-to-end file of the run.
  const prepared = prepare().catch((error) => {
    process.stderr.write(`test:e2e: preparing the worker bundle or the browser failed, once more: ${error?.stack ?? error}\n`);
    return prepare();
  });
  // Both awaited together: a preparation that fails while the seed still runs must not end this
  // process as an unhandled rejection before its error is printed (CI of 0.11.0 ended here in 7 s
  // with nothing named).
  const [seedOutcome, preparedOutcome] = await Promise.allSettled([seeded, prepared]);
  if (preparedOutcome.status === "rejected") throw new Error(`preparing the worker bundle or the browser failed: ${preparedOutcome.reason?.stack ?? preparedOutcome.reason}`);
  let seedCode = seedOutcome.status === "fulfilled" ? seedOutcome.value : 1;
  if (seedCode !== 0 && !given) {
    // Once more into an empty directory (its error is above): a seed that failed beside the workerd
    // suite's start must not fail every end-to-end file of the run.
    process.stderr.write(`test:e2e: seeding the demo template failed (exit ${seedCode}; its lines above): once more\n`);
    rmSync(template, { recursive: true, force: true });
    mkdirSync(template, { recursive: true });
    seedCode = await seedInChild(template);
  }
  if (seedCode !== 0) throw new Error(`seeding the demo template failed (exit ${seedCode})`);
  process.stderr.write(`test:e2e: demo ${given ? "template given" : "seeded once"} in ${((Date.now() - started) / 1000).toFixed(1)} s (${template})\n`);
  const env = { ...process.env, [SEED_TEMPLATE_VARIABLE]: template, ...(worker ? { [PREBUILT_WORKER_VARIABLE]: worker } : {}) };
  const wanted = Number(process.env.E2E_LANES ?? 1);
  if (!queued) {
    const files = chosen.length > 0 ? chosen : [...nodeFiles, ...e2eFiles];
    const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...files], { cwd: root, stdio: "inherit", env });
    status = run.status ?? 1;
  } else {
    const queue = runQueue({ beside: nodeFiles.filter((f) => !early.includes(f)), files: e2eFiles, lanes: widened ? later : wanted, env });
    widenQueue = queue.widen;
    const runs = [...(await queue.done)];
    const earlyResult = await earlyRun;
    if (earlyResult) runs.push(earlyResult);
    // A failed first run counts as passed when its file's run alone passed.
    const passedAlone = new Set(runs.filter((r) => r.retry && r.code === 0).map((r) => r.files[0]));
    for (const r of [...runs].sort((a, b) => b.seconds - a.seconds)) {
      const what = r.files.length === 1 ? r.files[0] : `${r.files.length} Node files`;
      const verdict = r.code === 0 ? "passed" : !r.retry && passedAlone.has(r.files[0]) ? `failed (exit ${r.code}), then passed alone: flaky here` : `FAILED (exit ${r.code})`;
      const cpu = r.cpu === undefined ? "" : ` (${r.cpu.toFixed(1)} s of CPU)`;
      process.stderr.write(`test:e2e: ${r.name.padEnd(6)} ${r.seconds.toFixed(0).padStart(4)} s${cpu} ${verdict}${r.retry ? " (its second run, alone)" : ""} ${what}\n`);
    }
    status = runs.every((r) => r.code === 0 || (!r.retry && passedAlone.has(r.files[0]))) ? 0 : 1;
  }
} finally {
  if (!given && !seedInto) rmSync(template, { recursive: true, force: true });
  if (worker) rmSync(worker, { recursive: true, force: true });
}
process.exit(status);
