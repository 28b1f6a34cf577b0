import { describe, expect, it } from "vitest";
import { bands } from "../../../strategies/bands.js";
import { book, codeOf, compact, context, issuesOf, M, market } from "./helpers.js";

// bids 0.49×100, 0.48×50 — asks 0.52×20, 0.53×10.
// mid = (0.49 + 0.52)/2 = 0.505; microprice = (0.49·20 + 0.52·100)/120 = (9.8 + 52)/120 = 0.515.
const sample = () =>
  book(
    [
      [0.49, 100],
      [0.48, 50],
    ],
    [
      [0.52, 20],
      [0.53, 10],
    ],
  );

const twoBands = (reference: "mid" | "microprice") =>
  bands.parseParams({
    reference,
    bands: [
      { margin: "0.01", size: "10" },
      { margin: "0.03", size: "25" },
    ],
  });

describe("bands: prices around the reference, bids floored and asks ceiled to the tick", () => {
  it("around the mid", () => {
    // band 0: 0.505 − 0.01 = 0.495 → floor 0.49; 0.505 + 0.01 = 0.515 → ceil 0.52
    // band 1: 0.505 − 0.03 = 0.475 → floor 0.47; 0.505 + 0.03 = 0.535 → ceil 0.54
    expect(compact(bands.quote(context(sample()), twoBands("mid")))).toEqual([
      ["buy", 0, 0.49, 10],
      ["buy", 1, 0.47, 25],
      ["sell", 0, 0.52, 10],
      ["sell", 1, 0.54, 25],
    ]);
  });

  it("around the microprice", () => {
    // band 0: 0.515 ∓ 0.01 = 0.505 → 0.50, 0.525 → 0.53; band 1: 0.485 → 0.48, 0.545 → 0.55
    expect(compact(bands.quote(context(sample()), twoBands("microprice")))).toEqual([
      ["buy", 0, 0.5, 10],
      ["buy", 1, 0.48, 25],
      ["sell", 0, 0.53, 10],
      ["sell", 1, 0.55, 25],
    ]);
  });

  it("an on-grid result stays put (no tick lost to rounding)", () => {
    // mid (0.49 + 0.51)/2 = 0.50 exactly; 0.50 ∓ 0.01 = 0.49 / 0.51 already on tick
    const b = book([[0.49, 5]], [[0.51, 5]]);
    const p = bands.parseParams({ bands: [{ margin: "0.01", size: "2" }] });
    expect(compact(bands.quote(context(b), p))).toEqual([
      ["buy", 0, 0.49, 2],
      ["sell", 0, 0.51, 2],
    ]);
  });

  it("is exact on a micro tick with a non-terminating microprice", () => {
    // bid 0.49×3, ask 0.52×4: microprice = (0.49·4 + 0.52·3)/7 = 3.52/7 = 0.502857142857…
    // bid 0.492857142857… → floor 0.492857; ask 0.512857142857… → ceil 0.512858
    const b = book([[0.49, 3]], [[0.52, 4]]);
    const ctx = context(b, { market: market({ tickMicro: 1 }) });
    const p = bands.parseParams({ reference: "microprice", bands: [{ margin: "0.01", size: "1" }] });
    expect(bands.quote(ctx, p).map((q) => q.priceMicro)).toEqual([492_857, 512_858]);
  });

  it("skips a side that falls outside [tick, 1 − tick] instead of stacking it at the edge", () => {
    // mid 0.02: 0.02 − 0.015 = 0.005 → floor 0.00 < tick → no bid; 0.035 → ceil 0.04
    const low = book([[0.01, 5]], [[0.03, 5]]);
    const p = bands.parseParams({ bands: [{ margin: "0.015", size: "2" }] });
    expect(compact(bands.quote(context(low), p))).toEqual([["sell", 0, 0.04, 2]]);
    // mid 0.98: 0.965 → 0.96; 0.995 → ceil 1.00 > 0.99 → no ask
    const high = book([[0.97, 5]], [[0.99, 5]]);
    expect(compact(bands.quote(context(high), p))).toEqual([["buy", 0, 0.96, 2]]);
  });

  it("skips bands below the market's minimum size (never enlarges them)", () => {
    const ctx = context(sample(), { market: market({ minSizeMicro: 20n * M }) });
    expect(compact(bands.quote(ctx, twoBands("mid")))).toEqual([
      ["buy", 1, 0.47, 25],
      ["sell", 1, 0.54, 25],
    ]);
  });

  it("ignores inventory (no skew) — the risk guard bounds it", () => {
    const flat = bands.quote(context(sample()), twoBands("mid"));
    expect(bands.quote(context(sample(), { inventory: 500n * M }), twoBands("mid"))).toEqual(flat);
  });
});

describe("bands: no data → no quote", () => {
  const p = twoBands("mid");
  it.each([
    ["empty book", context(book([], []))],
    ["bids only", context(book([[0.49, 1]], []))],
    ["asks only", context(book([], [[0.52, 1]]))],
    ["crossed book", context(book([[0.53, 1]], [[0.52, 1]]))],
    ["stale book", context(sample(), { bookState: "stale" })],
    ["resyncing book", context(sample(), { bookState: "resyncing" })],
    ["engine says not quotable", context(sample(), { quotable: false })],
    ["market paused", context(sample(), { market: market({ status: "PAUSED" }) })],
  ])("%s → []", (_, ctx) => {
    expect(bands.quote(ctx, p)).toEqual([]);
  });
});

describe("bands: parameters", () => {
  it("defaults the reference to mid and keeps exact micro values", () => {
    expect(bands.parseParams({ bands: [{ margin: "0.015", size: "12.5" }] })).toEqual({
      reference: "mid",
      bands: [{ marginMicro: 15_000, sizeMicro: 12_500_000n }],
    });
  });

  it("lists every problem as field: problem", () => {
    const raw = {
      reference: "last",
      bands: [
        { margin: 0.01, size: "10" },
        { margin: "0.02", size: "0" },
        { margin: "0.01", size: "1", x: 1 },
      ],
      extra: true,
    };
    expect(codeOf(() => bands.parseParams(raw))).toBe("strategy_params_invalid");
    expect(issuesOf(() => bands.parseParams(raw))).toEqual([
      'reference: must be one of "mid", "microprice"',
      'bands[0].margin: must be a decimal string like "0.01"',
      "bands[1].size: must be > 0",
      "bands[2].x: unknown parameter",
      "bands[2].margin: margins must be strictly increasing (nearest band first)",
      "extra: unknown parameter",
    ]);
  });

  it("says a negative margin or size is below zero, not that it is no decimal", () => {
    expect(issuesOf(() => bands.parseParams({ bands: [{ margin: "-1", size: "-0.5" }] }))).toEqual([
      "bands[0].margin: must be > 0",
      "bands[0].size: must be > 0",
    ]);
  });

  it("refuses margins ≥ 1, more than 6 decimals, an empty list and a non-object", () => {
    expect(issuesOf(() => bands.parseParams({ bands: [{ margin: "1", size: "1" }] }))).toEqual([
      "bands[0].margin: must be < 1",
    ]);
    expect(issuesOf(() => bands.parseParams({ bands: [{ margin: "0.0000001", size: "1" }] }))).toEqual([
      "bands[0].margin: at most 6 decimals",
    ]);
    expect(issuesOf(() => bands.parseParams({ bands: [] }))).toEqual(["bands: must be a non-empty array"]);
    expect(issuesOf(() => bands.parseParams("bands"))).toEqual([
      "params: must be a JSON object",
      "bands: must be a non-empty array",
    ]);
  });
});
