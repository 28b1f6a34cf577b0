import { describe, expect, it } from "vitest";
import { withUnapplied } from "../../../src/engine/unapplied-exposure.js";

const M = 1_000_000n;
const exp = {
  positionMicro: 4n * M,
  marketGrossMicro: 6n * M,
  totalGrossMicro: 9n * M,
  marketWorstMicro: 8n * M,
  totalWorstMicro: 12n * M,
  heldMicro: 5n * M,
};

describe("withUnapplied: fills on their way count as position for the caps", () => {
  it("nothing on its way: the very exposure", () => {
    expect(withUnapplied(exp, undefined)).toBe(exp);
  });

  it("moves the position and this token's |position| in every gross by the net; held drops by the sells only", () => {
    expect(withUnapplied(exp, { buy: 3n * M, sell: 0n })).toEqual({
      positionMicro: 7n * M,
      marketGrossMicro: 9n * M,
      totalGrossMicro: 12n * M,
      marketWorstMicro: 11n * M,
      totalWorstMicro: 15n * M,
      heldMicro: 5n * M, // not the wallet's to sell until the fill is in
    });
    // Selling 6 of a long 4: short 2, |p| falls by 2; the shares held cannot go below 0.
    expect(withUnapplied(exp, { buy: 0n, sell: 6n * M })).toMatchObject({
      positionMicro: -2n * M,
      marketGrossMicro: 4n * M,
      totalWorstMicro: 10n * M,
      heldMicro: 0n,
    });
  });

  it("leaves the worst cases absent when they were", () => {
    const { marketWorstMicro: _m, totalWorstMicro: _t, ...plain } = exp;
    const out = withUnapplied(plain, { buy: M, sell: 0n });
    expect("marketWorstMicro" in out || "totalWorstMicro" in out).toBe(false);
  });
});
