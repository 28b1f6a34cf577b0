import { describe, expect, it } from "vitest";
import { NOT_FOUND_STATUS, SWEEP_HOW } from "../../../src/engine/open-market-sweep.js";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * How the open-market sweep reads, past the plain list: a quoted market the exchange no longer
 * shows, and a list saying not OPEN whose record cannot be read.
 */

const RECHECK_MS = 5_000;

const notFound = () =>
  new ExchangeError({
    code: "market_not_found",
    message: "no market",
    outcome: "rejected",
    endpoint: "GET /api/markets/{slug}",
    httpStatus: 404,
  });

/** Two markets quoted on books that never move, the engine started. */
async function twoQuoted(h: Harness): Promise<{ a: string; b: string }> {
  const [a] = h.tokens(1);
  const [b] = h.tokens(2);
  h.crowdQuote(a, "0.48", "0.52");
  h.crowdQuote(b, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  expect(h.botQuotes(b)).toHaveLength(2);
  return { a, b };
}

const lines = (h: Harness, text: string) =>
  h.logs
    .text()
    .split("\n")
    .filter((l) => l.includes(text));

describe("open-market sweep: reads past the plain list", () => {
  it("holds a quoted market the list leaves out whose record is not found (404), and reopens it once found OPEN", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    let gone = true;
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue
        .markets()
        .filter((m) => m.marketId !== "m1")
        .map((m) => ({ marketId: m.marketId, status: m.status }));
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      if (marketId === "m1" && gone) throw notFound();
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    const { a, b } = await twoQuoted(h);
    await h.run(RECHECK_MS);
    // Before: the 404 was only a failing read (warned on the 2nd); the quotes rested meanwhile, for good.
    expect(lines(h, "its record is not found (404): held")).toHaveLength(1);
    expect(h.logs.text()).toContain(`market is now ${NOT_FOUND_STATUS} (its record, read ${SWEEP_HOW})`);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);

    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    gone = false; // the record reads again, OPEN: the closed-market watch reopens it
    await h.run(2 * RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("holds a market the list says is not OPEN on the list's word when its record cannot be read", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue.markets().map((m) => ({ marketId: m.marketId, status: m.status }));
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      throw new Error("GET /api/markets/{slug}: 503 exchange_unavailable");
    };
    const { a, b } = await twoQuoted(h);
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain(`market is now PAUSED (its record, read ${SWEEP_HOW})`);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);
  });
});
