import { describe, expect, it } from "vitest";
import { FailureCollector, failureSummary, flakySummary } from "../../scripts/lib/failure-summary.mjs";

const collect = (lines: string[]) => {
  const collector = new FailureCollector();
  for (const line of lines) collector.add(line);
  return collector.lines();
};

describe("npm test's failure summary (scripts/lib/failure-summary.mjs)", () => {
  it("picks vitest's failed files, failed tests, unhandled errors and counts — colours and prefixes removed", () => {
    const picked = collect([
      "[workerd]  \u001b[32m✓\u001b[39m workerd-3 test/integration/a.test.ts (4 tests) 812ms",
      "[workerd]  \u001b[31m❯\u001b[39m workerd-4 test/integration/plugin-schedules.test.ts (9 tests | 1 failed) 31200ms",
      "[workerd]    × runs a due schedule 30004ms",
      "[workerd] ⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
      "[workerd]  \u001b[41m FAIL \u001b[49m workerd-4 test/integration/plugin-schedules.test.ts > schedules > runs a due schedule",
      "[workerd] Error: Test timed out in 30000ms.",
      "[workerd] ⎯⎯⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯⎯⎯",
      "[workerd] TypeError: x is not a function",
      "[workerd]  ❯ shared/services/x.ts:10:3",
      '[workerd] This error originated in "test/integration/b.test.ts" test file. It doesn\'t mean the error was thrown inside the file itself, but while it was running.',
      "[workerd]  Test Files  1 failed | 33 passed (34)",
      "[workerd]       Tests  1 failed | 300 passed (301)",
      "[workerd]      Errors  1 error",
      "[workerd]  Test Files  34 passed (34)",
    ]);
    expect(picked).toEqual([
      "[workerd] ❯ workerd-4 test/integration/plugin-schedules.test.ts (9 tests | 1 failed) 31200ms",
      "[workerd] FAIL workerd-4 test/integration/plugin-schedules.test.ts > schedules > runs a due schedule — Error: Test timed out in 30000ms.",
      "[workerd] Unhandled Rejection in test/integration/b.test.ts: TypeError: x is not a function",
      "[workerd] Test Files 1 failed | 33 passed (34)",
      "[workerd] Tests 1 failed | 300 passed (301)",
      "[workerd] Errors 1 error",
    ]);
  });

  it("names the file of a failing node --test (TAP) test per lane, and the runner's FAILED lines", () => {
    const picked = collect([
      "[e2e] [e2e-1] # Subtest: /work/x/test/e2e/cli.test.mjs",
      "[e2e] [e2e-2] # Subtest: /work/x/test/e2e/admin-ui-people.test.mjs",
      "[e2e] [e2e-1]     not ok 3 - refuses a bad token # TODO",
      "[e2e] [e2e-2]     ok 1 - lists people",
      "[e2e] [e2e-1] not ok 1 - /work/x/test/e2e/cli.test.mjs",
      "[e2e] test:e2e: e2e-1    41 s FAILED (exit 1) test/e2e/cli.test.mjs",
      "[e2e] test:e2e: e2e-2    20 s passed test/e2e/admin-ui-people.test.mjs",
    ]);
    expect(picked).toEqual([
      "[e2e] [e2e-1] not ok test/e2e/cli.test.mjs › refuses a bad token",
      "[e2e] [e2e-1] not ok test/e2e/cli.test.mjs",
      "[e2e] test:e2e: e2e-1 41 s FAILED (exit 1) test/e2e/cli.test.mjs",
    ]);
  });

  it("adds the first lines of a TAP failure's error (quoted or a block) to its not ok line", () => {
    const picked = collect([
      "[e2e-1] # Subtest: /work/x/test/e2e/admin-ui-lifecycle.test.mjs",
      "[e2e-1]     not ok 1 - takes over",
      "[e2e-1]       ---",
      "[e2e-1]       duration_ms: 30012.5",
      "[e2e-1]       failureType: 'testCodeFailure'",
      "[e2e-1]       error: |-",
      "[e2e-1]         locator.waitFor: Timeout 30000ms exceeded.",
      "[e2e-1]         Call log:",
      "[e2e-1]           - waiting for getByText('You are editing') to be visible",
      "[e2e-1]           - more",
      "[e2e-1]       code: 'ERR_TEST_FAILURE'",
      "[e2e-1]       ...",
      "[e2e-1]     not ok 2 - saves",
      "[e2e-1]       ---",
      "[e2e-1]       error: 'Expected values to be strictly equal: it''s 1'",
      "[e2e-1]       ...",
      "[e2e-1]     not ok 3 - cut short",
      "[e2e-1]       error: |-",
      "[e2e-1]         refused: the server is gone",
    ]);
    expect(picked).toEqual([
      "[e2e-1] not ok test/e2e/admin-ui-lifecycle.test.mjs › takes over — locator.waitFor: Timeout 30000ms exceeded. / Call log: / - waiting for getByText('You are editing') to be visible",
      "[e2e-1] not ok test/e2e/admin-ui-lifecycle.test.mjs › saves — Expected values to be strictly equal: it's 1",
      "[e2e-1] not ok test/e2e/admin-ui-lifecycle.test.mjs › cut short — refused: the server is gone",
    ]);
  });

  it("names the files that passed only on their second run, alone, even when everything passed", () => {
    const collector = new FailureCollector();
    collector.add("[e2e] test:e2e: e2e-1 test/e2e/x.test.mjs FAILED (its lines above): once more, alone, on a server of its own");
    collector.add("[e2e] test:e2e: e2e-1   40 s failed (exit 1), then passed alone: flaky here test/e2e/x.test.mjs");
    collector.add("[e2e] test:e2e: e2e-1   12 s passed (its second run, alone) test/e2e/x.test.mjs");
    expect(collector.flaky()).toEqual(["test:e2e: e2e-1 40 s failed (exit 1), then passed alone: flaky here test/e2e/x.test.mjs"]);
    expect(flakySummary([{ flaky: collector.flaky() }, {}])).toEqual([
      "npm test: passed only on a second run, alone (flaky here; their first run's lines are above):",
      "  test:e2e: e2e-1 40 s failed (exit 1), then passed alone: flaky here test/e2e/x.test.mjs",
    ]);
    expect(flakySummary([{ flaky: [] }])).toEqual([]);
  });

  it("keeps each line once and prints nothing when every suite passed", () => {
    expect(collect(["✖ a test (12ms)", "✖ a test (12ms)", "✖ failing tests:"])).toEqual(["✖ a test (12ms)"]);
    expect(failureSummary([{ label: "workerd suite", code: 0, failures: [] }])).toEqual([]);
  });

  it("stays within its line limit and says what it left out", () => {
    const many = Array.from({ length: 60 }, (_, i) => `FAIL workerd-1 test/unit/x.test.ts > test ${i}`);
    const printed = failureSummary(
      [
        { label: "typecheck", code: 0 },
        { label: "workerd suite", code: 1, failures: many },
        { label: "node and end-to-end suite", code: 1, failures: [] },
      ],
      40,
    );
    expect(printed.length).toBeLessThanOrEqual(40);
    expect(printed[0]).toBe("npm test: what failed (the lines above, again):");
    expect(printed[1]).toBe("  workerd suite: 60 lines");
    expect(printed).toContain("    … and 24 more");
    expect(printed.at(-1)).toBe("  node and end-to-end suite: no failing test named in its output (read its last lines above)");
    expect(failureSummary([{ label: "node and end-to-end suite", code: 1, failures: [] }])).toEqual([
      "npm test: what failed (the lines above, again):",
      "  node and end-to-end suite: no failing test named in its output (read its last lines above)",
    ]);
  });

  it("shows the last lines of a suite whose runner crashed without naming a test (CI of 0.11.0 printed nothing of it)", () => {
    const collector = new FailureCollector();
    const crash = ["[e2e] file:///check/scripts/test-e2e.mjs:280", "[e2e] Error: preparing the worker bundle or the browser failed: EACCES", "[e2e]     at prepareWorker (scripts/lib/prebuilt-worker.mjs:40:11)"];
    for (const line of ["[e2e] [node] ok 1 - a", "", ...Array.from({ length: 30 }, (_, i) => `[e2e] [node] line ${i}`), ...crash]) collector.add(line);
    expect(collector.lines()).toEqual([]);
    expect(collector.tail()).toHaveLength(20);
    const printed = failureSummary([{ label: "node and end-to-end suite", code: 1, failures: collector.lines(), tail: collector.tail() }]);
    expect(printed[1]).toBe("  node and end-to-end suite: no failing test named in its output; its last lines:");
    expect(printed.slice(-3)).toEqual(crash.map((line) => `    ${line}`));
    expect(printed).toHaveLength(22);
  });
});
