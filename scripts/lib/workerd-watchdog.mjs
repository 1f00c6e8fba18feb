/**
 * A guard for the workerd suite's shared runtimes (docs/testing.md, "A silent workerd suite").
 *
 * Once (session 12, a clean-clone `npm test`, packed beside the end-to-end lane) a group's runtime
 * stopped mid-group: no file finished and no test timed out for 16 minutes — vitest's `testTimeout`
 * runs inside the runtime, so a runtime that no longer runs the test's timers never fires it. The
 * same group passed alone in 72 s. Until the cause is found, the suite is watched: when it prints
 * nothing for `limitSeconds`, its process group is killed and the groups (vitest projects
 * `workerd-N`) that had not finished every file are run again, whole — every test still runs and
 * must pass; a second silence fails the run.
 */
import { testGroups } from "./test-groups.mjs";

const ANSI = /\u001b\[[0-9;]*m/g;

/** Files that passed per project, from vitest's per-file lines (`✓ workerd-5 test/…`; `❯` marks a file with a failure). */
export function finishedFiles(output) {
  const done = new Map();
  for (const raw of output.split("\n")) {
    const line = raw.replace(ANSI, "");
    const match = /^\s*✓\s+(workerd-\d+)\s+(test\/\S+\.test\.ts)\s/.exec(line);
    if (!match) continue;
    const files = done.get(match[1]) ?? new Set();
    files.add(match[2]);
    done.set(match[1], files);
  }
  return done;
}

/** The projects that did not pass every one of their files (unfinished, or a file failed: run again whole). */
export function unfinishedProjects(output, groupSize = Number(process.env.TEST_GROUP_SIZE ?? 34)) {
  const done = finishedFiles(output);
  return testGroups(groupSize)
    .map((files, index) => ({ name: `workerd-${index + 1}`, files }))
    .filter(({ name, files }) => (done.get(name)?.size ?? 0) < files.length)
    .map(({ name }) => name);
}

/**
 * CPU seconds (user + system) so far of every process in process group `pgid`, read from /proc
 * (Linux; an empty list elsewhere): taken twice a few seconds apart when the suite goes silent, it
 * tells a runtime spinning (its workerd's CPU still grows: a loop in the isolate) from one waiting
 * on something that never comes (flat: a lost message, a deadlock) — what the stalls seen so far
 * could not tell (docs/testing.md, "A silent workerd suite").
 */
export function groupCpu(pgid, readdir, readFile) {
  const ticks = 100; // USER_HZ on Linux
  const found = [];
  for (const entry of readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFile(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: fields count from after it.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const name = readFile(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).map((part) => part.split("/").pop()).slice(0, 3).join(" ").slice(0, 80);
      found.push({ pid: Number(entry), name, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks });
    } catch {}
  }
  return found;
}

/** Two `groupCpu` readings side by side: one line per process, its CPU seconds and how much they grew. */
export function cpuGrowth(before, after, seconds) {
  return after.map((p) => {
    const was = before.find((b) => b.pid === p.pid)?.cpuSeconds ?? 0;
    return `pid ${p.pid} (${p.name}): ${p.cpuSeconds.toFixed(1)} s of CPU, +${(p.cpuSeconds - was).toFixed(2)} s in ${seconds} s`;
  });
}
