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
 *   naming a test file in the same lane), and the spec reporter's `✖` lines;
 * - scripts/test-e2e.mjs: its `test:e2e: … FAILED` per-file lines;
 * - scripts/test.mjs: a suite stopped for silence.
 */

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

  add(raw) {
    const plain = raw.replace(ANSI, "").replace(/\r$/, "");
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

    const subtest = /^#\s+Subtest:\s+(.*\.test\.m?[jt]s)\s*$/.exec(trimmed);
    if (subtest?.[1]) this.#fileOf.set(lane, shortPath(subtest[1]));

    if (/^FAIL\s+\S/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "));
    if (/^❯\s+\S+\s+test\/\S+\.test\.ts\s.*\bfailed\b/.test(trimmed)) return this.#pick(lane, trimmed);
    const origin = /^This error originated in "([^"]+)"/.exec(trimmed)?.[1];
    if (origin) return this.#pick(lane, `${unhandled?.kind ?? "Unhandled error"} in ${origin}: ${unhandled?.message ?? ""}`.trim());
    if (/^(Test Files|Tests|Errors)\s+.*\b(failed|errors?)\b/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "));
    const notOk = /^not ok \d+ - (.*)$/.exec(trimmed);
    if (notOk?.[1]) {
      const name = notOk[1].replace(/\s+#.*$/, "");
      const file = this.#fileOf.get(lane);
      const isFile = /\.test\.m?[jt]s$/.test(name);
      return this.#pick(lane, isFile || !file ? `not ok ${isFile ? shortPath(name) : name}` : `not ok ${file} › ${name}`);
    }
    if (/^✖\s/.test(trimmed) && !/^✖ failing tests:?$/.test(trimmed)) return this.#pick(lane, trimmed);
    if (/^test:e2e: .*FAILED/.test(trimmed)) return this.#pick(lane, trimmed.replace(/\s+/g, " "));
    if (/^npm test: .* printed nothing for /.test(trimmed)) return this.#pick(lane, trimmed);
    return undefined;
  }

  #pick(lane, text) {
    const entry = `${lane}${text}`.trim();
    if (this.#seen.has(entry)) return;
    this.#seen.add(entry);
    this.#picked.push(entry);
  }

  lines() {
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
    out.push(`  ${suite.label}: ${picked.length === 0 ? "no failing test named in its output (read its last lines above)" : `${picked.length} line${picked.length === 1 ? "" : "s"}`}`);
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
