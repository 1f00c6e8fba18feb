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
