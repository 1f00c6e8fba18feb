import { describe, expect, it } from "vitest";
import { AppError, toOutcome, unwrap } from "../../shared/errors";

describe("errors", () => {
  it("carries code and status through an Outcome", async () => {
    const outcome = await toOutcome(async () => {
      throw new AppError("version_conflict", "stale", { current: "v2" });
    });
    expect(outcome).toEqual({ ok: false, error: { code: "version_conflict", message: "stale", details: { current: "v2" } } });
    try {
      unwrap(outcome);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(409);
    }
    expect.assertions(3);
  });
});
