/**
 * The workerd suite's files in groups that share one runtime (vitest.config.ts makes a project of
 * each): every `*.test.ts` under test/objects, test/unit and test/integration, sorted by path, cut
 * into groups of `size`.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { root } from "./load-ts.mjs";

/**
 * The worker's entry point as the pool resolves wrangler.jsonc's `main` (an absolute path):
 * test/setup/memo-main-import.ts keeps its exports after the first import.
 */
export const workerMain = path.join(root, "workers", "index.ts");

export function testGroups(size) {
  const files = ["objects", "unit", "integration"]
    .flatMap((dir) => readdirSync(path.join(root, "test", dir)).filter((f) => f.endsWith(".test.ts")).map((f) => `test/${dir}/${f}`))
    .sort();
  const groups = [];
  for (let i = 0; i < files.length; i += size) groups.push(files.slice(i, i + size));
  return groups;
}
