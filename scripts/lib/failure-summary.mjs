/**
 * The failures of a long suite, picked from its output lines as they stream, so `npm test` can
 * print them again at its very end (CI shows only the tail of a run's output; docs/testing.md,
 * "Failures at the end"). Pure string work: no Node APIs, so a workerd unit test can check it.
 *
 * Picked:
 * - vitest: the `FAIL  workerd-N test/… > suite > test` lines of its "Failed Tests" section, a
 *   failed file's `❯ workerd-N test/….test.ts (… | n failed)` line, each unhandled error (its
 *   kind, its first line and the file it "originated in"), and its summary lines when they count
 *   a failure or an error;
 * - node --test (TAP): every `not ok` line, with the file it belongs to (the last `# Subtest:`
 *   naming a test file in the same lane) and the first lines of its YAML `error:` (a Playwright
 *   timeout names its locator only on the third), and the spec reporter's `✖` lines;
 * - the first line after a vitest `FAIL` line (its error: "AssertionError: expected …");
 * - scripts/test-e2e.mjs: its `test:e2e: … FAILED` per-file lines;
 * - scripts/test.mjs: a suite stopped for silence.
 */

/** How many last lines a suite that failed without naming a test shows again at the end. */
const TAIL_LINES = 20;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** `[e2e] [e2e-1] ` style prefixes that the runners put in front of a line. */
const PREFIX = /^((?:\[[\w-]+\]\s)*)/;

/**
 * Collects failure lines of one suite. `add(line)` for every output line (ANSI colours and lane
 * prefixes allowed); `lines()` the picked ones, each once, in order.
 */
export class FailureCollector {
  #picked = [];
  #seen = new Set();
  /** Per lane prefix: the test file its `node --test` is in. */
  #fileOf = new Map();
  /** Per lane prefix: an unhandled error being read (its kind, then its first line). */
  #unhandled = new Map();
  /** scripts/test-e2e.mjs's lines for files that failed once and passed on their second run, alone. */
  #flaky = [];
  /** Per lane prefix: the picked failure whose error is still to be read, and how far it got. */
  #awaiting = new Map();
  /** The last non-empty lines, for a suite that failed without naming a test (a crash of its runner). */
  #tail = [];

