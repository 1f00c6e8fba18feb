/**
 * Starts the real service for end-to-end tests: seeds a fresh dev state in a temporary folder, runs
 * `wrangler dev` on it in its own process group, waits for the demo's /health, and stops the whole
 * group afterwards (wrangler spawns workerd and esbuild children: never kill by name).
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { root } from "./load-ts.mjs";
import { isPrebuiltWorker, PREBUILT_CONFIG, PREBUILT_WORKER_VARIABLE } from "./prebuilt-worker.mjs";

const require = createRequire(import.meta.url);
const wranglerBin = path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/**
 * What wrangler's local proxy answers (503, Retry-After: 0) to a non-GET request whose hop from the
 * proxy to the worker failed. Its usual cause is not a restart: the proxy's pooled keep-alive
 * connection to the worker closes as the request is written to it — kj's client idle timeout and
 * server pipeline timeout are both 5 s, so a connection idle ≈ 5 s races its own close, and a loaded
 * machine widens the race (docs/testing.md, "Lanes"; workers-sdk #14641); such a request never
 * reached the worker. The same answer also ended a request the worker had been running for minutes
 * (a model proposal's apply at load 40), so a resend is safe only where the key makes it so.
 * The proxy retries GET and HEAD itself.
 */
const PROXY_LOST_CONNECTION = "Your worker restarted mid-request.";

/**
 * One HTTP request to 127.0.0.1 with an explicit Host header (Node's fetch would replace it), on a
 * connection of its own. `chunks` sends the body with chunked transfer encoding (no Content-Length),
 * one write per chunk; `timeoutMs` fails the request when no full answer came in time.
 * A request carrying an `idempotency-key` that wrangler's proxy answers with its lost-connection 503
 * is sent again (at most twice more) with the same key: the service answers a repeated key with the
 * first answer (or `idempotency_in_progress` while the first still runs), so a second send never
 * writes twice. A request without a key, and any other answer, is returned as it came.
 */
export async function request(port, options) {
  const keyed = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === "idempotency-key");
  for (let attempt = 1; ; attempt++) {
    const res = await requestOnce(port, options);
    if (!keyed || attempt >= 3 || res.status !== 503 || !res.text.startsWith(PROXY_LOST_CONNECTION)) return res;
    process.stderr.write(`dev-server: ${options.method ?? "GET"} ${options.path} got wrangler's lost-connection 503; sent again with the same idempotency key\n`);
  }
}

function requestOnce(port, { method = "GET", host, path: pathname, headers = {}, body, chunks, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const framing =
      chunks !== undefined
        ? { "content-type": "application/json", "transfer-encoding": "chunked" }
        : payload !== undefined
          ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
          : {};
    const req = http.request(
      { host: "127.0.0.1", port, method, path: pathname, agent: false, headers: { host, ...framing, ...headers } },
      (res) => {
        const received = [];
        res.on("data", (c) => received.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(received).toString("utf8") }));
      },
    );
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${method} ${pathname}`)));
    // The server may answer (and stop reading) before the whole body is written: that is not a failure of the request.
    req.on("error", (error) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    req.on("close", () => reject(new Error(`connection closed without an answer: ${method} ${pathname}`)));
    if (chunks !== undefined) for (const chunk of chunks) req.write(chunk);
    else if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** The environment variable naming a seeded state to copy instead of seeding again (scripts/test-e2e.mjs). */
export const SEED_TEMPLATE_VARIABLE = "DRIFTWOOD_E2E_SEED_TEMPLATE";
const TEMPLATE_INFO = "seed-info.json";

/** Runs `npm run seed -- --json` into `persistTo` (applying the local migrations first) and returns its answer. */
export function seedFresh(persistTo, port) {
  const seeded = spawnSync(process.execPath, [path.join(root, "scripts", "seed.mjs"), "--json", "--persist-to", persistTo, "--port", String(port)], {
    cwd: root,
    encoding: "utf8",
    // Room for a chatty seed: past the buffer Node kills the child (spawnSync's default is 1 MiB).
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (seeded.status !== 0) throw new Error(`seed failed (exit ${seeded.status ?? seeded.signal}): ${seeded.stderr.slice(-8000)}`);
  return JSON.parse(seeded.stdout);
}

/**
 * Seeds a state once into `templateDir` for a whole end-to-end run: each test file then copies it
 * (seconds) instead of applying every migration to both databases and seeding again (about half a
 * minute of CPU each on a 2-core machine).
 */
export function createSeedTemplate(templateDir) {
  const info = seedFresh(templateDir, 0);
  writeFileSync(path.join(templateDir, TEMPLATE_INFO), JSON.stringify(info));
}

/**
 * A freshly seeded dev state in `persistTo`: a copy of the run's template when one is named (the
 * same seed, so the same answer, with this server's port in its addresses), else a seed of its own.
 */
function seedDevState(persistTo, port) {
  const template = process.env[SEED_TEMPLATE_VARIABLE];
  if (!template || !existsSync(path.join(template, TEMPLATE_INFO))) return seedFresh(persistTo, port);
  cpSync(template, persistTo, { recursive: true });
  const info = JSON.parse(readFileSync(path.join(template, TEMPLATE_INFO), "utf8"));
  const withPort = (address) => address.replace(/:0$/, `:${port}`);
  return { ...info, base_url: withPort(info.base_url), admin_url: withPort(info.admin_url) };
}

/**
 * `vars`: extra `--var NAME:value` for this run (e.g. OPS_TOKEN for the site move's end-to-end test).
 * `demoPlugin` (default true): the seeded demo plugin runs in this process on DEMO_PLUGIN_PORT.
 * Besides `stop`, the answer has `crash()` (SIGKILL to the whole process group, as a power cut would
 * stop it: nothing flushes, queued messages die with the runtime) and `restart()` (`wrangler dev`
 * again on the same persist dir, so D1, Durable Object storage and alarms are what the crash left).
 */
/** Where the seeded demo plugin's endpoint points (scripts/seed/plugin.ts DEMO_PLUGIN_PORT). */
export const DEMO_PLUGIN_PORT = 8789;

/** How long `stop()` lets `wrangler dev` exit on SIGTERM before its process group is killed. */
const STOP_GRACE_MS = 5000;

export async function startDevServer({ port, vars = {}, demoPlugin = true }) {
  // wrangler serves the admin UI from admin/dist (wrangler.jsonc assets): `npm test` builds it
  // first; a test file run on its own builds it here when it is missing.
  if (!existsSync(path.join(root, "admin", "dist", "index.html"))) {
    const { buildAdmin } = await import("../build-admin.mjs");
    await buildAdmin({ quiet: true });
  }
  const persistTo = mkdtempSync(path.join(os.tmpdir(), "driftwood-e2e-"));
  const info = seedDevState(persistTo, port);
  // The demo plugin answers the demo's content policies (docs/plugin-policies.md): without it every
  // write of the demo's content is refused, as under `npm start` without it. In this process.
  const { startPlugin } = await import("../../examples/plugin/server.mjs");
  const plugin = demoPlugin ? await startPlugin({ port: DEMO_PLUGIN_PORT, baseUrl: `http://127.0.0.1:${port}`, token: info.plugin_token, eventSecret: info.plugin_event_secret }) : null;
  let running;
  const stop = () => {
    running?.stopGroup();
    void plugin?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
  const start = async () => {
    running = spawnWrangler({ port, persistTo, vars });
    try {
      await running.ready();
    } catch (error) {
      stop();
      throw error;
    }
  };
  await start();
  return {
    info,
    port,
    persistTo,
    /** The demo plugin running in this process (`examples/plugin/server.mjs`), or null. */
    plugin,
    stop,
    /** Kills the whole process group with SIGKILL and waits until wrangler has exited. */
    crash: async () => {
      running.signal("SIGKILL");
      await running.exited;
    },
    /** Starts `wrangler dev` again on the same persist dir (after `crash`) and waits for /health. */
    restart: start,
  };
}

