import { describe, expect, it } from "vitest";
import { sessionTrades } from "../../../src/engine/session-trades.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import type { ReconcileSource } from "../../../src/execution/reconcile-run.js";

/*
 * The spec shows neither the parameters nor the order of GET /api/me/trades (only the order
 * history's cursor is described: "a keyset cursor over (created_at, order id)", direction not
 * given). sessionTrades (and collectTrades) stopped paging at the first page holding a trade older
 * than the session start, i.e. assumed newest first, which README "Assumptions" did not list. Served
 * oldest first, the first page is all old trades, paging stopped there, and every trade of this
 * session was never read: fills missed while disconnected not backfilled and no fee ever booked
 * (fees come only from this read), so PnL and the kill switch ran without fees. Found by review (s19).
 * Pinned: a page whose trades run oldest first does not end the paging.
 */

const trade = (id: string, createdAt: string): TradeRecord => ({
  id,
  orderId: "o1",
  marketId: "m1",
  vaultAddress: "0x0",
  fee: null,
  side: "buy",
  price: "0.5",
  quantity: "1",
  createdAt,
});

describe("sessionTrades over a trade history served oldest first", () => {
  const pages: Record<string, { trades: TradeRecord[]; nextCursor: string | null }> = {
    "": {
      trades: [trade("0", "2026-01-01T00:00:00Z"), trade("1", "2026-01-01T00:00:01Z")],
      nextCursor: "p2",
    },
    p2: {
      trades: [trade("2", "2026-01-01T00:00:02Z"), trade("3", "2026-01-01T00:00:03Z")],
      nextCursor: null,
    },
  };
  const source = {
    trades: async (o: { cursor?: string }) => pages[o.cursor ?? ""] ?? { trades: [], nextCursor: null },
  } as unknown as ReconcileSource;

  it("keeps paging past an ascending first page, so this session's trades are read", async () => {
    const cut = sessionTrades(source, Date.parse("2026-01-01T00:00:02Z"));
    const first = await cut.trades({});
    expect(first.nextCursor).toBe("p2");
    const second = await cut.trades({ cursor: "p2" });
    expect(second.trades.map((t) => t.id)).toEqual(["2", "3"]);
  });
});
