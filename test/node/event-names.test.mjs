/**
 * docs/events.md documents exactly the events the services emit: every name of `EVENT_NAMES`
 * (shared/events/names.ts) has a row in its "Events emitted today" table, and the table has no
 * other name. Run by `npm run test:e2e`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { loadTs, root } from "../../scripts/lib/load-ts.mjs";

describe("event names", () => {
  it("docs/events.md's table lists exactly EVENT_NAMES", async () => {
    const { EVENT_NAMES } = await loadTs("shared/events/names.ts");
    const doc = readFileSync(path.join(root, "docs", "events.md"), "utf8");
    const table = doc.split("## Events emitted today")[1]?.split("\n## ")[0] ?? "";
    const documented = [...table.matchAll(/^\| `([a-z_]+(?:\.[a-z_]+)+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...documented].sort(), [...EVENT_NAMES].sort());
  });
});
