import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { LIST_WORD } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, notFound } from "./support/sweep-rig.js";

/*
 * A quoted market the open-market sweep holds NOT_FOUND (not in the list, its record 404). Before:
 * the closed-market watch counted each 404 on it as a failing read, so a market gone for good
 * (CANCELLED, not public) held mm_market_status_reads_failing{watch="closed"} at 1 for the whole
 * run (MmMarketStatusReadsFailing firing for ever, "check the exchange's status"); and a market back
 * in the list under a new slug (read by its old one, a 404) stayed held for ever although the list,
 * read every period, showed it OPEN by its id.
 */

const RECHECK_MS = 5_000;

const closedGauge = (h: Harness) =>
  h
    .eventsOf("market_reads_failing")
    .filter((e) => e.watch === "closed")
    .map((e) => e.failing);

/** One market quoted, left out of the list (`listed` false) and its record never found. */
async function lostMarket(h: Harness, listed: () => boolean): Promise<string> {
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
    h.venue
      .markets()
      .filter(() => listed())
      .map((m) => ({ marketId: m.marketId, status: m.status }));
  h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
    throw notFound();
  };
  const [a] = h.tokens(1);
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  await h.run(RECHECK_MS);
  expect(h.botQuotes(a)).toEqual([]); // held NOT_FOUND
  return a;
}

describe("a market held NOT_FOUND", () => {
  it("is not counted as a failing read by the closed-market watch while its record stays not found (said once)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    await lostMarket(h, () => false);
    await h.run(10 * RECHECK_MS);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
    expect(lines(h, "keeps failing to read")).toEqual([]);
    const said = lines(h, "held market's record still not found (404)");
    expect(said.filter((l) => l.includes('"level":30'))).toHaveLength(1); // info once, debug after
    expect(said.length).toBeGreaterThan(1);
  });

  it("is reopened when the list shows it OPEN again by its id (its record still not found by its slug)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    let listed = false;
    const a = await lostMarket(h, () => listed);
    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    listed = true; // back in the list (under a new slug, say): OPEN by its id
    await h.run(2 * RECHECK_MS);
    expect(h.logs.text()).toContain(`market is now OPEN (${LIST_WORD.listedAgain})`);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  /*
   * And one the list shows by its id as something other than OPEN (closed, resolved) stayed
   * NOT_FOUND: no settlement for a resolution, no closed-market handling; only OPEN was taken. Its
   * status there is now taken once its record agrees (the record read by its slug, as for a quoted
   * market the list says is not OPEN), or on the list's word when its record is still not found
   * (back under a new slug): the list shows the market by its id.
   */
  it("takes its record's status over the list's once the record is found again (a list lagging it)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const a = await lostMarket(h, () => false);
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", status: "CLOSED" },
    ];
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({ status: "OPEN" });
    await h.run(2 * RECHECK_MS);
    expect(lines(h, "market is now CLOSED")).toEqual([]);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("takes a resolution the list shows by its id, its record still not found by its slug: settled at the list's payouts", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    await lostMarket(h, () => false);
    const payouts = { "0": "1", "1": "0" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", status: "RESOLVED", payouts },
    ];
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain(`market is now RESOLVED (${LIST_WORD.listedById})`);
    expect(h.eventsOf("market_settled").map((e) => e.marketId)).toEqual(["m1"]);
  });

  it("stays NOT_FOUND while its record cannot be read, the list's status taken once it reads", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    await lostMarket(h, () => false);
    let down = true;
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", status: "PAUSED" },
    ];
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      if (down) throw new Error("GET /api/markets/{slug}: 503 exchange_unavailable");
      return { status: "PAUSED" };
    };
    await h.run(3 * RECHECK_MS);
    // Held already (its quotes cancelled): nothing is lost by waiting for the record's word.
    expect(lines(h, "market is now PAUSED")).toEqual([]);
    down = false;
    await h.run(RECHECK_MS);
    expect(lines(h, "market is now PAUSED")).toHaveLength(1);
  });
});
