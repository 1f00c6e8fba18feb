/**
 * The processes an end-to-end lane runs (scripts/test-e2e.mjs): a `node --test` of some files, or
 * the lane's admin host (scripts/lib/e2e-admin-host.mjs: one shared server and browser that runs
 * the admin files the lane sends it). Each in a network namespace of its own when `isolated`
 * (`unshare -n`, its own loopback: the files' fixed ports never clash with another lane's), its
 * output lines prefixed with the lane's name, and — with E2E_CPU_CGROUP (scripts/lib/cpu-cgroup.mjs)
 * — its CPU with every process it started.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { CPU_CGROUP_VARIABLE, cpuCgroup } from "./cpu-cgroup.mjs";
import { root } from "./load-ts.mjs";

/** Spawns `node` (an argument list) for lane `name`; resolves `closed` with its exit code, seconds and CPU. */
function spawnInLane(name, node, env, { isolated, label, stdin = "ignore", report = false }) {
  const quoted = node.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const cgroup = cpuCgroup(`${name}-${label}`, env);
  const [command, args] = (cgroup?.wrap ?? ((c, a) => [c, a]))(...(isolated ? ["unshare", ["-n", "sh", "-c", `ip link set lo up && exec ${quoted}`]] : [node[0], node.slice(1)]));
  const started = Date.now();
  // The admin host measures each file against its own cgroup.
  const child = spawn(command, args, { cwd: root, env: cgroup && report ? { ...env, [CPU_CGROUP_VARIABLE]: cgroup.dir } : env, stdio: [stdin, "pipe", "pipe", ...(report ? ["pipe"] : [])] });
  for (const [stream, target] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) target.write(`[${name}] ${line}\n`);
    });
    stream.on("end", () => rest && target.write(`[${name}] ${rest}\n`));
  }
  const closed = new Promise((resolve) => {
    // A process that could not start (EAGAIN under CI's load) fails its files, named, instead of
    // ending the runner as an unhandled 'error' event.
    child.on("error", (error) => {
      process.stderr.write(`[${name}] ${label}: its process failed: ${error.stack ?? error}\n`);
      resolve({ code: 1, seconds: (Date.now() - started) / 1000, cpu: undefined });
    });
    child.on("close", (code, signal) => {
      const cpu = cgroup?.seconds();
      cgroup?.remove();
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, cpu });
    });
  });
  return { child, closed };
}

/** Runs `node --test` on `files` (one at a time) in lane `name`; resolves with the run for the summary. */
export async function runFiles(name, files, env, isolated) {
  const label = files.length === 1 ? path.basename(files[0]) : "node";
  const { closed } = spawnInLane(name, [process.execPath, "--test", "--test-concurrency=1", ...files], env, { isolated, label });
  return { name, files, ...(await closed) };
}

/**
 * Starts lane `name`'s admin host in a network namespace of its own. `run(file)` sends it one admin
 * file and resolves with that file's run; `close()` stops its server and browser and resolves with
 * one run for the host itself (its start and stop, and the CPU not spent during a file).
 */
export function startAdminHost(name, env) {
  const { child, closed } = spawnInLane(name, [process.execPath, "scripts/lib/e2e-admin-host.mjs"], env, { isolated: true, label: "admin-host", stdin: "pipe", report: true });
  const messages = [];
  const waiting = [];
  let ended = false;
  const lines = createInterface({ input: child.stdio[3] });
  lines.on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  lines.on("close", () => {
    ended = true;
    for (const waiter of waiting.splice(0)) waiter(null);
  });
  // The next report line of the host, or null when it has exited.
  const next = () => (messages.length > 0 ? Promise.resolve(messages.shift()) : ended ? Promise.resolve(null) : new Promise((resolve) => waiting.push(resolve)));
  const ready = next();
  const runs = [];
  child.stdin.on("error", () => {}); // a host that died: its files fail below, not the runner
  return {
    /** False once the host has exited (a server that died): the lane then starts another. */
    alive: () => !ended,
    async run(file) {
      // A host whose server or browser did not start fails every file it is sent (none is skipped).
      const up = await ready;
      let result = null;
      if (up?.ok && !ended) {
        child.stdin.write(`${file}\n`);
        result = await next();
      }
      const run = { name, files: [file], code: result?.code ?? 1, seconds: result?.seconds ?? 0, cpu: result?.cpu };
      runs.push(run);
      return run;
    },
    async close() {
      const up = await ready;
      child.stdin.end();
      const stopped = await next();
      const host = await closed;
      const spent = (key) => runs.reduce((sum, r) => sum + (r[key] ?? 0), 0);
      return {
        name,
        files: [`shared admin server and browser for ${runs.length} files (start and stop)`],
        code: host.code === 0 || runs.some((r) => r.code !== 0) ? 0 : host.code,
        seconds: (up?.started ?? 0) + (stopped?.stopped ?? 0),
        cpu: host.cpu === undefined ? undefined : host.cpu - spent("cpu"),
      };
    },
  };
}