/**
 * `wrangler dev` on `persistTo` in its own process group (wrangler spawns workerd and esbuild
 * children: they are signalled through the group, never by name).
 */
function spawnWrangler({ port, persistTo, vars }) {
  // The run's prepared worker (scripts/lib/prebuilt-worker.mjs) when there is one: no bundling at
  // start, and nothing watched that a test writes. Else wrangler.jsonc (a file run on its own).
  const prebuilt = process.env[PREBUILT_WORKER_VARIABLE];
  const config = isPrebuiltWorker(prebuilt) ? ["--config", path.join(prebuilt, PREBUILT_CONFIG)] : [];
  const debugLog = process.env.DRIFTWOOD_E2E_WRANGLER_LOG;
  if (debugLog) mkdirSync(debugLog, { recursive: true });
  const logFile = debugLog ? openSync(path.join(debugLog, `wrangler-${port}-${Date.now()}.log`), "a") : undefined;
  // Local development policy (docs/outbound-addresses.md): the example plugin listens on 127.0.0.1.
  const child = spawn(process.execPath, [wranglerBin, "dev", ...config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo, "--var", "OUTBOUND_ALLOW_LOOPBACK:true", "--var", "UNREAD_BODY_DRAIN_BYTES:134217728", ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`])], {
    cwd: root,
    detached: true,
    // DRIFTWOOD_E2E_WRANGLER_LOG=<dir>: wrangler's debug log of each server into that folder — what
    // reloaded a worker ("Reloading local server", a watched file "changed") is written there.
    // DRIFTWOOD_E2E_WRANGLER_LOG_LEVEL=log keeps only the worker's own lines (a long bench's log).
    stdio: ["ignore", logFile ?? "ignore", "pipe"],
    // A prepared configuration never changes: wrangler need not watch it (a change event reloads the worker).
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      NO_COLOR: "1",
      ...(config.length > 0 ? { WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true" } : {}),
      ...(debugLog ? { WRANGLER_LOG: process.env.DRIFTWOOD_E2E_WRANGLER_LOG_LEVEL ?? "debug" } : {}),
    },
  });
  if (logFile !== undefined) closeSync(logFile); // the child has its own copy
  let stderr = "";
  child.stderr.on("data", (c) => (stderr = (stderr + c).slice(-4000)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  // SIGTERM, then SIGKILL to the group when wrangler has not exited within STOP_GRACE_MS: a wrangler
  // that ignored SIGTERM (seen after `restart()` in events-crash) outlived its test by an hour.
  // Once wrangler itself has exited, what is left of its group (a workerd it did not stop) is killed too.
  const stopGroup = () => {
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS);
    void exited.then(() => {
      clearTimeout(timer);
      signal("SIGKILL");
    });
  };
  const ready = async () => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        const res = await request(port, { host: "demo.localhost", path: "/health" });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`wrangler dev did not become ready: ${stderr}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  return { signal, stopGroup, ready, exited };
}
