import { describe, expect, it } from "vitest";
import { MARK_DELAY_MS, SCAN_INTERVAL_MS, SentEvents } from "../../objects/site/sent-events";

/** The bookkeeping behind marking sent events together (objects/site/sent-events.ts). */
describe("SentEvents", () => {
  it("asks for the alarm with the first ids only, and hands every id over once", () => {
    const sent = new SentEvents();
    expect(sent.nextDue()).toBeNull();
    expect(sent.add(["evt_a"], 1_000)).toBe(true);
    expect(sent.add(["evt_b", "evt_c"], 1_500)).toBe(false);
    expect(sent.add([], 1_600)).toBe(false);
    expect(sent.size).toBe(3);
    expect(sent.nextDue()).toBe(1_000 + MARK_DELAY_MS);
    expect(sent.take()).toEqual(["evt_a", "evt_b", "evt_c"]);
    expect(sent.take()).toEqual([]);
    expect(sent.nextDue()).toBeNull();
    expect(sent.add(["evt_d"], 9_000)).toBe(true);
  });

  it("looks for unsent events at start, after a refusal and once an interval has passed — not at every alarm", () => {
    const sent = new SentEvents();
    expect(sent.takeScan(10_000)).toBe(true); // a new object: a stop may have left some
    expect(sent.takeScan(12_000)).toBe(false);
    sent.scanSoon(13_000);
    expect(sent.nextDue()).toBe(13_000 + MARK_DELAY_MS);
    expect(sent.takeScan(15_000)).toBe(true);
    expect(sent.takeScan(15_001)).toBe(false);
    expect(sent.takeScan(15_000 + SCAN_INTERVAL_MS)).toBe(true);
  });
});
