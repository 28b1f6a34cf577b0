import { describe, expect, it } from "vitest";
import { parseTimestampMicros } from "../../../src/backtest/import/timestamp.js";

// Regression (found by test/fuzz/import.test.ts): stamps after about year 2255 were accepted as
// microsecond counts beyond 2^53, which a number cannot hold exactly, so their microseconds were
// silently rounded away. They are refused like any other unusable timestamp.
describe("parseTimestampMicros beyond 2^53 microseconds", () => {
  it("keeps every microsecond up to the last exact instant", () => {
    expect(parseTimestampMicros("2255-06-05T23:47:34.740991Z")).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseTimestampMicros("2200-01-01T00:00:00.000001Z")).toBe(Date.UTC(2200, 0, 1) * 1000 + 1);
  });

  it("refuses later stamps instead of rounding them", () => {
    expect(parseTimestampMicros("2255-06-05T23:47:34.740992Z")).toBeUndefined();
    expect(parseTimestampMicros("2300-01-01 00:00:00.000001 +0000")).toBeUndefined();
    expect(parseTimestampMicros("9999-12-31T23:59:59.999999Z")).toBeUndefined();
  });
});