  add(raw) {
    const plain = raw.replace(ANSI, "").replace(/\r$/, "");
    if (plain.trim() !== "") {
      this.#tail.push(plain.length > 300 ? `${plain.slice(0, 299)}…` : plain);
      if (this.#tail.length > TAIL_LINES) this.#tail.shift();
    }
    const lane = PREFIX.exec(plain)?.[1] ?? "";
    const line = plain.slice(lane.length);
    const trimmed = line.trim();
    const unhandledKind = /^⎯+\s*(Unhandled \w+)\s*⎯+$/.exec(trimmed)?.[1];
    if (unhandledKind) {
      this.#unhandled.set(lane, { kind: unhandledKind, message: "" });
      return undefined;
    }
    const unhandled = this.#unhandled.get(lane);
    if (unhandled && unhandled.message === "" && trimmed !== "") unhandled.message = trimmed;

    if (this.#awaiting.has(lane) && this.#readError(lane, trimmed)) return undefined;

    const subtest = /^#\s+Subtest:\s+(.*\.test\.m?[jt]s)\s*$/.exec(trimmed);
    if (subtest?.[1]) this.#fileOf.set(lane, shortPath(subtest[1]));

    if (/^FAIL\s+\S/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "), "vitest");
    if (/^❯\s+\S+\s+test\/\S+\.test\.ts\s.*\bfailed\b/.test(trimmed)) return this.#pick(lane, trimmed);
    const origin = /^This error originated in "([^"]+)"/.exec(trimmed)?.[1];
    if (origin) return this.#pick(lane, `${unhandled?.kind ?? "Unhandled error"} in ${origin}: ${unhandled?.message ?? ""}`.trim());
    if (/^(Test Files|Tests|Errors)\s+.*\b(failed|errors?)\b/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "));
    const notOk = /^not ok \d+ - (.*)$/.exec(trimmed);
    if (notOk?.[1]) {
      const name = notOk[1].replace(/\s+#.*$/, "");
      const file = this.#fileOf.get(lane);
      const isFile = /\.test\.m?[jt]s$/.test(name);
      return this.#pick(lane, isFile || !file ? `not ok ${isFile ? shortPath(name) : name}` : `not ok ${file} › ${name}`, isFile ? undefined : "tap");
    }
    if (/^✖\s/.test(trimmed) && !/^✖ failing tests:?$/.test(trimmed)) return this.#pick(lane, trimmed);
    if (/^test:e2e: .*then passed alone: flaky here/.test(trimmed)) this.#flaky.push(trimmed.replace(/\s+/g, " "));
    if (/^test:e2e: .*FAILED/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "));
    if (/^npm test: .* printed nothing for /.test(trimmed)) return this.#pick(lane, trimmed);
    return undefined;
  }

  #pick(lane, text, errorFollows) {
    const entry = `${lane}${text}`.trim();
    this.#awaiting.delete(lane);
    if (this.#seen.has(entry)) return;
    this.#seen.add(entry);
    this.#picked.push(entry);
    if (errorFollows) this.#awaiting.set(lane, { index: this.#picked.length - 1, kind: errorFollows, block: false, parts: [] });
  }

  /**
   * Reads the error of the failure picked last in `lane` from the lines after it: TAP's YAML
   * `error: 'text'` or `error: |-` and its block (at most three lines), or the first line after a
   * vitest FAIL line. Returns whether the line was taken; ends the wait where the failure's
   * details end.
   */
  #readError(lane, trimmed) {
    const wait = this.#awaiting.get(lane);
    const append = () => {
      if (wait.parts.length === 0) return;
      const error = wait.parts.join(" / ");
      this.#picked[wait.index] += ` — ${error.length > 300 ? `${error.slice(0, 299)}…` : error}`;
    };
    const end = () => {
      append();
      this.#awaiting.delete(lane);
    };
    if (wait.kind === "vitest") {
      if (trimmed === "" || /^⎯+/.test(trimmed)) return trimmed === "";
      wait.parts.push(trimmed);
      end();
      return true;
    }
    if (trimmed === "..." || /^(not )?ok \d+ /.test(trimmed) || /^# Subtest:/.test(trimmed)) {
      end();
      return false;
    }
    if (wait.block) {
      if (/^[a-z_]+:(\s|$)/.test(trimmed) && wait.parts.length > 0) {
        end();
        return false;
      }
      if (trimmed !== "") wait.parts.push(trimmed);
      if (wait.parts.length >= 3) end();
      return true;
    }
    const error = /^error:\s*(.*)$/.exec(trimmed)?.[1];
    if (error === undefined) return false;
    if (/^[|>][-+]?$/.test(error)) {
      wait.block = true;
      return true;
    }
    wait.parts.push(error.replace(/^'(.*)'$/, "$1").replace(/''/g, "'"));
    end();
    return true;
  }

  /** The files that passed only on their second run (printed at the end even when all passed). */
  flaky() {
    return [...this.#flaky];
  }

  /** The suite's last non-empty lines (at most TAIL_LINES), colours removed. */
  tail() {
    return [...this.#tail];
  }

  lines() {
    // A failure whose error block the output ended in keeps what was read of it.
    for (const lane of [...this.#awaiting.keys()]) this.#readError(lane, "...");
    return [...this.#picked];
  }
}

/** A test file's path from the repository's `test/` on (TAP names files by absolute path). */
function shortPath(file) {
  const at = file.lastIndexOf("/test/");
  return at >= 0 ? file.slice(at + 1) : file;
}

/**
 * The block printed at the end of `npm test`: each failed suite's name and picked lines, at most
 * `limit` lines in all (each failed suite keeps its name line; lines left out are counted),
 * nothing when nothing failed.
 */
export function failureSummary(suites, limit = 40) {
  const failed = suites.filter((s) => s.code !== 0);
  if (failed.length === 0) return [];
  const out = ["npm test: what failed (the lines above, again):"];
  let budget = limit - out.length - failed.length;
  for (const suite of failed) {
    const picked = suite.failures ?? [];
    const tail = picked.length === 0 ? (suite.tail ?? []) : [];
    out.push(`  ${suite.label}: ${picked.length === 0 ? `no failing test named in its output${tail.length > 0 ? "; its last lines:" : " (read its last lines above)"}` : `${picked.length} line${picked.length === 1 ? "" : "s"}`}`);
    // A runner that crashed names no test: its last lines are what CI's tail must show.
    for (const line of tail.slice(-Math.max(0, budget))) out.push(`    ${line}`);
    budget -= Math.min(tail.length, Math.max(0, budget));
    const shown = picked.length <= budget ? picked : picked.slice(0, Math.max(0, budget - 1));
    for (const line of shown) out.push(`    ${line}`);
    budget -= shown.length;
    if (shown.length < picked.length && budget > 0) {
      out.push(`    … and ${picked.length - shown.length} more`);
      budget -= 1;
    }
  }
  return out;
}

/** Lines naming the files that passed only when run a second time, alone: flaky on this machine. */
export function flakySummary(suites) {
  const flaky = suites.flatMap((s) => s.flaky ?? []);
  if (flaky.length === 0) return [];
  return ["npm test: passed only on a second run, alone (flaky here; their first run's lines are above):", ...flaky.map((line) => `  ${line}`)];
}
