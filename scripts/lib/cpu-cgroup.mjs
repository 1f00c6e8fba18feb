/**
 * CPU seconds of one end-to-end file (or a lane's admin host) with every process it started — the detached
 * `wrangler dev` and `workerd` groups and Chromium included, which `/usr/bin/time` misses when
 * they outlive their parent (docs/testing.md, "Where the CPU goes"). Asked for with
 * `E2E_CPU_CGROUP=<dir>`, a directory of a cgroup v1 `cpuacct` hierarchy the run may write (root:
 * `mkdir /sys/fs/cgroup/cpuacct/e2e`); each file's command then runs in a cgroup of its own under
 * it, and the run's summary prints its CPU beside its seconds. Unset (the default, CI), nothing
 * changes: a measuring aid, not part of what is tested.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import path from "node:path";

/** The environment variable naming the parent cgroup (the admin host is given its own, to measure each file against). */
export const CPU_CGROUP_VARIABLE = "E2E_CPU_CGROUP";

let made = 0;

/**
 * A cgroup for one command under the directory `E2E_CPU_CGROUP` names, or null when it is not set
 * or not a cpuacct cgroup. `wrap(command, args)` gives the command that enters it before anything
 * starts (a shell that writes its own pid, then `exec`s); `seconds()` reads its CPU so far;
 * `remove()` drops it (left in place while a process of it still runs).
 */
export function cpuCgroup(name, env = process.env) {
  const parent = env[CPU_CGROUP_VARIABLE];
  if (!parent || !existsSync(path.join(parent, "cpuacct.usage"))) return null;
  made += 1;
  const dir = path.join(parent, `${process.pid}-${made}-${name.replace(/[^\w.-]+/g, "_").slice(-60)}`);
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    wrap: (command, args) => ["sh", ["-c", `echo $$ > '${dir}/cgroup.procs' && exec "$@"`, "sh", command, ...args]],
    seconds: () => Number(readFileSync(path.join(dir, "cpuacct.usage"), "utf8")) / 1e9,
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {}
    },
  };
}
