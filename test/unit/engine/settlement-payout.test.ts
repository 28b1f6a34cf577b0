import { describe, expect, it } from "vitest";
import { payoutMicro } from "../../../src/core/payout.js";
import { lifecycleStatus } from "../../../src/gateway/lifecycle-status.js";

describe("payoutMicro: a share's payout from a resolution's numerators", () => {
  it("is numerator / Σ numerators, in micro-USDC rounded down", () => {
    expect(payoutMicro({ "0": "1", "1": "0" }, 0)).toBe(1_000_000);
    expect(payoutMicro({ "0": "1", "1": "0" }, 1)).toBe(0);
    expect(payoutMicro({ "0": "1", "1": "1" }, 1)).toBe(500_000);
    expect(payoutMicro({ "0": "1", "1": "2" }, 0)).toBe(333_333);
    expect(payoutMicro({ "0": "0.25", "1": "0.75" }, 1)).toBe(750_000);
  });

  it("is unknown when the vector does not name the outcome or sums to zero", () => {
    expect(payoutMicro({ "0": "1" }, 1)).toBeUndefined();
    expect(payoutMicro({ "0": "0", "1": "0" }, 0)).toBeUndefined();
  });
});

describe("lifecycleStatus: market_resolved", () => {
  const base = { type: "market_resolved", conditionId: "0xab", resolution: "YES", tsMs: 1 } as const;
  it("carries the payouts when the push has them, and only then", () => {
    expect(lifecycleStatus({ ...base, payouts: { "0": "1", "1": "0" } })).toEqual({
      conditionId: "0xab",
      status: "RESOLVED",
      payouts: { "0": "1", "1": "0" },
    });
    expect(lifecycleStatus(base)).toEqual({ conditionId: "0xab", status: "RESOLVED" });
  });
});
