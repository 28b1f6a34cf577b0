import { describe, expect, it } from "vitest";
import { PositionBook } from "../../../src/engine/engine-positions.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import {
  applyTrade,
  EMPTY_ACCOUNT,
  type FeeAmount,
  type TokenAccount,
} from "../../../src/execution/inventory-math.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { backfillTrades } from "../../../src/execution/reconcile-trades.js";
import {
  MISSED_SEARCH_MAX_PAGES,
  MISSED_SEARCH_SLACK_MS,
  missedSearchPages,
  RestoredFees,
} from "../../../src/execution/restored-fees.js";
import { MARKET, TOKEN, trade } from "./reconcile-support.js";

/*
 * A killed run left orders o1 and o2 resting (the journal's restore); o1 had one fill journaled (j1).
 * While mm was down o1 and o2 filled more. The new session starts at S: the exchange's positions then
 * hold every fill stamped before it, and the baseline was read from them.
 */
const S = 100_000;
const CARRIED: TokenAccount = applyTrade(EMPTY_ACCOUNT, "sell", 600_000, 4_000_000n);

const at = (ms: number) => new Date(ms).toISOString();

function session(exchangeHeld: bigint) {
  const fees: { tradeId: string; fee: FeeAmount }[] = [];
  const inventory = new Inventory();
  inventory.seed(TOKEN, CARRIED);
  const restored = new RestoredFees(inventory, [], (f, fee) => fees.push({ tradeId: f.tradeId, fee }), {
    orders: new Map([
      ["o1", "c1"],
      ["o2", "c2"],
    ]),
    journaled: [{ tradeId: "j1", orderId: "o1", tsMs: 40_000 }],
    sinceMs: 30_000,
  });
  const positions = new PositionBook(inventory, [{ tokenId: TOKEN, marketId: MARKET }], (t) =>
    restored.sharesOut(t),
  );
  positions.setBaseline(new Map([[TOKEN, exchangeHeld]]));
  const state: ReconcileState = { orders: new OrderStore(), inventory, restored: restored.before(S) };
  const backfill = (trades: TradeRecord[]) =>
    backfillTrades(state, trades, { tokenOfOrder: (id) => (id.startsWith("o") ? TOKEN : undefined) });
  return { inventory, restored, positions, backfill, fees };
}

// Newest first, as GET /api/me/trades pages them.
const DOWN = [
  trade({ id: "d2", orderId: "o2", price: "0.45", quantity: "2", createdAt: at(90_000) }),
  trade({ id: "d1", orderId: "o1", price: "0.4", quantity: "5", createdAt: at(80_000) }),
  trade({ id: "j1", orderId: "o1", price: "0.6", quantity: "1", createdAt: at(40_000), fee: "0" }),
];
/** The wallet held 10 before the killed run; it sold 4 (journaled) and bought 5 + 2 while down. */
const HELD = 10_000_000n - 4_000_000n + 7_000_000n;

describe("RestoredFees.takeMissed: fills of a killed run's orders made while mm was down", () => {
  it("applies each once, oldest first, to the restored account, and the baseline gives its shares back", () => {
    const s = session(HELD);
    expect(s.restored.searchFromMs()).toBe(30_000 - MISSED_SEARCH_SLACK_MS);
    expect(s.positions.absoluteSizes().get(TOKEN)).toBe(HELD);
    const rep = s.backfill(DOWN);
    expect(rep.applied.map((f) => [f.tradeId, f.clientOrderId])).toEqual([
      ["d1", "c1"],
      ["d2", "c2"],
    ]);
    expect(rep.duplicates).toBe(1); // j1: journaled, in the carried account
    let want = applyTrade(CARRIED, "buy", 400_000, 5_000_000n);
    want = applyTrade(want, "buy", 450_000, 2_000_000n);
    expect(s.inventory.account(TOKEN)).toEqual(want);
    expect(s.positions.position(TOKEN)).toBe(3_000_000n);
    // baseline + inventory is still the exchange's position: no drift to correct.
    expect(s.positions.absoluteSizes().get(TOKEN)).toBe(HELD);
    expect(s.positions.baseline(TOKEN)).toBe(10_000_000n);
    // Backfilled again (a later reconcile paging back for their fees): nothing changes.
    const again = s.backfill(DOWN);
    expect(again.applied).toEqual([]);
    expect(again.duplicates).toBe(3);
    expect(s.inventory.account(TOKEN)).toEqual(want);
    expect(s.positions.absoluteSizes().get(TOKEN)).toBe(HELD);
  });

  it("waits for a fee still unsettled, then applies it alone; a share fee moves the baseline too", () => {
    const feeShares = 100_000n;
    const s = session(HELD - feeShares);
    s.backfill(DOWN);
    expect(s.restored.awaits("d1", "o1")).toBe(true);
    expect(s.restored.oldestAwaitedMs()).toBe(80_000);
    s.restored.endSearch(); // the start-up reconcile is over; later ones page back for the fee only
    const settled = DOWN.map((t) => (t.id === "d1" ? { ...t, fee: "0.1" } : t));
    const rep = s.backfill(settled);
    expect(rep.applied).toEqual([]);
    expect(rep.fees).toBe(1);
    expect(s.fees.map((f) => f.tradeId)).toEqual(["d1"]);
    expect(s.restored.awaits("d1", "o1")).toBe(false);
    expect(s.positions.position(TOKEN)).toBe(3_000_000n - feeShares);
    expect(s.positions.absoluteSizes().get(TOKEN)).toBe(HELD - feeShares);
  });

  it("leaves trades of this session, of other orders, and after the search alone", () => {
    const s = session(HELD);
    const rep = s.backfill([
      trade({ id: "n1", orderId: "o1", quantity: "1", createdAt: at(S + 5) }), // this session's fill
      trade({ id: "x1", orderId: "ox", quantity: "1", createdAt: at(80_000) }), // not a restored order
    ]);
    expect(rep.applied.map((f) => f.tradeId)).toEqual(["n1", "x1"]);
    expect(s.restored.awaits("n1", "o1")).toBe(false);
    expect(s.restored.sharesOut(TOKEN)).toBe(0n); // both are entries of this session's inventory
    s.restored.endSearch();
    expect(s.restored.searchFromMs()).toBeUndefined();
    expect(s.restored.searches("o1")).toBe(false);
    s.backfill(DOWN.slice(0, 1));
    expect(s.restored.awaits("d2", "o2")).toBe(false);
  });

  it("searches nothing when the restore left no orders", () => {
    const r = new RestoredFees(new Inventory(), [], () => undefined);
    expect(r.searchFromMs()).toBeUndefined();
    expect(r.searches("o1")).toBe(false);
    expect(r.before(S).misses?.("o1", 1)).toBe(false);
  });
});

describe("the missed-fills search's page bound", () => {
  it("is 500 pages at the baseline rate limit, and half a minute of the wallet's me-reads bucket below it", () => {
    expect(missedSearchPages(600)).toBe(MISSED_SEARCH_MAX_PAGES);
    expect(missedSearchPages(6_000)).toBe(MISSED_SEARCH_MAX_PAGES);
    // rateLimitPerMin 60: me-reads allows 180 a minute; 90 pages leave the rest of the start its reads.
    expect(missedSearchPages(60)).toBe(90);
    expect(missedSearchPages(1)).toBe(1);
  });
});
