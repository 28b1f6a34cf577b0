import { describe, expect, it } from "vitest";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { MISSED_SEARCH_MAX_PAGES } from "../../../src/execution/restored-fees.js";
import { Harness, T0 } from "./support/harness.js";
import { harnessBid, harnessBidFill } from "./support/harness-records.js";

/*
 * Fills made while mm was down (a killed run's resting order filled before the restart) are found
 * by paging the wallet's trade history back to the restored orders' placement. On a busy wallet that
 * history can run past the ordinary page bound: the start-up search pages on until its cut-off, up to
 * a larger bound, and says so loudly (log + the reconcile's summary) when even that is reached.
 * A trade names no token: the restored order's token is the journal's (its intent), so an order the
 * exchange has forgotten (404) still maps, and one on a token this run does not trade goes to the
 * journal alone (a `restored_fill` event), never into this run's inventory.
 */

const YES = "11"; // the Harness's first token
const RESTORED = "o-restored";
const CID = "mm-old-0000000000-b0-1";
const PLACED_AT = T0 - 3_600_000; // an hour before the restart

/** The exchange's record of the restored bid (GET /api/orders/{id}): filled while mm was down. */
const restoredOrder = harnessBid({
  id: RESTORED,
  clientOrderId: CID,
  status: "FILLED",
  createdAtMs: PLACED_AT,
  updatedAtMs: T0 - 1_800_000,
});

const trade = (id: string, orderId: string, atMs: number) => harnessBidFill(id, orderId, atMs);

/**
 * A busy wallet's history, newest first, one trade a page: `pages` trades of other orders (all after
 * the restored order's placement, before the restart), with the restored order's fill on page `at`.
 */
function busyHistory(h: Harness, pages: number, at: number, known = true): { reads: () => number } {
  let reads = 0;
  const rows = Array.from({ length: pages }, (_, i) =>
    i === at
      ? trade("t-missed", RESTORED, T0 - 1_800_000)
      : trade(`t-other-${i}`, `o-other-${i}`, T0 - 60_000 - i * 1_000),
  );
  h.exchange.trades = async (opts) => {
    reads++;
    const i = opts.cursor === undefined ? 0 : Number(opts.cursor);
    const page = rows.slice(i, i + 1);
    return { trades: page, nextCursor: i + 1 < rows.length ? String(i + 1) : null };
  };
  const order = h.exchange.order.bind(h.exchange);
  // Unless `known`, the exchange has forgotten the restored order: GET /api/orders/{id} answers 404.
  h.exchange.order = async (id) => (id === RESTORED && known ? restoredOrder : order(id));
  return { reads: () => reads };
}

/**
 * The same history served oldest first (one trade a page): `pages` trades of other orders, all after
 * the restored order's placement and before the restart, the restored order's fill on page `at`.
 */
function busyHistoryOldestFirst(h: Harness, pages: number, at: number): { reads: () => number } {
  let reads = 0;
  const rows = Array.from({ length: pages }, (_, i) =>
    i === at
      ? trade("t-missed", RESTORED, T0 - 1_800_000 + i * 1_000)
      : trade(`t-other-${i}`, `o-other-${i}`, T0 - 1_800_000 + i * 1_000),
  );
  h.exchange.trades = async (opts) => {
    reads++;
    const i = opts.cursor === undefined ? 0 : Number(opts.cursor);
    return { trades: rows.slice(i, i + 1), nextCursor: i + 1 < rows.length ? String(i + 1) : null };
  };
  const order = h.exchange.order.bind(h.exchange);
  h.exchange.order = async (id) => (id === RESTORED ? restoredOrder : order(id));
  return { reads: () => reads };
}

function restarted(orderTokens?: ReadonlyMap<string, string>): Harness {
  const restore = {
    accounts: new Map([[YES, EMPTY_ACCOUNT]]),
    orders: new Map([[RESTORED, CID]]),
    orderFills: [],
    ordersSinceMs: PLACED_AT,
    ...(orderTokens === undefined ? {} : { orderTokens }),
  };
  const h = new Harness({ options: { restore } });
  h.crowdQuote(YES, "0.48", "0.52");
  return h;
}

