/**
 * CPU accounting for the bench figures (bench.mjs, bench/write-figures.mjs), from /proc (Linux);
 * undefined elsewhere.
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time on the whole machine and in this process tree (node + workerd), from /proc (Linux), so
 * each figure can say how much CPU other processes took while it ran. Undefined elsewhere.
 */
export function cpuSnapshot() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const oursBusy = [...processTreeTicks().values()].reduce((sum, ticks) => sum + ticks, 0);
    return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal, ours: oursBusy };
  } catch {
    return undefined;
  }
}

/** Share of the machine's CPU (all cores = 100 %) that processes outside this bench used between two snapshots. */
export function otherCpu(a, b) {
  if (!a || !b || b.total <= a.total) return undefined;
  // Our processes that ended in between (none should) would make this negative: clamp.
  return Math.max(0, ((b.busy - a.busy - (b.ours - a.ours)) / (b.total - a.total)) * 100);
}

/** Machine busy %, ours % and others' % (all cores = 100 %) between two snapshots. */
export function cpuBetween(a, b) {
  if (!a || !b || b.total <= a.total) return undefined;
  const span = b.total - a.total;
  const busy = ((b.busy - a.busy) / span) * 100;
  const ours = Math.min(busy, ((b.ours - a.ours) / span) * 100);
  return { busy, ours, other: Math.max(0, busy - ours) };
}

/**
 * Clock ticks (user + sys, /proc's utime + stime) of this process and every descendant, by pid
 * (Linux; throws elsewhere: callers answer undefined).
 */
export function processTreeTicks() {
  const parents = new Map();
  const ticks = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(rest[1]));
      ticks.set(Number(entry), Number(rest[11]) + Number(rest[12]));
    } catch {
      // the process ended while we looked
    }
  }
  const ours = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) if (!ours.has(pid) && ours.has(ppid)) (ours.add(pid), (grew = true));
  }
  return new Map([...ours].map((pid) => [pid, ticks.get(pid) ?? 0]));
}
