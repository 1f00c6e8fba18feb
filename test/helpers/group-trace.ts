import { afterEach, beforeEach } from "vitest";
import { tracePhasesFrom, type PhaseTrace } from "../../shared/observability/write-phases";

/**
 * Traces the write phases of each test of the calling file and returns the sizes of the groups
 * committed together since the test began (`group_commit:<n>` marks; objects/site/write-group.ts).
 */
export function tracedGroups(): () => number[] {
  let trace: PhaseTrace = { marks: [] };
  beforeEach(() => {
    trace = { marks: [] };
    tracePhasesFrom(() => trace);
  });
  afterEach(() => tracePhasesFrom(null));
  return () => trace.marks.filter(([name]) => name.startsWith("group_commit:")).map(([name]) => Number(name.slice("group_commit:".length)));
}