describe("start-up search for fills made while mm was down, on a busy wallet", () => {
  it("pages past the ordinary bound of 50 pages to the restored orders' placement", async () => {
    const h = restarted();
    const history = busyHistory(h, 120, 80);
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("fill").map((e) => [e.fill.tradeId, e.fill.clientOrderId, e.source])).toEqual([
      ["t-missed", CID, "backfill"],
    ]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
    expect(history.reads()).toBe(120);
    expect(h.eventsOf("reconcile")[0]?.summary.tradePagesCapped).toBe(false);
    expect(
      h.logs.records().filter((r) => Number(r.level) >= 40 && /trade history/.test(String(r.msg))),
    ).toEqual([]);
  });

  it("stops at its own bound with a warning naming what was not searched, and the summary flagged", async () => {
    const h = restarted();
    const history = busyHistory(h, MISSED_SEARCH_MAX_PAGES + 20, MISSED_SEARCH_MAX_PAGES + 10);
    await h.engine.start();
    await h.run(1_000);
    expect(history.reads()).toBe(MISSED_SEARCH_MAX_PAGES);
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.eventsOf("reconcile")[0]?.summary.tradePagesCapped).toBe(true);
    const warned = h.logs
      .records()
      .filter((r) => Number(r.level) === 40 && /trade history/.test(String(r.msg)));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ pages: MISSED_SEARCH_MAX_PAGES, restoredOrders: 1 });
    // The search is over (a second start-up's worth of pages at every reconcile would not find more).
    await h.engine.reconcileNow();
    expect(history.reads()).toBeLessThan(MISSED_SEARCH_MAX_PAGES + 5);
  });
});

describe("start-up search for fills made while mm was down, on a history served oldest first", () => {
  it("goes on past the start-up reconcile's bound: the next reconciles read on until they reach it", async () => {
    const h = restarted();
    const history = busyHistoryOldestFirst(h, MISSED_SEARCH_MAX_PAGES + 20, MISSED_SEARCH_MAX_PAGES + 10);
    await h.engine.start();
    await h.run(1_000);
    expect(history.reads()).toBe(MISSED_SEARCH_MAX_PAGES);
    expect(h.eventsOf("fill")).toEqual([]);
    // Read on from page 500, not from the history's start: the restored order's fill is found,
    // into the restored account (made while mm was down), as the start-up search would have.
    await h.engine.reconcileNow();
    expect(history.reads()).toBe(MISSED_SEARCH_MAX_PAGES + 20);
    expect(h.eventsOf("fill").map((e) => [e.fill.tradeId, e.fill.clientOrderId, e.source])).toEqual([
      ["t-missed", CID, "backfill"],
    ]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
    expect(h.eventsOf("reconcile").at(-1)?.summary.tradePagesCapped).toBe(false);
  });
});

describe("start-up search for fills made while mm was down: the order's token from the journal", () => {
  it("maps a fill of an order the exchange no longer knows (404) through the journal's intent", async () => {
    const h = restarted(new Map([[RESTORED, YES]]));
    busyHistory(h, 3, 1, false);
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("fill").map((e) => [e.fill.tradeId, e.fill.tokenId, e.fill.clientOrderId])).toEqual([
      ["t-missed", YES, CID],
    ]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
    // The journal named the token: no read of the order was needed.
    expect(h.exchange.of("order").map((c) => c.arg)).not.toContain(RESTORED);
  });

  it("hands a fill on a token this run does not trade to the journal alone, with its fee", async () => {
    const OTHER_TOKEN = "99";
    const h = restarted(new Map([[RESTORED, OTHER_TOKEN]]));
    busyHistory(h, 3, 1, false);
    const trades = h.exchange.trades.bind(h.exchange);
    h.exchange.trades = async (opts) => {
      const page = await trades(opts);
      return { ...page, trades: page.trades.map((t) => (t.id === "t-missed" ? { ...t, fee: "0.06" } : t)) };
    };
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.eventsOf("fee")).toEqual([]);
    expect(
      h.eventsOf("restored_fill").map((e) => [e.fill.tradeId, e.fill.tokenId, e.fill.clientOrderId, e.fee]),
    ).toEqual([["t-missed", OTHER_TOKEN, CID, { asset: "shares", amountMicro: 60_000n }]]);
    expect(h.engine.account(YES).sizeMicro).toBe(0n);
    expect(h.engine.accounts().map((a) => a.tokenId)).not.toContain(OTHER_TOKEN);
    expect(h.eventsOf("reconcile")[0]?.summary.drifts).toEqual([]);
    // Once: a later reconcile does not hand it over again.
    await h.engine.reconcileNow();
    expect(h.eventsOf("restored_fill")).toHaveLength(1);
  });
});
