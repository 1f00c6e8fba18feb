import { describe, expect, it } from "vitest";
import { MARK_DELAY_MS, RESEND_AFTER_MS, SCAN_INTERVAL_MS, SentEvents } from "../../objects/site/sent-events";

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

  it("once rows are marked, keeps the alarm due to look for unconsumed ones within RESEND_AFTER_MS", () => {
    const sent = new SentEvents();
    sent.add(["evt_a"], 1_000);
    sent.take();
    sent.marked(3_000);
    expect(sent.nextDue()).toBe(3_000 + RESEND_AFTER_MS);
    sent.marked(5_000); // a later mark keeps the earlier look
    expect(sent.nextDue()).toBe(3_000 + RESEND_AFTER_MS);
    sent.add(["evt_b"], 6_000); // marking comes first
    expect(sent.nextDue()).toBe(6_000 + MARK_DELAY_MS);
    sent.take();
    expect(sent.takeCheck(4_000, false)).toBe(false);
    expect(sent.takeCheck(3_000 + RESEND_AFTER_MS, false)).toBe(true);
    expect(sent.nextDue()).toBeNull(); // the look sets the next one from what it finds
    sent.lookForUnconsumedBy(60_000);
    expect(sent.nextDue()).toBe(60_000);
    expect(sent.takeCheck(10_000, true)).toBe(true); // at start and hourly, with the look for unsent rows
    expect(sent.nextDue()).toBeNull();
  });
});
