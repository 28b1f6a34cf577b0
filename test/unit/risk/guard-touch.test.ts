import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { checkQuote } from "../../../src/risk/quote-limits.js";
import { ctx, px, q, smallConfig } from "./helpers.js";

/**
 * "Never through the touch" and "own bids below own asks", enforced by the guard for whatever
 * strategy desired the quotes: against the best prices of the book the strategy was given.
 */
describe("RiskGuard.filter: quotes through the touch, own quotes crossed", () => {
  const guard = () => new RiskGuard(smallConfig());
  const touch = (bid: string, ask: string) => ({ ...ctx(), bestBidMicro: px(bid), bestAskMicro: px(ask) });
  const reasons = (r: { decisions: { reason: string; side: string | undefined }[] }) =>
    r.decisions.map((d) => `${d.reason} ${d.side}`);

  it("a bid one tick below the best ask and an ask one tick above the best bid pass untouched", () => {
    const inside = [q("buy", "0.51", 20), q("sell", "0.52", 20)];
    expect(guard().filter(touch("0.48", "0.52"), inside, 0)).toEqual({ allowed: inside, decisions: [] });
    const ask = [q("sell", "0.49", 20)];
    expect(guard().filter(touch("0.48", "0.52"), ask, 0)).toEqual({ allowed: ask, decisions: [] });
  });

  it.each([
    ["a bid at the best ask", q("buy", "0.52", 20), "bestAsk", "0.52"],
    ["a bid above the best ask", q("buy", "0.60", 20), "bestAsk", "0.52"],
    ["an ask at the best bid", q("sell", "0.48", 20), "bestBid", "0.48"],
    ["an ask below the best bid", q("sell", "0.30", 20), "bestBid", "0.48"],
  ])("%s is dropped (price_crosses_book), with the touch in the detail", (_n, quote, key, best) => {
    const r = guard().filter(touch("0.48", "0.52"), [quote], 0);
    expect(r.allowed).toEqual([]);
    expect(r.decisions).toEqual([
      expect.objectContaining({
        reason: "price_crosses_book",
        action: "drop",
        scope: "quote",
        side: quote.side,
        level: 0,
        detail: expect.objectContaining({ [key]: best }),
      }),
    ]);
  });

  it("an empty side of the book is nothing to cross; without a touch nothing is judged crossing", () => {
    const bid = q("buy", "0.90", 20);
    expect(guard().filter({ ...ctx(), bestBidMicro: px("0.48") }, [bid], 0).allowed).toEqual([bid]);
    expect(guard().filter(ctx(), [bid], 0).allowed).toEqual([bid]);
    expect(checkQuote(bid, ctx().market, smallConfig().order, [])).toEqual(bid);
  });

  it("one of our bids at or above one of our asks: both dropped (own_quotes_crossed), the rest kept", () => {
    const desired: DesiredQuote[] = [
      q("buy", "0.50", 20, 0),
      q("buy", "0.40", 20, 1),
      q("sell", "0.50", 20, 0),
      q("sell", "0.60", 20, 1),
    ];
    const r = guard().filter(touch("0.30", "0.70"), desired, 0);
    expect(r.allowed).toEqual([desired[1], desired[3]]);
    expect(reasons(r)).toEqual(["own_quotes_crossed buy", "own_quotes_crossed sell"]);
    expect(r.decisions[0]?.detail).toMatchObject({ ownAsk: "0.5" });
    expect(r.decisions[1]?.detail).toMatchObject({ ownBid: "0.5" });
  });

  it("a quote dropped for its price never takes a sound one down with it", () => {
    // The bid through the touch and the off-tick bid are above the ask, but they do not rest.
    const desired = [q("buy", "0.65", 20), q("buy", "0.555", 20, 1), q("sell", "0.55", 20)];
    const r = guard().filter(touch("0.30", "0.60"), desired, 0);
    expect(r.allowed).toEqual([desired[2]]);
    expect(reasons(r)).toEqual(["price_crosses_book buy", "price_off_tick buy"]);
  });

  it("a quote the size rules drop is not one of ours either: it never takes a sound one down", () => {
    // A sub-minimum bid above the ask (the market's minimum is 5), and under the "drop" policy an
    // oversized one and one over the notional: none is sent, so the ask crosses nothing of ours.
    const ask = q("sell", "0.49", 20);
    const small = guard().filter(touch("0.30", "0.70"), [q("buy", "0.50", 2), ask], 0);
    expect(small.allowed).toEqual([ask]);
    expect(reasons(small)).toEqual(["size_below_min buy"]);
    const dropping = new RiskGuard(smallConfig({ order: { oversize: "drop" } }));
    const big = dropping.filter(
      touch("0.30", "0.70"),
      [q("buy", "0.50", 60), q("buy", "0.65", 50, 1), ask],
      0,
    );
    expect(big.allowed).toEqual([ask]);
    expect(reasons(big)).toEqual(["order_size_exceeded buy", "notional_exceeded buy"]);
  });

  it("a crossing quote the size rules clip is still sent: both of the pair dropped, no clip decision", () => {
    const desired = [q("buy", "0.50", 100), q("sell", "0.49", 20)];
    const r = guard().filter(touch("0.30", "0.70"), desired, 0);
    expect(r.allowed).toEqual([]);
    expect(reasons(r)).toEqual(["own_quotes_crossed buy", "own_quotes_crossed sell"]);
  });

  it("a price drop comes before any size limit: an oversized crossing bid is not clipped first", () => {
    const r = guard().filter(touch("0.48", "0.52"), [q("buy", "0.55", 500)], 0);
    expect(reasons(r)).toEqual(["price_crosses_book buy"]);
  });
});
