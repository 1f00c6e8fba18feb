/**
 * The deployable configuration never turns on the local development outbound policy
 * (docs/outbound-addresses.md): neither wrangler.jsonc's top-level vars nor any of its `env`
 * sections set OUTBOUND_ALLOW_LOOPBACK. Only `npm start` and the end-to-end dev server pass it,
 * with `wrangler dev --var`. Run by `npm run test:e2e`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { root } from "../../scripts/lib/load-ts.mjs";

describe("deployable configuration", () => {
  it("never allows outbound calls to loopback", async () => {
    const { unstable_readConfig } = await import("wrangler");
    const config = unstable_readConfig({ config: path.join(root, "wrangler.jsonc") }, { hideWarnings: true });
    const raw = readFileSync(path.join(root, "wrangler.jsonc"), "utf8");
    assert.equal(config.vars?.OUTBOUND_ALLOW_LOOPBACK, undefined);
    assert.doesNotMatch(raw, /OUTBOUND_ALLOW_LOOPBACK/);
  });

  it("leaves the unread-body drain at its default (the local stall it avoids does not exist on Cloudflare)", () => {
    assert.doesNotMatch(readFileSync(path.join(root, "wrangler.jsonc"), "utf8"), /UNREAD_BODY_DRAIN_BYTES/);
  });
});
