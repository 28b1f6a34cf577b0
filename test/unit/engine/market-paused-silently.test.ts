import { describe, expect, it } from "vitest";
import { CLOSED_MARKET_READ_MS } from "../../../src/engine/closed-market-watch.js";
import { MARKET_REFUSED_COOLDOWN_MS } from "../../../src/engine/market-refusals.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { CROWD, Harness, type HarnessOptions } from "./support/harness.js";
import { heldRecord } from "./support/settlement.js";

/**
 * A market paused with no lifecycle push (the spec: most are not yet emitted). The placement refused
 * `market_not_open` reads the market's record; a record saying PAUSED is the exchange's word on the
 * refusal and is taken as the push that never came: the market is closed by that status, the
 * closed-market watch reads its record, and a record saying OPEN reopens it. Before, the PAUSED
 * record was ignored: the refusal's cool-down reopened the market every minute, a burst of
 * placements was refused each time for as long as the pause lasted, and a market reopened silently
 * was quoted again only at the next cool-down's end.
 */

/** Two markets quoted; market 1's bids have depth, so pulling its best bid moves its quotes. */
async function twoQuoted(
  options: HarnessOptions["options"] = {},
): Promise<{ h: Harness; a: string; b: string; reads: () => number }> {
  const h = new Harness({ markets: 2, latencyMs: 50, options });
  const [a] = h.tokens(1);
  const [b] = h.tokens(2);
  let reads = 0;
  h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
    reads++;
    return { status: h.venue.market(marketId)?.status ?? "OPEN" };
  };
  h.crowdQuote(a, "0.48", "0.52");
  for (const p of ["0.47", "0.46", "0.45", "0.44"]) h.crowdOrder(a, "buy", p);
  h.crowdQuote(b, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  expect(h.botQuotes(b)).toHaveLength(2);
  return { h, a, b, reads: () => reads };
}

/** The crowd pulls its best bid on the token (cancels stay allowed while paused): the engine requotes. */
function pullBestBid(h: Harness, tokenId: string): void {
  const best = h.venue
    .openOrders(CROWD)
    .filter((o) => o.tokenId === tokenId && o.side === "buy")
    .sort((x, y) => Number(y.price - x.price))[0];
  if (best !== undefined) h.venue.cancel(CROWD, best.id);
}

const rejects = (h: Harness) =>
  h.eventsOf("place_outcome").filter((e) => e.code === "market_not_open").length;

describe("a market paused without a push, its record read after the refusal", () => {
  it("is held PAUSED: no placement probes it while paused; the watch's read reopens it", async () => {
    const { h, a, b, reads } = await twoQuoted();
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    pullBestBid(h, a);
    await h.run(1_000);
    const first = rejects(h);
    expect(first).toBeGreaterThan(0);
    expect(h.logs.text()).toContain("market is now PAUSED (its record, read after the refusal)");
    expect(h.botQuotes(a)).toEqual([]);

    // Three cool-downs and more book changes: nothing is placed there (before: a refused burst at
    // each cool-down's end), its record is read once a round instead.
    for (let i = 0; i < 3; i++) {
      pullBestBid(h, a);
      await h.run(MARKET_REFUSED_COOLDOWN_MS);
    }
    expect(rejects(h)).toBe(first);
    expect(h.logs.text().match(/market refused a placement/g)).toHaveLength(1);
    expect(reads()).toBeGreaterThanOrEqual(3);
    expect(h.botQuotes(a)).toEqual([]);
    // The other market quotes on, and no wallet-wide halt.
    expect(h.botQuotes(b)).toHaveLength(2);
    expect(h.logs.text()).not.toContain("error_rate_halt");

    // Reopened silently: quoted again at the watch's next read, within CLOSED_MARKET_READ_MS.
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(CLOSED_MARKET_READ_MS);
    expect(h.logs.text()).toContain("market is now OPEN (its record, read while it was closed)");
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(rejects(h)).toBe(first);
  });

  it("drops the record's answer when a push reopened the market while it was out", async () => {
    const { h, a } = await twoQuoted();
    const record = heldRecord(h);
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    pullBestBid(h, a);
    await h.run(1_000);
    expect(record.reads()).toBe(1);
    expect(h.botQuotes(a)).toEqual([]);

    // Reopened, and this time pushed, before the read (served earlier) answers PAUSED.
    h.venue.setMarketStatus("m1", "OPEN");
    h.engine.onMarketStatus("m1", "OPEN");
    await h.run(100);
    expect(h.botQuotes(a)).toHaveLength(2);
    record.answer({ status: "PAUSED" });
    await h.run(1_000);
    expect(h.logs.text()).not.toContain("market is now PAUSED");
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("is read every engine.marketRecheckMs: a silent resume is quoted within that period", async () => {
    const { h, a, reads } = await twoQuoted({ marketRecheckMs: 5_000 });
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    pullBestBid(h, a);
    await h.run(1_000);
    expect(h.logs.text()).toContain("market is now PAUSED (its record, read after the refusal)");
    await h.run(20_000);
    expect(reads()).toBeGreaterThanOrEqual(4); // the refusal's read, then one every 5 s
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(5_000);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("a record that cannot be read leaves a cool-down of engine.marketRecheckMs", async () => {
    const { h, a } = await twoQuoted({ marketRecheckMs: 5_000 });
    h.exchange.marketRecord = async () => {
      throw new Error("503 exchange_unavailable");
    };
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    pullBestBid(h, a);
    await h.run(1_000);
    const first = rejects(h);
    expect(first).toBeGreaterThan(0);
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(5_000); // the cool-down ends: quoting retries, accepted
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(rejects(h)).toBe(first);
  });
});
