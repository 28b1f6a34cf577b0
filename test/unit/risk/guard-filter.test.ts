import { describe, expect, it } from "vitest";
import { RISK_REASONS, type RiskDecision } from "../../../src/risk/decision.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, QUOTES, q, sh, smallConfig } from "./helpers.js";

describe("RiskGuard.filter on quotes", () => {
  it("checks each quote, then fits the survivors into the caps, explaining every change", () => {
    const guard = new RiskGuard(smallConfig());
    // Long 180 ≥ soft 100: reduce-only. The bid is first clipped to 50 (size), then dropped (it would add
    // inventory); the off-tick ask is dropped; the other ask reduces the position and passes.
    const res = guard.filter(
      ctx({ position: 180 }),
      [q("buy", "0.40", 80), q("sell", "0.555", 10), q("sell", "0.56", 10, 1)],
      0,
    );
    expect(res.allowed).toEqual([q("sell", "0.56", 10, 1)]);
    expect(res.decisions.map((d) => [d.reason, d.action, d.side])).toEqual([
      ["order_size_clipped", "clip", "buy"],
      ["price_off_tick", "drop", "sell"],
      ["soft_cap_reduce_only", "drop", "buy"],
    ]);
  });

  it("every reason code can be produced, and every decision is JSON-safe for the logger", () => {
    const seen = new Set<string>();
    const all: RiskDecision[] = [];
    const note = (ds: readonly (RiskDecision | undefined)[]) => {
      for (const d of ds) {
        if (d === undefined) continue;
        seen.add(d.reason);
        all.push(d);
      }
    };
    const g = () => new RiskGuard(smallConfig());
    const drop = new RiskGuard(smallConfig({ order: { oversize: "drop" } }));
    const bad = { ...q("buy", "0.5", 10), sizeMicro: 0n };
    note(
      g().filter(ctx(), [bad, q("buy", "0.505", 10, 1), q("buy", "1", 10, 2), q("buy", "0.5", 1, 3)], 0)
        .decisions,
    );
    note(g().filter(ctx(), [q("buy", "0.1", 80), q("sell", "0.9", 40)], 0).decisions);
    note(drop.filter(ctx(), [q("buy", "0.1", 80), q("sell", "0.9", 40)], 0).decisions);
    note(
      g().filter(
        ctx({ position: 150 }),
        [q("buy", "0.1", 50), q("sell", "0.2", 50, 0), q("sell", "0.3", 50, 1)],
        0,
      ).decisions,
    );
    note(
      g().filter(
        ctx({ position: 60 }),
        [q("buy", "0.1", 50), q("buy", "0.1", 50, 1), q("buy", "0.1", 50, 2)],
        0,
      ).decisions,
    );
    note(g().filter(ctx({ position: 200 }), [q("buy", "0.1", 10)], 0).decisions);
    const touch = { ...ctx(), bestBidMicro: 300_000, bestAskMicro: 700_000 };
    note(g().filter(touch, [q("buy", "0.7", 10), q("buy", "0.5", 10, 1), q("sell", "0.5", 10)], 0).decisions);
    note(g().filter(ctx({ held: 12 }), [q("sell", "0.6", 10), q("sell", "0.7", 10, 1)], 0).decisions);
    const fit = g().fitPlacements(ctx(), [q("buy", "0.4", 10), q("sell", "0.6", 10)], {
      buy: sh(192),
      sell: sh(198),
    });
    note(fit.decisions);
    for (const book of [
      { status: "stale", crossed: false },
      { status: "resyncing", crossed: false },
      { status: "synced", crossed: true },
    ] as const) {
      note(g().filter(ctx({ book }), QUOTES, 0).decisions);
    }
    note(g().filter(ctx({ market: { status: "PAUSED" } }), QUOTES, 0).decisions);
    note([g().onMarketUnquotable("mkt-1", "FEE_TOO_HIGH", { feeTakerBps: 1500 })]);
    const w = g();
    note([w.onPlatformStatus(true), w.onPnl(0n, 0), w.onPnl(-sh(200), 1)]);
    const e = g();
    note([0, 1, 2, 3].map((t) => e.onOrderError("expired", t)));
    expect([...seen].sort()).toEqual([...RISK_REASONS].sort());
    for (const d of all) {
      expect(() => JSON.stringify(d)).not.toThrow(); // a bigint would throw
      for (const v of Object.values(d.detail)) expect(["string", "number", "boolean"]).toContain(typeof v);
    }
  });
});

describe("RiskGuard.filter on asks: the shares held bound them", () => {
  it("clips the asks to the holding, nearest level first, and drops what falls below the minimum", () => {
    const guard = new RiskGuard(smallConfig());
    const asks = [q("sell", "0.60", 10, 0), q("sell", "0.61", 10, 1), q("sell", "0.62", 10, 2)];
    const res = guard.filter(ctx({ held: 18 }), [q("buy", "0.40", 10), ...asks], 0);
    expect(res.allowed).toEqual([q("buy", "0.40", 10), asks[0], q("sell", "0.61", 8, 1)]);
    expect(res.decisions.map((d) => [d.reason, d.action, d.side, d.level, d.detail.to])).toEqual([
      ["insufficient_shares", "clip", "sell", 1, "8"],
      ["insufficient_shares", "drop", "sell", 2, undefined],
    ]);
  });

  it("a wallet holding less than the minimum size quotes no ask at all, and bids as usual", () => {
    const guard = new RiskGuard(smallConfig());
    const res = guard.filter(ctx({ held: "4.999999" }), QUOTES, 0);
    expect(res.allowed).toEqual([QUOTES[0]]);
    expect(res.decisions.map((d) => [d.reason, d.action, d.side])).toEqual([
      ["insufficient_shares", "drop", "sell"],
    ]);
  });

  it("a short position relative to the baseline sells only what is left of the holding", () => {
    const guard = new RiskGuard(smallConfig());
    // Sold 30 of the 40 held at start: 10 left, the hard cap alone would allow 230.
    const res = guard.filter(ctx({ position: -30, held: 10 }), [q("sell", "0.60", 20)], 0);
    expect(res.allowed).toEqual([q("sell", "0.60", 10)]);
    expect(res.decisions[0]).toMatchObject({ reason: "insufficient_shares", action: "clip" });
  });
});
