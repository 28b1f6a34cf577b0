import { describe, expect, it } from "vitest";
import { microsToMs, parseTimestampMicros } from "../../../src/backtest/import/timestamp.js";

describe("parseTimestampMicros", () => {
  it.each([
    ["2025-01-25 18:15:47.925 +0100", Date.parse("2025-01-25T17:15:47.925Z") * 1000],
    ["2025-01-25 18:15:47.925+01", Date.parse("2025-01-25T17:15:47.925Z") * 1000],
    ["2025-01-25 18:15:47.925 +01:00", Date.parse("2025-01-25T17:15:47.925Z") * 1000],
    ["2025-01-25T17:15:47Z", Date.parse("2025-01-25T17:15:47Z") * 1000],
    ["2025-01-25 12:45:47.5 -0430", Date.parse("2025-01-25T17:15:47.500Z") * 1000],
    ["2025-01-01 00:30:00.000 +0100", Date.parse("2024-12-31T23:30:00Z") * 1000],
    ["2025-01-25 18:15:47.925123 +0100", Date.parse("2025-01-25T17:15:47.925Z") * 1000 + 123],
    ["2024-02-29 00:00:00 Z", Date.parse("2024-02-29T00:00:00Z") * 1000],
  ])("%s", (text, micros) => {
    expect(parseTimestampMicros(text)).toBe(micros);
  });

  it.each([
    "2025-01-25 18:15:47.925", // no offset: instant unknown
    "2025-02-30 00:00:00 +0000",
    "2025-13-01 00:00:00 +0000",
    "2025-01-25 24:00:00 +0000",
    "2025-01-25 18:15:47.1234567 +0100",
    "2025-01-25 18:15:47 +2400",
    "1737825347925",
    "",
  ])("refuses %j", (text) => {
    expect(parseTimestampMicros(text)).toBeUndefined();
  });

  it("microsToMs floors", () => {
    expect(microsToMs(1_737_825_347_925_999)).toBe(1_737_825_347_925);
  });
});
