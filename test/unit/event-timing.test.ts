import { describe, expect, it } from "vitest";
import { DELIVERY_TIMEOUT_MS } from "../../shared/events/deliver";
import { eventTiming, RESEND_AFTER_MS } from "../../shared/events/timing";
import { SentEvents } from "../../objects/site/sent-events";

describe("eventTiming (EVENT_RESEND_AFTER_MS)", () => {
  it("is 45 s with a 30 s claim unless a local run shortens it", () => {
    expect(eventTiming({})).toEqual({ resendAfterMs: 45_000, claimMs: 30_000 });
    expect(RESEND_AFTER_MS).toBe(45_000);
    expect(eventTiming({ EVENT_RESEND_AFTER_MS: "9000" })).toEqual({ resendAfterMs: 9_000, claimMs: 6_000 });
  });

  it("ignores values that would break the order the design relies on, or are not whole numbers", () => {
    for (const value of ["8999", "0", "-1", "60000", "9000.5", "abc", ""]) {
      expect(eventTiming({ EVENT_RESEND_AFTER_MS: value }).resendAfterMs, value).toBe(45_000);
    }
  });

  it("keeps every allowed claim longer than a delivery's timeout and shorter than the resend", () => {
    for (const resend of [9_000, 12_345, 45_000]) {
      const { resendAfterMs, claimMs } = eventTiming({ EVENT_RESEND_AFTER_MS: String(resend) });
      expect(claimMs).toBeGreaterThan(DELIVERY_TIMEOUT_MS);
      expect(claimMs).toBeLessThan(resendAfterMs);
    }
  });

  it("is the time SentEvents waits before looking for unconsumed rows", () => {
    const sent = new SentEvents(9_000);
    sent.marked(1_000);
    expect(sent.nextDue()).toBe(10_000);
  });
});
