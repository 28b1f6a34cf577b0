import { describe, expect, it } from "vitest";
import { MARKET_REFUSED_COOLDOWN_MS } from "../../../src/engine/market-refusals.js";
import { CROWD, Harness } from "./support/harness.js";

/**
 * The engine learns a market's status from condition_lifecycle pushes (src/app/feeds.ts), and the spec
 * says of that channel: "accepts subscriptions but most of its events are not yet emitted". When a
 * market pauses and no push arrives, the exchange answers placements there with 409 market_not_open.
 * That answer gates the market (market-refusals.ts), is not counted towards the wallet's error-rate
 * halt, and lifts after a cool-down (quoting retries) or at once on an OPEN push.
 */

/** A paused market whose lifecycle push never comes; returns the real push handler. */
function pauseSilently(h: Harness, marketId: string): (marketId: string, status: string) => void {
  const push = h.engine.onMarketStatus.bind(h.engine);
  h.engine.onMarketStatus = () => undefined;
  h.venue.setMarketStatus(marketId, "PAUSED");
  return push;
}

/** The crowd pulls its best bid on the token: its book moves, the engine requotes. */
function pullBestBid(h: Harness, tokenId: string): void {
  const best = h.venue
    .openOrders(CROWD)
    .filter((o) => o.tokenId === tokenId && o.side === "buy")
    .sort((x, y) => Number(y.price - x.price))[0];
  if (best !== undefined) h.venue.cancel(CROWD, best.id);
}

function rejects(h: Harness): number {
  return h.eventsOf("place_outcome").filter((e) => e.code === "market_not_open").length;
}

async function quotingWithDepth(h: Harness, tokenId: string): Promise<void> {
  h.crowdQuote(tokenId, "0.48", "0.52");
  for (const p of ["0.47", "0.46", "0.45", "0.44", "0.43", "0.42", "0.41"]) h.crowdOrder(tokenId, "buy", p);
  await h.engine.start();
  await h.run();
  expect(h.botQuotes(tokenId)).toHaveLength(2);
}

describe("engine lifecycle: a market paused without a lifecycle push", () => {
  it("409 market_not_open answers gate that market, not the whole wallet", async () => {
    const h = new Harness({ markets: 2 });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    h.crowdQuote(b, "0.48", "0.52");
    await quotingWithDepth(h, a);
    expect(h.botQuotes(b)).toHaveLength(2);

    pauseSilently(h, "m1");
    // The crowd pulls its bids on the paused market one by one (cancels stay allowed there).
    for (let i = 0; i < 7; i++) {
      pullBestBid(h, a);
      await h.run(1_000);
    }
    expect(rejects(h)).toBeGreaterThan(0);
    // The healthy market keeps its quotes: no wallet-wide halt for a market that is merely not OPEN.
    expect(h.logs.records().some((r) => r.msg === "risk: error_rate_halt")).toBe(false);
    expect(h.botQuotes(b)).toHaveLength(2);
    // And the paused market is not hammered with placements it refuses at every book change.
    expect(rejects(h)).toBeLessThanOrEqual(2);
    expect(h.botQuotes(a)).toEqual([]);
  });

  it("retries after the cool-down: a repeated reject gates again, a reopened market is quoted", async () => {
    const h = new Harness();
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    pauseSilently(h, "m1");
    pullBestBid(h, a);
    await h.run(1_000);
    const first = rejects(h);
    expect(first).toBeGreaterThan(0);
    expect(h.botQuotes(a)).toEqual([]);

    // Gated: book changes during the cool-down send nothing.
    pullBestBid(h, a);
    await h.run(MARKET_REFUSED_COOLDOWN_MS - 5_000);
    expect(rejects(h)).toBe(first);

    // The cool-down ends: quoting retries, is refused again and gated again (no book change needed).
    await h.run(5_000);
    const second = rejects(h);
    expect(second).toBeGreaterThan(first);
    pullBestBid(h, a);
    await h.run(30_000);
    expect(rejects(h)).toBe(second);

    // Reopened (still no push): the next cool-down's retry is accepted and the quotes rest.
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(MARKET_REFUSED_COOLDOWN_MS);
    expect(rejects(h)).toBe(second);
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(h.logs.records().some((r) => r.msg === "risk: error_rate_halt")).toBe(false);
  });

  it("a lifecycle OPEN push lifts the gate at once", async () => {
    const h = new Harness();
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    const push = pauseSilently(h, "m1");
    pullBestBid(h, a);
    await h.run(1_000);
    expect(rejects(h)).toBeGreaterThan(0);
    expect(h.botQuotes(a)).toEqual([]);

    h.venue.setMarketStatus("m1", "OPEN");
    push("m1", "OPEN");
    await h.run(100);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("a pushed PAUSED outlasts the cool-down until a push says OPEN", async () => {
    const h = new Harness();
    const [a] = h.tokens();
    await quotingWithDepth(h, a);
    const push = pauseSilently(h, "m1");
    pullBestBid(h, a);
    await h.run(1_000);
    const refused = rejects(h);
    push("m1", "PAUSED"); // the lifecycle push arrives late
    h.venue.setMarketStatus("m1", "OPEN"); // reopened on the exchange, push not yet in
    await h.run(2 * MARKET_REFUSED_COOLDOWN_MS);
    expect(rejects(h)).toBe(refused);
    expect(h.botQuotes(a)).toEqual([]);
    push("m1", "OPEN");
    await h.run(100);
    expect(h.botQuotes(a)).toHaveLength(2);
  });
});
