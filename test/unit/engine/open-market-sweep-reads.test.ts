import { describe, expect, it } from "vitest";
import type {
  ListedMarketStatus,
  MarketRead,
  MarketRecordStatus,
  UnreadableListing,
} from "../../../src/engine/ports.js";
import { LIST_WORD, NOT_FOUND_STATUS, SWEEP_HOW } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, notFound, twoQuoted } from "./support/sweep-rig.js";

/*
 * How the open-market sweep reads, past the plain list: a record of the list that does not read,
 * a quoted market the exchange no longer shows, a list saying not OPEN whose record cannot be read,
 * and the reads being made once (no client-level retry: they are made again next period, and the
 * circuit breaker they share with the cancels should see one failure per read, not three), but for
 * the confirm read of a market the list says is not OPEN (open-market-sweep-list-word.test.ts).
 */

const RECHECK_MS = 5_000;

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
    expect(h.logs.text()).toContain(`market is now ${NOT_FOUND_STATUS} (${LIST_WORD.notFound})`);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);

    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    gone = false; // the record reads again, OPEN: the closed-market watch reopens it
    await h.run(2 * RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);
  });

  it("skips a record of the list that does not read: the others' statuses are still taken, a quoted one is read by its slug", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const records = new Map<string, number>();
    h.exchange.listedMarkets = async (): Promise<(ListedMarketStatus | UnreadableListing)[]> => [
      { marketId: "m1", unreadable: "markets[0].slug: expected a string" },
      { marketId: "m2", status: h.venue.market("m2")?.status ?? "OPEN" },
      { marketId: undefined, unreadable: "markets[2].id: expected a string" },
    ];
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      records.set(marketId, (records.get(marketId) ?? 0) + 1);
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    const { a, b } = await twoQuoted(h);
    h.silentStatus = true;
    h.venue.setMarketStatus("m2", "PAUSED");
    h.venue.setMarketStatus("m1", "SUSPENDED");
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain(`market is now PAUSED (its record, read ${SWEEP_HOW})`);
    expect(h.logs.text()).toContain(`market is now SUSPENDED (its record, read ${SWEEP_HOW})`);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toEqual([]);
    expect(records.get("m1")).toBe(1); // read by its slug
    expect(lines(h, "market list records that do not read")).toHaveLength(1);
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
    expect(h.logs.text()).toContain(`market is now PAUSED (${LIST_WORD.unreadable})`);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);
  });

  it("reads a record the list leaves out once, no client-level retry (MarketRead.once)", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const reads: (MarketRead | undefined)[] = [];
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue
        .markets()
        .filter((m) => m.marketId !== "m2")
        .map((m) => ({ marketId: m.marketId, status: m.status }));
    h.exchange.marketRecord = async ({ marketId }, read): Promise<MarketRecordStatus> => {
      if (marketId === "m2") reads.push(read);
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    await twoQuoted(h);
    await h.run(RECHECK_MS);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r?.once === true)).toBe(true);
  });

  it("logs a list disagreeing with the record once while they disagree, and again after they agreed", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    let stale = true;
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue
        .markets()
        .map((m) => ({ marketId: m.marketId, status: stale && m.marketId === "m1" ? "PAUSED" : m.status }));
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => ({
      status: h.venue.market(marketId)?.status ?? "OPEN",
    });
    const { a } = await twoQuoted(h);
    const DISAGREE = "its record says OPEN: not held";
    await h.run(5 * RECHECK_MS);
    expect(lines(h, DISAGREE)).toHaveLength(1);
    stale = false;
    await h.run(2 * RECHECK_MS);
    stale = true;
    await h.run(2 * RECHECK_MS);
    expect(lines(h, DISAGREE)).toHaveLength(2);
    expect(h.botQuotes(a)).toHaveLength(2);
  });
});
