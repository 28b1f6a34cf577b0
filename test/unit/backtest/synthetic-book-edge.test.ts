import { describe, expect, it } from "vitest";
import { MidProcess } from "../../../src/backtest/synthetic/mid-process.js";
import { seededUniform } from "../../../src/backtest/synthetic/rng.js";
import { bookFrame } from "../../../src/backtest/synthetic/run-path.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

// The synthetic book is "symmetric around the mid and as wide as the price band allows"
// (config/backtest/README.md). bookFrame takes m = round(mid·1e6) and w = min(m, 1e6 − m) − 1,
// so at m = 1 (or 999,999) w = 0 and the book was bid = ask = 0.000001: locked. The bounded process
// reflected inside [tick, 1 − tick] = [0.000001, 0.999999] at the 0.000001 tick the issue asks for,
// so every mid in [0.000001, 0.0000015) yielded that locked book: the engine found it unquotable
// and pulled its quotes for the step (review 16). The mid is now reflected inside
// [max(tick, 2 micro), 1 − that], and bookFrame never shows a mid closer than 2 micro to an edge.
describe("synthetic book at the edge of the price band (tick 0.000001)", () => {
  it("every book frame a bounded scenario feeds the engine is two-sided with bid < ask", () => {
    const sc = parseScenario([
      {
        process: { s0: "0.000002", sigma: 0.000001, dtMs: 1_000, horizonMs: 2_000_000, bounded: true },
        fills: { A: 1, k: 100 },
        market: { tick: "0.000001", minSize: "0.000001" },
        strategy: {
          name: "avellaneda-stoikov",
          params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.000001 },
        },
      },
    ]);
    const mid = new MidProcess(sc.process, seededUniform(1, 0, "mid"));
    const locked: number[] = [];
    const check = (n: number, m: number) => {
      const d = bookFrame("book_update", n, m, 1_000_000n, 0).data as {
        bids: { price: string }[];
        asks: { price: string }[];
      };
      if (!(Number(d.bids[0]?.price) < Number(d.asks[0]?.price))) locked.push(m);
    };
    check(1, mid.value);
    for (let n = 2; n <= sc.horizonMs / sc.process.dtMs; n++) check(n, mid.step());
    expect(locked.slice(0, 3), `${locked.length} locked frames`).toEqual([]);
  });

  it("bounds the mid at 2 micro from the edges at a 1-micro tick, at the tick beyond that", () => {
    const bounds = (tick: string) =>
      parseScenario([
        {
          process: { s0: "0.5", sigma: 0.001 },
          fills: {},
          market: { tick },
          strategy: {
            name: "avellaneda-stoikov",
            params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.001 },
          },
        },
      ]).process.bounds;
    expect(bounds("0.000001")).toEqual({ lo: 0.000002, hi: 1 - 0.000002 });
    expect(bounds("0.01")).toEqual({ lo: 0.01, hi: 1 - 0.01 });
  });

  it("bookFrame is two-sided whatever mid it is handed (an unbounded process past the band)", () => {
    for (const mid of [-0.3, 0, 0.000001, 0.0000014, 0.999999, 1, 1.7]) {
      const d = bookFrame("book_update", 2, mid, 1_000_000n, 0).data as {
        bids: { price: string }[];
        asks: { price: string }[];
      };
      const bid = Number(d.bids[0]?.price);
      const ask = Number(d.asks[0]?.price);
      expect(bid > 0 && bid < ask && ask < 1, `mid ${mid}: ${bid} / ${ask}`).toBe(true);
    }
  });
});
