import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * Rule 5 of CrowdMirror: a recorded level enters the venue only once a bot order could meet it.
 * The reference keeps every level in the venue (`everyLevel`). Both are driven with the same
 * random recording (mostly consistent, with now and then a level on the far side of the book: a
 * crossed frame, which rule 6 holds out of the venue), bot orders (resting and aggressive, at and
 * through the book), cancels and trade prints; the bot's fills, its resting orders and the market's
 * size at every price must be the same after every step.
 */

type Op =
  | { readonly k: "delta"; readonly bid: boolean; readonly tick: number; readonly size: number }
  | { readonly k: "cross"; readonly bid: boolean; readonly tick: number; readonly size: number }
  | {
      readonly k: "bot";
      readonly buy: boolean;
      readonly tick: number;
      readonly qty: number;
      readonly ioc: boolean;
    }
  | { readonly k: "cancel"; readonly pick: number }
  | { readonly k: "print"; readonly takerBuy: boolean; readonly tick: number; readonly qty: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant("delta" as const),
      bid: fc.boolean(),
      tick: fc.integer({ min: 0, max: 9 }),
      size: fc.integer({ min: 0, max: 60 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("bot" as const),
      buy: fc.boolean(),
      tick: fc.integer({ min: 38, max: 62 }),
      qty: fc.integer({ min: 1, max: 40 }),
      ioc: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("cross" as const),
      bid: fc.boolean(),
      tick: fc.integer({ min: 0, max: 4 }),
      size: fc.integer({ min: 0, max: 60 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("cancel" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("print" as const),
      takerBuy: fc.boolean(),
      tick: fc.integer({ min: 38, max: 62 }),
      qty: fc.integer({ min: 1, max: 80 }),
    }),
  },
);

const price = (tick: number) => (tick / 100).toFixed(2);

function apply(w: ReturnType<typeof world>, o: Op): void {
  switch (o.k) {
    case "delta":
      // Bids on 0.40–0.49, asks on 0.51–0.60: the recording never crosses.
      w.delta([o.bid ? "buy" : "sell", price(o.bid ? 49 - o.tick : 51 + o.tick), String(o.size)]);
      return;
    case "cross":
      // A bid on 0.50–0.54 or an ask on 0.46–0.50: it may cross the other side.
      w.delta([o.bid ? "buy" : "sell", price(o.bid ? 50 + o.tick : 50 - o.tick), String(o.size)]);
      return;
    case "bot":
      w.bot(o.buy ? "buy" : "sell", price(o.tick), String(o.qty), o.ioc ? "ioc" : "gtc");
      return;
    case "cancel": {
      const open = w.venue.openOrders(BOT);
      const target = open[o.pick % Math.max(1, open.length)];
      if (target !== undefined) w.venue.cancel(BOT, target.id);
      return;
    }
    case "print":
      w.print(o.takerBuy ? "buy" : "sell", price(o.tick), String(o.qty));
  }
}

function state(w: ReturnType<typeof world>) {
  const sizes: string[] = [];
  for (let tick = 38; tick <= 62; tick++) {
    for (const side of ["buy", "sell"] as const) {
      const s = w.mirror.crowdSize(T, side, u(price(tick)));
      if (s !== 0n) sizes.push(`${side} ${tick} ${s}`);
    }
  }
  const open = w.venue.openOrders(BOT).map((o) => `${o.side} ${o.price} ${o.remainingQty}`);
  return { fills: fillsOf(w), open, sizes };
}

const MODELS: [string, QueueModelSpec | undefined][] = [
  ["conservative, inferred trades", undefined],
  ["probabilistic, inferred trades", { type: "probabilistic", fn: "power", n: 2, trades: "inferred" }],
  ["riskAverse, recorded prints", { type: "riskAverse", trades: "recorded" }],
  ["probabilistic, auto", { type: "probabilistic", fn: "log", n: 1, trades: "auto" }],
];

describe("CrowdMirror rule 5: levels enter the venue only when a bot order could meet them", () => {
  for (const [name, model] of MODELS) {
    it(`fills the bot exactly as with every level mirrored (${name})`, () => {
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 120 }), (ops) => {
          const lazy = world(100, model);
          const all = world(100, model, { everyLevel: true });
          for (const w of [lazy, all]) w.snapshot([["0.45", "20"]], [["0.55", "20"]]);
          for (const o of ops) {
            apply(lazy, o);
            apply(all, o);
            expect(state(lazy)).toEqual(state(all));
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});
