import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { Harness, T0 } from "./support/harness.js";

/*
 * Review (r2sweep): mm_market_status_reads_failing{watch="open"} stays up for a read nobody makes.
 * The open sweep's keepOnly runs only inside a round, and no round runs once no market is OPEN (the
 * last quoted market passed its closesAt, or is held), while the list's key (LIST_KEY) is always
 * kept anyway. So a list that failed twice before the last market closed leaves the gauge at 1 for
 * the rest of the run: MmMarketStatusReadsFailing fires ("a market paused silently is not seen and
 * its quotes rest at pre-pause prices") with nothing quoted and nothing read. ReadFailures' doc
 * says "so does a key no longer read (keepOnly: the market reopened, settled, passed its close), so
 * the gauge does not stay up for a read nobody makes".
 */

const RECHECK_MS = 5_000;
const openGauge = (h: Harness) =>
  h
    .eventsOf("market_reads_failing")
    .filter((e) => e.watch === "open")
    .map((e) => e.failing);

function failingList(h: Harness) {
  let lists = 0;
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => {
    lists++;
    throw new Error("GET /api/markets: 503 exchange_unavailable");
  };
  h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => ({
    status: h.venue.market(marketId)?.status ?? "OPEN",
  });
  return () => lists;
}

describe("review r2sweep: the open watch's gauge once no market is OPEN", () => {
  it("clears when the last quoted market passes its closesAt (no read is made any more)", async () => {
    const h = new Harness({
      markets: 1,
      latencyMs: 50,
      closesAt: () => T0 + 8 * RECHECK_MS,
      options: { marketRecheckMs: RECHECK_MS },
    });
    const lists = failingList(h);
    const [a] = h.tokens(1);
    h.crowdQuote(a, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    await h.run(4 * RECHECK_MS);
    expect(openGauge(h)).toEqual([1]); // the list keeps failing: warned, counted
    await h.run(10 * RECHECK_MS); // the market is past its close: nothing OPEN to sweep
    const readsAfterClose = lists();
    await h.run(10 * RECHECK_MS);
    expect(lists()).toBe(readsAfterClose); // no list read is made any more…
    expect(openGauge(h).at(-1)).toBe(0); // …so the gauge must not say one keeps failing
  });

  it("clears while the only quoted market is held by a push (no read is made meanwhile)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const lists = failingList(h);
    const [a] = h.tokens(1);
    h.crowdQuote(a, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    await h.run(4 * RECHECK_MS);
    expect(openGauge(h)).toEqual([1]);
    h.venue.setMarketStatus("m1", "PAUSED"); // pushed (market_status)
    await h.run(2 * RECHECK_MS);
    const readsWhileHeld = lists();
    await h.run(10 * RECHECK_MS);
    expect(lists()).toBe(readsWhileHeld);
    expect(openGauge(h).at(-1)).toBe(0);
  });
});
