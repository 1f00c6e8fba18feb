import { describe, expect, it } from "vitest";
import { LEASE_TTL_MS, LeaseBook, LOST_LEASE_MEMORY_MS, MAX_OPEN_LEASES_PER_HOLDER, type Lease } from "../../objects/site/leases";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

const resource = "ent_x:en";

function leaseOf(result: ReturnType<LeaseBook["acquire"]>): Lease {
  if (!result.ok) throw new Error(`expected a lease, got ${result.reason}`);
  return result.lease;
}

describe("LeaseBook", () => {
  it("acquires a free resource and refuses another holder with locked", async () => {
    await inSiteStorage("test-lease-acquire", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      expect(book.check({ resource, holder: "usr_a" })).toBe("free");
      const lease = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      expect(lease).toEqual({ resource, holder: "usr_a", token: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), expiresAt: clock.now() + LEASE_TTL_MS });
      expect(book.acquire({ resource, holder: "usr_b" })).toEqual({ ok: false, reason: "locked", heldBy: "usr_a", expiresAt: lease.expiresAt });
      expect(book.check({ resource, holder: "usr_a" })).toBe("held");
      expect(book.check({ resource, holder: "usr_a", token: lease.token })).toBe("held");
      expect(book.check({ resource, holder: "usr_b" })).toBe("locked");
      expect(book.get(resource)).toEqual(lease);
    });
  });

  it("gives the same holder a fresh token and full TTL on re-acquire", async () => {
    await inSiteStorage("test-lease-reacquire", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      const first = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      clock.advance(60_000);
      const second = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      expect(second.token).not.toBe(first.token);
      expect(second.expiresAt).toBe(clock.now() + LEASE_TTL_MS);
      expect(book.check({ resource, holder: "usr_a", token: second.token })).toBe("held");
      // The superseded token no longer holds the lease.
      expect(book.check({ resource, holder: "usr_a", token: first.token })).toBe("lock_lost");
      expect(book.renew(resource, first.token)).toEqual({ ok: false, reason: "lock_lost" });
    });
  });

  it("renews a live lease and refuses an expired one", async () => {
    await inSiteStorage("test-lease-renew", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      const lease = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      clock.advance(LEASE_TTL_MS - 1);
      expect(book.renew(resource, lease.token)).toEqual({ ok: true, lease: { ...lease, expiresAt: clock.now() + LEASE_TTL_MS } });
      clock.advance(LEASE_TTL_MS - 1);
      expect(book.check({ resource, holder: "usr_b" })).toBe("locked");
      clock.advance(1);
      // Exactly TTL after the last renewal the lease is gone.
      expect(book.check({ resource, holder: "usr_a", token: lease.token })).toBe("free");
      expect(book.renew(resource, lease.token)).toEqual({ ok: false, reason: "lock_lost" });
      expect(book.renew(resource, "not-a-token")).toEqual({ ok: false, reason: "lock_lost" });
    });
  });

  it("releases only with the holding token", async () => {
    await inSiteStorage("test-lease-release", (storage) => {
      const book = new LeaseBook(storage, new FakeClock());
      const lease = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      expect(book.release(resource, "wrong")).toBe(false);
      expect(book.check({ resource, holder: "usr_b" })).toBe("locked");
      expect(book.release(resource, lease.token)).toBe(true);
      expect(book.release(resource, lease.token)).toBe(false);
      expect(book.check({ resource, holder: "usr_a" })).toBe("free");
      expect(book.acquire({ resource, holder: "usr_b" }).ok).toBe(true);
    });
  });

  it("takeOver hands the lease over and the previous holder sees lock_lost", async () => {
    await inSiteStorage("test-lease-takeover", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      const mine = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      const theirs = book.takeOver({ resource, holder: "usr_b" });
      expect(theirs).toEqual({ resource, holder: "usr_b", token: expect.any(String), expiresAt: clock.now() + LEASE_TTL_MS });
      expect(theirs.token).not.toBe(mine.token);
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("lock_lost");
      expect(book.check({ resource, holder: "usr_a" })).toBe("lock_lost");
      expect(book.check({ resource, holder: "usr_b", token: theirs.token })).toBe("held");
      expect(book.check({ resource, holder: "usr_c" })).toBe("locked");
      expect(book.renew(resource, mine.token)).toEqual({ ok: false, reason: "lock_lost" });
      expect(book.release(resource, mine.token)).toBe(false);
      expect(book.acquire({ resource, holder: "usr_a" })).toMatchObject({ ok: false, reason: "locked", heldBy: "usr_b" });

      // Still lost after the new holder lets go: someone else may have edited meanwhile.
      book.release(resource, theirs.token);
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("lock_lost");
      // Once usr_a acquires again, usr_a as a whole holds it; only the old token stays lost.
      const again = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      book.release(resource, again.token);
      expect(book.check({ resource, holder: "usr_a" })).toBe("free");
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("lock_lost");

      // The memory of the loss lasts LOST_LEASE_MEMORY_MS.
      clock.advance(LOST_LEASE_MEMORY_MS);
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("free");
    });
  });

  it("replaces another holder's expired lease, and that holder then sees lock_lost", async () => {
    await inSiteStorage("test-lease-expiry", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      const mine = leaseOf(book.acquire({ resource, holder: "usr_a" }));
      clock.advance(LEASE_TTL_MS);
      // Expired and not yet taken: free, not lost.
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("free");
      const theirs = leaseOf(book.acquire({ resource, holder: "usr_b" }));
      expect(book.check({ resource, holder: "usr_a", token: mine.token })).toBe("lock_lost");
      expect(book.check({ resource, holder: "usr_b", token: theirs.token })).toBe("held");
    });
  });

  it(`allows at most ${MAX_OPEN_LEASES_PER_HOLDER} open leases per holder`, async () => {
    await inSiteStorage("test-lease-limit", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      const leases = Array.from({ length: MAX_OPEN_LEASES_PER_HOLDER }, (_, i) =>
        leaseOf(book.acquire({ resource: `ent_${i}:en`, holder: "usr_a" })),
      );
      expect(book.acquire({ resource: "ent_extra:en", holder: "usr_a" })).toEqual({ ok: false, reason: "too_many_leases" });
      // Re-acquiring one already held is not an extra lease; other holders are unaffected.
      expect(book.acquire({ resource: "ent_0:en", holder: "usr_a" }).ok).toBe(true);
      expect(book.acquire({ resource: "ent_extra:en", holder: "usr_b" }).ok).toBe(true);
      // Releasing one, or letting one expire, makes room.
      const first = leases[1];
      if (first === undefined) throw new Error("unreachable");
      book.release(first.resource, first.token);
      expect(book.acquire({ resource: "ent_extra2:en", holder: "usr_a" }).ok).toBe(true);
      expect(book.acquire({ resource: "ent_extra3:en", holder: "usr_a" })).toEqual({ ok: false, reason: "too_many_leases" });
      clock.advance(LEASE_TTL_MS);
      expect(book.acquire({ resource: "ent_extra3:en", holder: "usr_a" }).ok).toBe(true);
    });
  });

  it("sweeps expired leases and forgotten losses; nextExpiry names the earliest", async () => {
    await inSiteStorage("test-lease-sweep", (storage) => {
      const clock = new FakeClock();
      const book = new LeaseBook(storage, clock);
      expect(book.nextExpiry()).toBeNull();
      const start = clock.now();
      book.acquire({ resource: "ent_1:en", holder: "usr_a" });
      clock.advance(1000);
      book.acquire({ resource: "ent_2:en", holder: "usr_a" });
      book.takeOver({ resource: "ent_2:en", holder: "usr_b" });
      expect(book.nextExpiry()).toBe(start + LEASE_TTL_MS);
      expect(book.sweep()).toBe(0);
      clock.advance(LEASE_TTL_MS);
      expect(book.sweep()).toBe(2);
      expect(book.nextExpiry()).toBe(start + 1000 + LOST_LEASE_MEMORY_MS);
      clock.set(start + 1000 + LOST_LEASE_MEMORY_MS);
      expect(book.sweep()).toBe(1);
      expect(book.nextExpiry()).toBeNull();
    });
  });

  it("admits a write only when no one else holds a language it changes; a lost lease is lock_lost", async () => {
    await inSiteStorage("test-lease-admit-write", (storage) => {
      const book = new LeaseBook(storage, new FakeClock());
      const [en, fr] = ["ent_1", "ent_2"];
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_a" })).toBe("pass");
      const mine = leaseOf(book.acquire({ resource: fr, holder: "usr_a" }));
      // Item-wide: a lease on any language holds the write off; the holder passes, token or not.
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_b" })).toBe("locked");
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_a" })).toBe("pass");
      expect(book.admitWrite({ resources: [fr], holder: "usr_a", token: mine.token })).toBe("pass");
      expect(book.admitWrite({ resources: [en], holder: "usr_b" })).toBe("pass");
      // Taken over: the loser is lock_lost with or without its token, wherever the language is in the list.
      const theirs = book.takeOver({ resource: fr, holder: "usr_b" });
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_a" })).toBe("lock_lost");
      expect(book.admitWrite({ resources: [fr], holder: "usr_a", token: mine.token })).toBe("lock_lost");
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_c" })).toBe("locked");
      // Released: a write without a token passes again; the lost token stays lost.
      book.release(fr, theirs.token);
      expect(book.admitWrite({ resources: [en, fr], holder: "usr_a" })).toBe("pass");
      expect(book.admitWrite({ resources: [fr], holder: "usr_a", token: mine.token })).toBe("lock_lost");
    });
  });

  it("lets exactly one of many concurrent acquirers win", async () => {
    await inSiteStorage("test-lease-concurrent", async (storage) => {
      const book = new LeaseBook(storage, new FakeClock());
      const results = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i % 5));
          return book.acquire({ resource, holder: `usr_${i}` });
        }),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    });
  });
});
