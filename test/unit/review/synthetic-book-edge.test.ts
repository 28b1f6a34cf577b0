import { describe, expect, it } from "vitest";
import { MidProcess } from "../../../src/backtest/synthetic/mid-process.js";
import { seededUniform } from "../../../src/backtest/synthetic/rng.js";
import { bookFrame } from "../../../src/backtest/synthetic/run-path.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

// The synthetic book is "symmetric around the mid and as wide as the price band allows"
// (config/backtest/README.md). bookFrame takes m = round(mid·1e6) and w = min(m, 1e6 − m) − 1,
// so at m = 1 (or 999,999) w = 0 and the book is bid = ask = 0.000001: locked. The bounded process
// reflects inside [tick, 1 − tick] = [0.000001, 0.999999] at the 0.000001 tick the issue asks for,
// so every mid in [0.000001, 0.0000015) yields that locked book. The tracker flags it, the engine
// finds it unquotable and the bot pulls its quotes for the step (s0 = "0.000001", which the
// validator accepts, never quotes at all: 0 orders placed, uptime 0; s0 = "0.000002" quotes).
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
});
