import { describe, expect, it } from "vitest";
import { STREAMED_CEILING_BYTES, STREAMED_DEFAULT_MAX_BYTES, streamedLimit } from "../../shared/services/media/streamed-limit";

describe("streamedLimit (MEDIA_REQUEST_BODY_LIMIT_BYTES)", () => {
  it("is 100 MB (decimal) when unset or blank", () => {
    expect(STREAMED_DEFAULT_MAX_BYTES).toBe(100_000_000);
    expect(streamedLimit({})).toEqual({ maxBytes: 100_000_000 });
    expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: " " })).toEqual({ maxBytes: 100_000_000 });
  });

  it("takes a whole number of bytes from 1 to 5 GB, lower or higher than the default", () => {
    expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: "1" })).toEqual({ maxBytes: 1 });
    expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: "45000000" })).toEqual({ maxBytes: 45_000_000 });
    expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: " 500000000 " })).toEqual({ maxBytes: 500_000_000 });
    expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: "5000000000" })).toEqual({ maxBytes: STREAMED_CEILING_BYTES });
  });

  it("ignores anything else, keeping the default and naming the value for a warning", () => {
    for (const value of ["0", "-1", "5000000001", "99999999999", "1e9", "1.5", "0x100", "lots", "100MB"]) {
      expect(streamedLimit({ MEDIA_REQUEST_BODY_LIMIT_BYTES: value })).toEqual({ maxBytes: 100_000_000, ignored: value });
    }
  });
});
