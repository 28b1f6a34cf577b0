import { describe, expect, it } from "vitest";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { BANDS, BOT, CROWD, Harness } from "./support/harness.js";

/**
 * The inventory caps are on grosses: Σ |position| over the market's tokens (perMarket) and over the
 * wallet (total). A fill on one token moves the gross every other token's limits are computed from,
 * so those tokens are requoted too (engine-fills.ts); and the hard caps bound the worst case, so each
 * token's room counts every other token at its worst case, its resting orders all filling
 * (engine-positions.ts exposure, inventory-caps.ts sideLimits).
 */
async function started(h: Harness): Promise<void> {
  const starting = h.engine.start();
  await h.run(500);
  await starting;
}

describe("inventory caps on the other tokens of the market and the wallet", () => {
  it("soft cap reached by a fill on YES makes NO reduce-only: NO's quotes are cancelled", async () => {
    // Soft 10: one 10-share fill on YES takes the market gross to 10, so quoting in m1 is
    // reduce-only; NO is flat, so the side that would grow |p| gets nothing: both sides.
    const risk = { inventory: { perMarket: { soft: "10", hard: "100" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await started(h);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    h.take(yes, "sell", "0.47", "110"); // we buy 10 YES (the crowd's 100 at 0.48, then our 10)
    await h.run(2_000);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    // NO's book never moved: the fill on YES alone has it requoted.
    expect(h.botQuotes(no)).toEqual([]);
  });

  it("total soft cap reached by a fill in one market makes another market's tokens reduce-only", async () => {
    const risk = {
      inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "10", hard: "100" } },
    };
    const h = new Harness({ risk, latencyMs: 50, markets: 2 });
    const [yes1, no1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
    await started(h);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    h.take(yes1, "sell", "0.47", "110");
    await h.run(2_000);
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);
    expect(h.botQuotes(yes2)).toEqual([]);
    expect(h.botQuotes(no2)).toEqual([]);
  });

  it("a position correction on YES that reaches the soft cap makes NO reduce-only", async () => {
    const risk = { inventory: { perMarket: { soft: "10", hard: "100" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await started(h);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    h.venue.credit(BOT, yes, 10_000_000n); // 10 shares that no fill explains
    await h.run(61_000); // seen by two position checks: corrected
    expect(h.eventsOf("reconcile").some((e) => e.summary.corrections.length > 0)).toBe(true);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    expect(h.botQuotes(no)).toEqual([]);
  });

  it("no combination of fills takes the market gross past inventory.perMarket.hard", async () => {
    // Hard 15: YES rests its bid of 10 first; NO's room counts YES's bid as filled, so NO may
    // rest 5 a side, and one sweep of both books ends at a gross of 15.
    const risk = { inventory: { perMarket: { soft: "15", hard: "15" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await started(h);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 5", "sell 0.53 5"]);

    // One taker sweeps both books at the same instant.
    h.take(yes, "sell", "0.47", "110");
    h.take(no, "sell", "0.47", "110");
    await h.run(2_000);
    const gross = h.engine.positionOf(yes) + h.engine.positionOf(no);
    expect(gross).toBe(15_000_000n);
  });

  it("no combination of fills takes the wallet's gross past inventory.total.hard", async () => {
    // Total hard 25 over two markets (each market's own cap far away): the tokens quoted first
    // take the room, the last ones are clipped, and a sweep of every book ends at 25.
    const risk = {
      inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "25", hard: "25" } },
    };
    const h = new Harness({ risk, latencyMs: 50, markets: 2 });
    const tokens = [...h.tokens(1), ...h.tokens(2)];
    for (const t of tokens) h.crowdQuote(t, "0.48", "0.52");
    await started(h);
    const bids = tokens.map((t) => h.botQuotes(t).find((q) => q.startsWith("buy")) ?? "none");
    expect(bids).toEqual(["buy 0.47 10", "buy 0.47 10", "buy 0.47 5", "none"]);

    for (const t of tokens) h.take(t, "sell", "0.47", "110");
    await h.run(2_000);
    let gross = 0n;
    for (const t of tokens) gross += h.engine.positionOf(t);
    expect(gross).toBe(25_000_000n);
  });

  it("a sibling's orders going frees its room for the token's next step, memo or not", async () => {
    // YES's quotes take 10 of the 15. Once they are cancelled (YES's book goes one-sided), NO's
    // next step (its book moving) counts YES at 0 and rests the full 10.
    const risk = { inventory: { perMarket: { soft: "15", hard: "15" } } };
    const h = new Harness({ risk, latencyMs: 50 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await started(h);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 5", "sell 0.53 5"]);

    // YES's book loses its bids: no mid, YES's quotes go.
    for (const o of h.venue.openOrders(CROWD)) {
      if (o.tokenId === yes && o.side === "buy") h.venue.cancel(CROWD, o.id);
    }
    await h.run(1_000);
    expect(h.botQuotes(yes)).toEqual([]);
    // A change deep in NO's book (its touch, all the strategy reads, unchanged) steps NO: the quote
    // memo does not replay the step sized beside YES's orders, it counts YES at 0 and rests 10.
    h.crowdOrder(no, "buy", "0.30");
    await h.run(1_000);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("a sibling's new orders do not re-run a token's step whose quotes no inventory limit cut", async () => {
    // Default caps (per market hard 2,000): YES's requote moves the market's worst case, NO's
    // limits move with it but still take NO's quotes, so NO's step is the remembered one.
    const inner = parseStrategyConfig(BANDS);
    const calls = new Map<string, number>();
    const counting: ConfiguredStrategy = {
      name: inner.name,
      params: inner.params,
      quote(ctx) {
        calls.set(ctx.market.tokenId, (calls.get(ctx.market.tokenId) ?? 0) + 1);
        return inner.quote(ctx);
      },
    };
    const h = new Harness({ configured: counting, latencyMs: 50 });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    await started(h);
    const noCalls = calls.get(no);
    // YES requotes its ask (mid 0.505): until the cancel is answered, its old ask and the new one
    // both count, so the market's worst case is 10 higher than NO's last step saw.
    h.crowdOrder(yes, "buy", "0.49");
    await h.run(10);
    h.crowdOrder(no, "buy", "0.30"); // away from NO's touch: NO steps, its other inputs as they were
    await h.run(1_000);
    expect(calls.get(no)).toBe(noCalls);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.54 10"]);
    expect(h.botQuotes(no).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
