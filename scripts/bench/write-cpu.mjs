/**
 * CPU per write (issue #27 item 9, docs/write-fairness.md "CPU per write"): a fixed number of
 * operations sent one at a time, and the CPU (user + sys, from /proc) the runtime's processes —
 * every descendant of this Node process, that is workerd — spent on them, ÷ operations. On a
 * machine loaded by others, wall-clock throughput measures the load; this figure does not (the
 * runtime's own CPU is what it is whatever else runs), so it is the one to compare between
 * commits. BENCH_WRITE_CPU=<n> runs it after the probe (with BENCH_WRITE_PROBE=1).
 */
import { processTreeTicks } from "./cpu.mjs";
import os from "node:os";

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux everywhere). */
const TICKS_PER_SECOND = 100;

/** CPU ms (user + sys) of every descendant of this process (not this process itself); undefined off Linux. */
export function runtimeCpuMs() {
  try {
    const tree = processTreeTicks();
    tree.delete(process.pid);
    return ([...tree.values()].reduce((sum, ticks) => sum + ticks, 0) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * `count` operations one after the other; answers the runtime's CPU ms per operation, the wall ms
 * per operation and the load average at the start (for the record, not for comparison).
 */
export async function cpuPerOperation(count, op) {
  const load = os.loadavg()[0];
  const cpuBefore = runtimeCpuMs();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const r = await op(i);
    if (!r.ok) throw new Error(`CPU run: operation ${i} failed: ${r.status} ${String(r.text ?? "").slice(0, 300)}`);
  }
  const wall = performance.now() - t0;
  const cpuAfter = runtimeCpuMs();
  return { cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / count, wallMs: wall / count, load };
}

/**
 * `count` operations over `connections` connections at once (each sends its next when its last is
 * answered): the runtime's CPU ms per operation when writes queue up, as in the c50 figures.
 */
export async function cpuPerOperationConcurrent(count, connections, op) {
  const load = os.loadavg()[0];
  const cpuBefore = runtimeCpuMs();
  const t0 = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const i = next++;
        const r = await op(i).catch((error) => ({ ok: false, status: error.code ?? "error" }));
        if (!r.ok) failed += 1;
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpuAfter = runtimeCpuMs();
  return { cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / count, wallMs: wall / count, load, failed };
}
