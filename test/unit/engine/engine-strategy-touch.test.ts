import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { ParamReader } from "../../../strategies/params.js";
import { configureStrategy } from "../../../strategies/registry.js";
import type { Strategy } from "../../../strategies/types.js";
import { Harness } from "./support/harness.js";

/*
 * "Never through the touch" and "own bids below own asks" are rules of every strategy, but only the
 * shipped strategies' clamps (strategies/quoting.ts) kept them. A custom strategy bound with
 * configureStrategy that bids at or above the best ask was sent as is and took liquidity (the
 * exchange has no post-only flag). The engine now drops such quotes before the guard sizes them,
 * reports each as a risk decision (counted by the listener on every step, logged once while it
 * stands), and sends the rest.
 */

interface Fixed {
  readonly bidMicro: number;
  readonly askMicro: number;
}

/**
 * A buggy strategy: a bid and an ask at fixed prices, whatever the book. It reads nothing of the
 * context, so the engine's memo must learn from the check itself that the step depends on the touch.
 */
const fixedPrices: Strategy<Fixed> = {
  name: "fixed-prices",
  parseParams(raw: unknown): Fixed {
    const r = new ParamReader(raw);
    const bid = r.micro("bid", 1_000_000n);
    const ask = r.micro("ask", 1_000_000n);
    r.finish("fixed-prices");
    return { bidMicro: Number(bid), askMicro: Number(ask) };
  },
  quote(_ctx, p): DesiredQuote[] {
    return [
      { side: "buy", level: 0, priceMicro: p.bidMicro, sizeMicro: 10_000_000n },
      { side: "sell", level: 0, priceMicro: p.askMicro, sizeMicro: 10_000_000n },
    ];
  },
};

const harness = (bid: string, ask: string) =>
  new Harness({ configured: configureStrategy(fixedPrices, { bid, ask }) });

/** The decisions the listener received (every step's: what metrics count) of one reason on one token. */
function decisions(h: Harness, tokenId: string, reason: string) {
  return h
    .eventsOf("decision")
    .map((e) => e.decision)
    .filter((d) => d.tokenId === tokenId && d.reason === reason);
}

/** Info-or-above lines about the token's risk decisions. */
function riskLines(h: Harness, tokenId: string): string[] {
  return h.logs
    .records()
    .filter((r) => Number(r.level) >= 30 && r.tokenId === tokenId && String(r.msg).startsWith("risk: "))
    .map((r) => `${String(r.msg)}${r.side === undefined ? "" : ` ${String(r.side)}`}`);
}

