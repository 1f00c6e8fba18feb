import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  IdempotencyLedger,
  PENDING_CLAIM_TTL_MS,
  RETENTION_DEFAULT_MS,
  RETENTION_LIFECYCLE_MS,
  STALE_RUNNING_MS,
  type ClaimResult,
} from "../../objects/site/idempotency";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

const request = { scope: "cred_1:POST /entries", key: "k1", fingerprint: "fp-a", retentionMs: RETENTION_DEFAULT_MS };

describe("IdempotencyLedger", () => {
  it("exports its retention constants", () => {
    expect(RETENTION_LIFECYCLE_MS).toBe(30 * 24 * 3600 * 1000);
    expect(RETENTION_DEFAULT_MS).toBe(24 * 3600 * 1000);
    expect(PENDING_CLAIM_TTL_MS).toBe(24 * 3600 * 1000);
  });

  it("claims, completes, then replays the exact answer", async () => {
    await inSiteStorage("test-ledger-replay", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.claim(request)).toEqual({ kind: "claimed" });
      expect(ledger.complete(request.scope, request.key, { status: 201, body: '{"id":"ent_1"}' }, RETENTION_DEFAULT_MS)).toBe(true);
      expect(ledger.claim(request)).toEqual({ kind: "replay", status: 201, body: '{"id":"ent_1"}' });
      expect(ledger.claim(request)).toEqual({ kind: "replay", status: 201, body: '{"id":"ent_1"}' });
    });
  });

  it("reports reuse of a key with another request, pending or completed", async () => {
    await inSiteStorage("test-ledger-reused", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.claim(request).kind).toBe("claimed");
      expect(ledger.claim({ ...request, fingerprint: "fp-b" })).toEqual({ kind: "reused" });
      ledger.complete(request.scope, request.key, { status: 200, body: "ok" });
      expect(ledger.claim({ ...request, fingerprint: "fp-b" })).toEqual({ kind: "reused" });
      expect(ledger.claim(request)).toEqual({ kind: "replay", status: 200, body: "ok" });
    });
  });

  it("says in_progress with a Retry-After while the command runs here", async () => {
    await inSiteStorage("test-ledger-in-progress", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.claim(request).kind).toBe("claimed");
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: 1 });
    });
  });

  it("says in_progress without Retry-After for a stale-pending claim (object restarted mid-command)", async () => {
    await inSiteStorage("test-ledger-stale", (storage) => {
      new IdempotencyLedger(storage, new FakeClock()).claim(request);
    });
    // Evict the object, as the runtime may mid-command: the claim stays pending in storage, but
    // the new instance (and its new ledger) is not running it.
    await evictDurableObject(env.SITE.getByName("test-ledger-stale"));
    await inSiteStorage("test-ledger-stale", (storage) => {
      const clock = new FakeClock();
      const ledger = new IdempotencyLedger(storage, clock);
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: null });
      expect(ledger.claim({ ...request, fingerprint: "fp-b" })).toEqual({ kind: "reused" });
      // Pending claims stop blocking after their TTL.
      clock.advance(PENDING_CLAIM_TTL_MS);
      expect(ledger.claim(request)).toEqual({ kind: "claimed" });
    });
  });

  it("lets one request take over a stale-pending claim; identical ones then see it running; a stuck run is stale and never taken over", async () => {
    await inSiteStorage("test-ledger-take-over", (storage) => {
      new IdempotencyLedger(storage, new FakeClock()).claim(request);
    });
    await evictDurableObject(env.SITE.getByName("test-ledger-take-over"));
    await inSiteStorage("test-ledger-take-over", (storage) => {
      const clock = new FakeClock();
      const ledger = new IdempotencyLedger(storage, clock);
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: null });
      expect(ledger.takeOver(request.scope, request.key)).toBe(true);
      expect(ledger.takeOver(request.scope, request.key)).toBe(false);
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: 1 });
      // Still running here long after any command finishes: stuck, stale-pending, not taken over.
      clock.advance(STALE_RUNNING_MS);
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: null });
      expect(ledger.takeOver(request.scope, request.key)).toBe(false);
      // A completed claim is not pending: nothing to take over.
      ledger.complete(request.scope, request.key, { status: 200, body: "ok" });
      expect(ledger.takeOver(request.scope, request.key)).toBe(false);
    });
  });

  it("gives back a take-over whose outcome could not be learnt, so a later request may try", async () => {
    await inSiteStorage("test-ledger-release", (storage) => {
      new IdempotencyLedger(storage, new FakeClock()).claim(request);
    });
    await evictDurableObject(env.SITE.getByName("test-ledger-release"));
    await inSiteStorage("test-ledger-release", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.takeOver(request.scope, request.key)).toBe(true);
      ledger.release(request.scope, request.key);
      expect(ledger.claim(request)).toEqual({ kind: "in_progress", retryAfterSeconds: null });
      expect(ledger.takeOver(request.scope, request.key)).toBe(true);
    });
  });

  it("frees a refused or failed command's key so a retry can run", async () => {
    await inSiteStorage("test-ledger-free", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.claim(request).kind).toBe("claimed");
      expect(ledger.free(request.scope, request.key)).toBe(true);
      expect(ledger.claim({ ...request, fingerprint: "fp-corrected" })).toEqual({ kind: "claimed" });
      ledger.complete(request.scope, request.key, { status: 200, body: "done" });
      // A late free never erases a stored answer.
      expect(ledger.free(request.scope, request.key)).toBe(false);
      expect(ledger.claim({ ...request, fingerprint: "fp-corrected" })).toEqual({ kind: "replay", status: 200, body: "done" });
    });
  });

  it("does not complete a claim that was freed", async () => {
    await inSiteStorage("test-ledger-complete-freed", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      ledger.claim(request);
      ledger.free(request.scope, request.key);
      expect(ledger.complete(request.scope, request.key, { status: 200, body: "x" })).toBe(false);
      expect(ledger.claim(request)).toEqual({ kind: "claimed" });
    });
  });

  it("expires answers after their retention, then sweeps them", async () => {
    await inSiteStorage("test-ledger-expiry", (storage) => {
      const clock = new FakeClock();
      const ledger = new IdempotencyLedger(storage, clock);
      expect(ledger.nextExpiry()).toBeNull();
      ledger.claim(request);
      expect(ledger.nextExpiry()).toBe(clock.now() + PENDING_CLAIM_TTL_MS);
      clock.advance(1000);
      ledger.complete(request.scope, request.key, { status: 200, body: "short" }, RETENTION_DEFAULT_MS);
      const lifecycle = { ...request, key: "k-publish" };
      ledger.claim(lifecycle);
      ledger.complete(lifecycle.scope, lifecycle.key, { status: 200, body: "published" }, RETENTION_LIFECYCLE_MS);
      expect(ledger.nextExpiry()).toBe(clock.now() + RETENTION_DEFAULT_MS);

      clock.advance(RETENTION_DEFAULT_MS - 1);
      expect(ledger.claim(request).kind).toBe("replay");
      expect(ledger.sweep()).toBe(0);
      clock.advance(1);
      // Expired counts as absent even before a sweep: the key can be claimed afresh.
      expect(ledger.claim({ ...request, fingerprint: "fp-new" })).toEqual({ kind: "claimed" });
      ledger.free(request.scope, request.key);
      expect(ledger.claim(lifecycle)).toEqual({ kind: "replay", status: 200, body: "published" });
      expect(ledger.sweep()).toBe(0);

      clock.advance(RETENTION_LIFECYCLE_MS);
      expect(ledger.sweep()).toBe(1);
      expect(ledger.nextExpiry()).toBeNull();
      expect(storage.sql.exec("SELECT COUNT(*) AS n FROM ledger_claims").one().n).toBe(0);
    });
  });

  it("uses the retention given at claim time when complete names none", async () => {
    await inSiteStorage("test-ledger-claim-retention", (storage) => {
      const clock = new FakeClock();
      const ledger = new IdempotencyLedger(storage, clock);
      ledger.claim({ ...request, retentionMs: RETENTION_LIFECYCLE_MS });
      ledger.complete(request.scope, request.key, { status: 200, body: "ok" });
      expect(ledger.nextExpiry()).toBe(clock.now() + RETENTION_LIFECYCLE_MS);
    });
  });

  it("isolates scopes: the same key under another scope is another key", async () => {
    await inSiteStorage("test-ledger-scopes", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(ledger.claim(request).kind).toBe("claimed");
      ledger.complete(request.scope, request.key, { status: 201, body: "a" });
      const other = { ...request, scope: "cred_2:POST /entries", fingerprint: "fp-other" };
      expect(ledger.claim(other)).toEqual({ kind: "claimed" });
      expect(ledger.claim(other)).toEqual({ kind: "in_progress", retryAfterSeconds: 1 });
      expect(ledger.claim(request)).toEqual({ kind: "replay", status: 201, body: "a" });
      // Separator characters inside scope or key cannot make two pairs collide.
      expect(ledger.claim({ ...request, scope: "a", key: "b:c" }).kind).toBe("claimed");
      expect(ledger.claim({ ...request, scope: "a:b", key: "c" }).kind).toBe("claimed");
    });
  });

  it("gives exactly one claimed among many concurrent claims of the same key", async () => {
    await inSiteStorage("test-ledger-concurrent", async (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      const results: ClaimResult[] = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          // Stagger the calls across turns of the event loop, as separate requests would be.
          await new Promise((resolve) => setTimeout(resolve, i % 7));
          return ledger.claim(request);
        }),
      );
      expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
      expect(results.filter((r) => r.kind === "in_progress")).toHaveLength(199);
    });
  });

  it("rejects a non-positive retention", async () => {
    await inSiteStorage("test-ledger-validate", (storage) => {
      const ledger = new IdempotencyLedger(storage, new FakeClock());
      expect(() => ledger.claim({ ...request, retentionMs: 0 })).toThrow(RangeError);
    });
  });
});
