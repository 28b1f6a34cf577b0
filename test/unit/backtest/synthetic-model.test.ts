import { describe, expect, it } from "vitest";
import { BOT, FLOW, UNBOUNDED_MICRO } from "../../../src/backtest/sim/actors.js";
import { BotOrders } from "../../../src/backtest/sim/bot-orders.js";
import { buildMarkets } from "../../../src/backtest/sim/markets.js";
import { IntensityFlow } from "../../../src/backtest/synthetic/intensity-flow.js";
import { MidProcess } from "../../../src/backtest/synthetic/mid-process.js";
import { seededUniform, standardNormal } from "../../../src/backtest/synthetic/rng.js";
import { meanStd } from "../../../src/backtest/synthetic/stats.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { counterVenueIds } from "../../../src/venue/ids.js";
import { SimVenue } from "../../../src/venue/sim-venue.js";

describe("seeded streams", () => {
  it("replay exactly per (seed, path, stream) and differ between streams", () => {
    const a = seededUniform(7, 3, "mid");
    const b = seededUniform(7, 3, "mid");
    const c = seededUniform(7, 3, "fills");
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it("give standard normal draws (mean 0, variance 1 over 20,000 draws)", () => {
    const u = seededUniform(1, 0, "n");
    const s = meanStd(Array.from({ length: 20_000 }, () => standardNormal(u).toString()));
    expect(Math.abs(s.mean.toNumber())).toBeLessThan(0.03);
    expect(Math.abs(s.std.toNumber() - 1)).toBeLessThan(0.02);
  });
});

describe("MidProcess", () => {
  it("moves by exactly ±σ√dt with binomial increments", () => {
    const settings = {
      s0: 0.5,
      sigma: 0.01,
      dtMs: 4_000,
      increments: "binomial",
      bounds: undefined,
    } as const;
    const p = new MidProcess(settings, seededUniform(1, 0, "m"));
    let prev = p.value;
    for (let i = 0; i < 100; i++) {
      const s = p.step();
      expect(Math.abs(Math.abs(s - prev) - 0.02)).toBeLessThan(1e-12);
      prev = s;
    }
  });

  it("has the Brownian variance σ²·t for normal increments", () => {
    const settings = { s0: 0.5, sigma: 0.001, dtMs: 1_000, increments: "normal", bounds: undefined } as const;
    const finals: string[] = [];
    for (let path = 0; path < 2_000; path++) {
      const p = new MidProcess(settings, seededUniform(2, path, "m"));
      for (let i = 0; i < 100; i++) p.step();
      finals.push(p.value.toString());
    }
    const s = meanStd(finals);
    expect(Math.abs(s.mean.toNumber() - 0.5)).toBeLessThan(0.001);
    expect(Math.abs(s.std.toNumber() - 0.01) / 0.01).toBeLessThan(0.05); // σ·√(100 s) = 0.01
  });

  it("reflects at the bounds and never leaves them", () => {
    const settings = {
      s0: 0.02,
      sigma: 0.05,
      dtMs: 1_000,
      increments: "normal",
      bounds: { lo: 0.01, hi: 0.99 },
    } as const;
    const p = new MidProcess(settings, seededUniform(3, 0, "m"));
    let low = 1;
    for (let i = 0; i < 5_000; i++) {
      const s = p.step();
      expect(s >= 0.01 && s <= 0.99).toBe(true);
      low = Math.min(low, s);
    }
    expect(low).toBeLessThan(0.02);
  });
});

describe("IntensityFlow", () => {
  function flowWorld(probability: "linear" | "exponential") {
    const clock = new SimClock(0);
    const venue = new SimVenue({ clock, ids: counterVenueIds(), transientWallets: [FLOW] });
    const markets = buildMarkets([
      { tokenId: "1", conditionId: "0x01", tickMicro: 1, minSizeMicro: 1n, feeTakerBps: 0 },
    ]);
    for (const s of markets.specs) venue.registerMarket(s);
    venue.credit(BOT, "usdc", 10n ** 12n);
    venue.credit(BOT, "1", 10n ** 12n);
    venue.credit(FLOW, "usdc", UNBOUNDED_MICRO);
    venue.credit(FLOW, "1", UNBOUNDED_MICRO);
    const bot = new BotOrders();
    const hits = { buy: 0, sell: 0 };
    venue.subscribe((e) => {
      bot.onVenueEvent(e);
      if (e.type === "fill" && e.walletAddress === BOT) hits[e.side]++;
    });
    const place = (side: "buy" | "sell", price: bigint) =>
      venue.place({
        wallet: BOT,
        marketId: "0x01",
        outcome: "YES",
        side,
        price,
        quantity: 1_000_000_000_000n,
      });
    const market = markets.tokens[0] as (typeof markets.tokens)[number];
    const settings = { A: 2, k: 100, probability, sizeMicro: 1_000_000n };
    const flow = new IntensityFlow(venue, bot, market, settings, seededUniform(9, 0, probability));
    return { place, flow, hits };
  }

  it.each([
    ["linear", (l: number) => Math.min(1, l * 0.25)],
    ["exponential", (l: number) => 1 - Math.exp(-l * 0.25)],
  ] as const)("hits a quote δ from the mid with probability P(A·e^(−kδ)·dt) (%s)", (probability, P) => {
    const w = flowWorld(probability);
    w.place("buy", 495_000n); // δ = 0.005 below a mid of 0.50
    w.place("sell", 510_000n); // δ = 0.01 above
    const steps = 4_000;
    for (let i = 0; i < steps; i++) w.flow.step(0.25, 1_000_000n);
    for (const [side, delta] of [
      ["buy", 0.005],
      ["sell", 0.01],
    ] as const) {
      const p = P(2 * Math.exp(-100 * delta));
      const sd = Math.sqrt(steps * p * (1 - p));
      expect(Math.abs(w.hits[side] - steps * p), `${side} ${w.hits[side]} vs ${steps * p}`).toBeLessThan(
        4 * sd,
      );
    }
  });
});