describe("engine: a custom strategy's quote through the touch is dropped", () => {
  it("a bid at the best ask is not placed (no fill), the ask is; the decision is logged once and cleared once", async () => {
    const h = harness("0.52", "0.60");
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.fills).toEqual([]); // the bid would have bought the crowd's ask at 0.52
    expect(h.botQuotes(yes)).toEqual(["sell 0.6 10"]);
    const crossing = decisions(h, yes, "price_crosses_book");
    expect(crossing.length).toBeGreaterThan(0);
    expect(crossing[0]).toMatchObject({
      action: "drop",
      scope: "quote",
      side: "buy",
      level: 0,
      detail: { price: "0.52", bestAsk: "0.52" },
    });
    // The crowd keeps moving its bid: the crossing stands, logged once; every step still counted.
    const counted = crossing.length;
    for (let i = 0; i < 6; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.47" : "0.48", "0.52");
      await h.run(100);
    }
    const after = decisions(h, yes, "price_crosses_book");
    expect(after.length).toBeGreaterThan(counted + 5);
    expect(h.botQuotes(yes)).toEqual(["sell 0.6 10"]);
    expect(h.fills).toEqual([]);
    // The ask moves away: the same bid rests passively now (the strategy read nothing, yet it re-runs).
    h.crowdQuote(yes, "0.48", "0.55");
    await h.run(100);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.52 10", "sell 0.6 10"]);
    expect(riskLines(h, yes)).toEqual(["risk: price_crosses_book buy", "risk: cleared"]);
  });

  it("an ask at or below the best bid is dropped the same way (detail: the best bid)", async () => {
    const h = harness("0.40", "0.47");
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.fills).toEqual([]);
    expect(h.botQuotes(yes)).toEqual(["buy 0.4 10"]);
    const d = decisions(h, yes, "price_crosses_book")[0];
    expect(d).toMatchObject({ side: "sell", detail: { price: "0.47", bestBid: "0.48" } });
  });

  it("own bid at or above own ask inside a wide book: both dropped, nothing placed", async () => {
    const h = harness("0.50", "0.50");
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.40", "0.60");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes)).toEqual([]);
    expect(h.fills).toEqual([]);
    const own = decisions(h, yes, "own_quotes_crossed");
    expect(new Set(own.map((d) => d.side))).toEqual(new Set(["buy", "sell"]));
    expect(riskLines(h, yes).sort()).toEqual([
      "risk: own_quotes_crossed buy",
      "risk: own_quotes_crossed sell",
    ]);
  });

  it("a crossing bid of an oversized quote is dropped before it is sized (no clip decision)", async () => {
    const h = new Harness({
      configured: configureStrategy(fixedPrices, { bid: "0.52", ask: "0.60" }),
      risk: { order: { maxSize: "5" } },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const onBid = h
      .eventsOf("decision")
      .filter((e) => e.decision.tokenId === yes && e.decision.side === "buy")
      .map((e) => e.decision.reason);
    expect(new Set(onBid)).toEqual(new Set(["price_crosses_book"]));
    expect(h.botQuotes(yes)).toEqual(["sell 0.6 5"]);
  });
});

/** What the toggled strategy desires: the test flips it between steps. */
const wants = { bid: true };

/**
 * `fixedPrices`, but the bid only while `wants.bid`: a strategy that stops desiring a faulty quote
 * (the next step's book moves the touch, so the step re-runs).
 */
const toggled: Strategy<Fixed> = {
  ...fixedPrices,
  name: "fixed-prices-toggled",
  quote(ctx, p): DesiredQuote[] {
    const all = fixedPrices.quote(ctx, p);
    return wants.bid ? all : all.filter((x) => x.side === "sell");
  },
};

describe("engine: a price fault ends with the quote (it is not a standing limit)", () => {
  const run = async (bid: string, ask: string, crowdBid: string, crowdAsk: string) => {
    wants.bid = true;
    const h = new Harness({ configured: configureStrategy(toggled, { bid, ask }) });
    const [yes] = h.tokens();
    h.crowdQuote(yes, crowdBid, crowdAsk);
    await h.engine.start();
    await h.run();
    return { h, yes };
  };

  it("a bid through the touch that the strategy stops desiring: risk: cleared at once", async () => {
    const { h, yes } = await run("0.52", "0.60", "0.48", "0.52");
    expect(riskLines(h, yes)).toEqual(["risk: price_crosses_book buy"]);
    wants.bid = false;
    h.crowdQuote(yes, "0.47", "0.52"); // still crossing, had it been desired
    await h.run(100);
    expect(h.botQuotes(yes)).toEqual(["sell 0.6 10"]);
    expect(riskLines(h, yes)).toEqual(["risk: price_crosses_book buy", "risk: cleared"]);
    // Desired again and still crossing: news again, logged once.
    wants.bid = true;
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(100);
    expect(riskLines(h, yes)).toEqual([
      "risk: price_crosses_book buy",
      "risk: cleared",
      "risk: price_crosses_book buy",
    ]);
  });

  it("own quotes crossed, the bid no longer desired: the ask rests and both decisions end", async () => {
    const { h, yes } = await run("0.50", "0.50", "0.40", "0.60");
    expect(riskLines(h, yes).sort()).toEqual([
      "risk: own_quotes_crossed buy",
      "risk: own_quotes_crossed sell",
    ]);
    wants.bid = false;
    h.crowdQuote(yes, "0.41", "0.60");
    await h.run(100);
    expect(h.botQuotes(yes)).toEqual(["sell 0.5 10"]);
    expect(riskLines(h, yes).slice(2)).toEqual(["risk: cleared"]);
  });
});
