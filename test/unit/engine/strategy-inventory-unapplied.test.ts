import { describe, expect, it } from "vitest";
import { glft } from "../../../strategies/glft.js";
import { configureStrategy } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { Harness } from "./support/harness.js";

/**
 * The strategy's ctx.inventory is positions.position(), which leaves out the
 * fills the exchange already reported on our orders (OrderStore.unapplied) — the very fills the
 * risk guard counts as position (withUnapplied, unapplied-exposure.ts). Between a placement
 * answered FILLED and its user_fill, GLFT prices and bounds on the pre-fill q: at q = Q it bids again.
 */
describe("strategies: ctx.inventory counts the fills the exchange reported but inventory has not taken", () => {
  it("GLFT at its inventory bound (fill answered, push late) does not bid again", async () => {
    const seen: bigint[] = [];
    // σ fixed 0: half-spread c1 = ln(1 + γ/k)/γ ≈ 0.0298 → bid 0.47, ask 0.53 around 0.50.
    const inner = configureStrategy(glft, {
      gamma: 1,
      k: 33,
      A: 1,
      maxInventory: 1,
      orderSize: "10",
      sigma: 0,
    });
    const configured = {
      ...inner,
      quote: (ctx: StrategyContext) => {
        seen.push(ctx.inventory);
        return inner.quote(ctx);
      },
    };
    const h = new Harness({
      configured,
      latencyMs: 50,
      risk: { inventory: { perMarket: { soft: "100", hard: "100" } } },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    for (let i = 0; i < 2_000 && h.exchange.of("place").length === 0; i++) await h.run(1);
    h.dropFills = true; // the user channel lags
    h.crowdQuote(yes, "0.40", "0.47", "100");
    h.crowdOrder(yes, "sell", "0.55", "100");
    await h.run(500);
    await starting;
    // The exchange filled our 10-share bid: q = 1 lot = Q on the exchange.
    expect(h.fills.map((f) => f.sizeMicro)).toEqual([10_000_000n]);
    expect(h.engine.positionOf(yes)).toBe(0n); // not delivered yet
    // The strategy must have been told the 10 shares the exchange reported filled…
    expect(seen.at(-1)).toBe(10_000_000n);
    // …so GLFT, at q = Q, keeps no bid resting (a second fill would take q to 2·Q).
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual([]);
  });
});
