import { describe, expect, it } from "vitest";
import { markAfterBook2 } from "../../../src/core/mark.js";

// Twice micro-units throughout: 1_000_000 is a mark of 0.50.
describe("markAfterBook2: the mark a book gives, within [best bid, best ask]", () => {
  it("a two-sided uncrossed book: its mid, whatever the mark before", () => {
    expect(markAfterBook2(undefined, 480_000, 520_000)).toBe(1_000_000);
    expect(markAfterBook2(1_800_000, 480_001, 520_000)).toBe(1_000_001);
  });

  it("a crossed, locked or empty book marks nothing: the last mark stays", () => {
    expect(markAfterBook2(1_000_000, 520_000, 480_000)).toBeUndefined();
    expect(markAfterBook2(1_000_000, 500_000, 500_000)).toBeUndefined();
    expect(markAfterBook2(1_000_000, undefined, undefined)).toBeUndefined();
    expect(markAfterBook2(undefined, undefined, undefined)).toBeUndefined();
  });

  it("only asks: no more than the best ask; a mark below it stays", () => {
    expect(markAfterBook2(1_000_000, undefined, 20_000)).toBe(40_000);
    expect(markAfterBook2(1_000_000, undefined, 520_000)).toBe(1_000_000);
  });

  it("only bids: no less than the best bid; a mark above it stays", () => {
    expect(markAfterBook2(1_000_000, 980_000, undefined)).toBe(1_960_000);
    expect(markAfterBook2(1_000_000, 480_000, undefined)).toBe(1_000_000);
  });

  it("no mark yet and one side: no mark (half a price is never a first mark)", () => {
    expect(markAfterBook2(undefined, undefined, 600_000)).toBeUndefined();
    expect(markAfterBook2(undefined, 300_000, undefined)).toBeUndefined();
  });
});
