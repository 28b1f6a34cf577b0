import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/** The market opens at the exchange (no push), and the crowd quotes it. */
function opens(h: Harness): void {
  h.venue.setMarketStatus(h.markets[0]?.marketId ?? "", "OPEN");
  for (const t of h.tokens()) h.crowdQuote(t, "0.48", "0.52");
}

/**
 * A market listed not OPEN at start (or closed by a push) stayed dark for the whole run when it
 * opened without a push, and the spec says most lifecycle events are not yet emitted. Its record is
 * now read once a minute (ClosedMarketWatch).
 */
async function preMarket(record?: () => Promise<{ status: string }>): Promise<Harness> {
  const h = new Harness({ latencyMs: 50, status: () => "PRE_MARKET" });
  h.silentStatus = true;
  if (record !== undefined) h.exchange.marketRecord = record;
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes()).toEqual([]);
  return h;
}

describe("a market closed by its status, opening without a push", () => {
  it("is quoted within a minute of its record saying OPEN", async () => {
    let reads = 0;
    let status = "PRE_MARKET";
    const h = await preMarket(async () => {
      reads++;
      return { status };
    });
    await h.run(60_000);
    expect(reads).toBe(1); // still PRE_MARKET: nothing changes
    expect(h.botQuotes()).toEqual([]);
    status = "OPEN";
    opens(h);
    await h.run(60_000);
    expect(reads).toBe(2);
    expect(h.logs.text()).toContain("market is now OPEN (its record, read while it was closed)");
    expect(h.botQuotes(h.tokens()[0]).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    await h.run(120_000); // open now: its record is no longer read
    expect(reads).toBe(2);
  });

  it("a failed read is tried again at the next round", async () => {
    let reads = 0;
    const h = await preMarket(async () => {
      reads++;
      if (reads === 1) throw new Error("503 exchange_unavailable");
      return { status: "OPEN" };
    });
    opens(h);
    await h.run(60_000);
    expect(h.botQuotes()).toEqual([]);
    await h.run(60_000);
    expect(reads).toBe(2);
    expect(h.botQuotes(h.tokens()[0]).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("stays dark on a port that cannot read records (the backtest's venue): nothing is polled", async () => {
    const h = await preMarket();
    opens(h);
    await h.run(180_000);
    expect(h.botQuotes()).toEqual([]);
  });

  it("reads one market at a time, and a failure ends the round (the reads share the circuit breaker), the failed market read last next time", async () => {
    const h = new Harness({ latencyMs: 50, markets: 3, status: () => "PRE_MARKET" });
    h.silentStatus = true;
    const reads: string[] = [];
    h.exchange.marketRecord = async ({ marketId }) => {
      reads.push(marketId);
      throw new Error("502 bad gateway");
    };
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(60_000);
    expect(reads).toEqual(["m1"]);
    await h.run(60_000);
    expect(reads).toEqual(["m1", "m2"]);
    await h.run(2 * 60_000);
    expect(reads).toEqual(["m1", "m2", "m3", "m1"]); // the longest-failed first
  });

  it("reads nothing while every market is open; a push that closes one arms the next round", async () => {
    const h = new Harness({ latencyMs: 50 });
    let reads = 0;
    h.exchange.marketRecord = async () => {
      reads++;
      return { status: "PAUSED" };
    };
    for (const t of h.tokens()) h.crowdQuote(t, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(300_000);
    expect(reads).toBe(0);
    h.engine.onMarketStatus(h.markets[0]?.marketId ?? "", "PAUSED");
    await h.run(61_000);
    expect(reads).toBe(1);
  });
});
