import { env } from "cloudflare:test";

/**
 * The pool's wrappers import the worker's entry point again on every call into a site object, every
 * alarm and every queue batch (`importModule(main)` in @cloudflare/vitest-pool-workers 0.23,
 * `dist/worker/lib/cloudflare/test-internal.mjs`), and vitest 4.1's module runner answers each such
 * import with two round trips to its Node side (`resolveId`, then `fetchModule` with `cached: true`)
 * although the module was evaluated long before. In `vitest run` no source changes while a runtime
 * lives (the re-import is there for watch mode), so the entry point's exports are kept after its
 * first import and handed back to later ones — the same module object the runner would answer.
 * Only the entry point: test and set-up files still go through the runner (set-up files must run
 * again for every file of a group). docs/testing.md, "Where the CPU goes".
 */
interface ModuleRunnerLike {
  import(id: string): Promise<unknown>;
  [MEMOISED]?: true;
}
const MEMOISED = Symbol.for("driftwood.memoMainImport");

const runner = (globalThis as { __vitest_mocker__?: { moduleRunner?: ModuleRunnerLike } }).__vitest_mocker__?.moduleRunner;

if (runner === undefined || typeof runner.import !== "function") {
  // Another pool or vitest version: slower, never wrong.
  console.warn("memo-main-import: no module runner at __vitest_mocker__.moduleRunner; the entry point is imported on every call as before");
} else if (!runner[MEMOISED]) {
  runner[MEMOISED] = true;
  const original = runner.import.bind(runner);
  let exports: unknown;
  runner.import = async (id: string) => {
    if (id !== env.TEST_WORKER_MAIN) return original(id);
    exports ??= await original(id);
    return exports;
  };
}
