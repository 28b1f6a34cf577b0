import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { Harness } from "./support/harness.js";

/*
 * A strategy's output is only typed, not checked, at the engine's boundary: a strategy that
 * returned something other than an array of quote objects (a sparse array built with
 * `new Array<DesiredQuote>(n)` and a level left unfilled; a JavaScript strategy returning
 * undefined or a promise) threw a TypeError out of the quoting step, outside the try that turns a
 * strategy's exception into "no quote". The step runs in the engine's flush microtask: the throw
 * skipped every other token of that flush and reached the process as an uncaughtException, which
 * stops `mm run` (exit 1). One token's bad output must cost that token's quotes only.
 */

const bid = (price: number): DesiredQuote => ({
  side: "buy",
  level: 0,
  priceMicro: price,
  sizeMicro: 10_000_000n,
});
const ask = (price: number): DesiredQuote => ({
  side: "sell",
  level: 0,
  priceMicro: price,
  sizeMicro: 10_000_000n,
});

/** Sound quotes on every token but `bad`, whose output is `broken()` once `broken` is on. */
function strategy(bad: string, broken: () => unknown): ConfiguredStrategy & { on: boolean } {
  const s = {
    name: "half-broken",
    params: {},
    on: false,
    quote(ctx: StrategyContext): DesiredQuote[] {
      if (s.on && ctx.market.tokenId === bad) return broken() as DesiredQuote[];
      return [bid(470_000), ask(530_000)];
    },
  };
  return s;
}

function sparse(): DesiredQuote[] {
  const out = new Array<DesiredQuote>(4); // levels 0 and 1 of each side, level 1 never filled
  out[0] = bid(470_000);
  out[2] = ask(530_000);
  return out;
}

const OUTPUTS: Record<string, () => unknown> = {
  "a sparse array (holes)": sparse,
  "an array with null": () => [null, ask(530_000)],
  undefined: () => undefined,
  "a promise (an async quote)": async () => [bid(470_000)],
};

describe("engine: a strategy output that is not an array of quotes", () => {
  for (const [what, broken] of Object.entries(OUTPUTS)) {
    it(`${what}: that token's quotes go, logged as a failed strategy; the other tokens quote on`, async () => {
      const bad = "11"; // market 1's YES token: the first of each flush
      const s = strategy(bad, broken);
      const h = new Harness({ markets: 2, configured: s });
      expect(h.tokens(1)[0]).toBe(bad);
      const all = [...h.tokens(1), ...h.tokens(2)];
      for (const t of all) h.crowdQuote(t, "0.40", "0.60");
      await h.engine.start();
      await h.run(1000);
      for (const t of all) expect(h.botQuotes(t).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
      s.on = true;
      // One frame per token, in one flush: the bad token steps first.
      for (const t of all) h.crowdQuote(t, "0.41", "0.59");
      await h.run(1000);
      expect(h.botQuotes(bad)).toEqual([]);
      for (const t of all.filter((x) => x !== bad)) {
        expect(h.botQuotes(t).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
      }
      const failed = h.logs.records().filter((r) => r.msg === "strategy failed: no quote");
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.every((r) => r.tokenId === bad && Number(r.level) === 50)).toBe(true);
      expect(failed.map((r) => (r.err as { code?: string } | undefined)?.code)).toContain(
        "strategy_output_invalid",
      );
      // The other tokens keep following their books.
      for (const t of all) h.crowdQuote(t, "0.40", "0.60");
      await h.run(1000);
      expect(h.botQuotes(h.tokens(2)[1]).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    });
  }
  it("an async quote that rejects: a failed strategy, not an unhandledRejection (which stops mm run)", async () => {
    const unhandled: unknown[] = [];
    const heard = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", heard);
    try {
      const s = strategy("11", () =>
        (async () => {
          throw new Error("no model yet");
        })(),
      );
      const h = new Harness({ configured: s });
      const [yes] = h.tokens();
      h.crowdQuote(yes, "0.40", "0.60");
      await h.engine.start();
      await h.run(1000);
      s.on = true;
      h.crowdQuote(yes, "0.41", "0.59");
      await h.run(1000);
      // Node reports an unhandled rejection once the microtasks have drained: a macrotask later.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(h.botQuotes(yes)).toEqual([]);
      const failed = h.logs.records().filter((r) => r.msg === "strategy failed: no quote");
      expect(failed.length).toBeGreaterThan(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", heard);
    }
  });
});
