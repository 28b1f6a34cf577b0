import { describe, expect, it } from "vitest";
import { clientOrderId } from "../../../src/core/ids.js";
import { toWei } from "../../../src/core/wei.js";
import { recognisedCount, recognising } from "../../../src/engine/recognise.js";
import type { Order } from "../../../src/exchange/types.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import type { ReconcileSource } from "../../../src/execution/reconcile-run.js";
import { BOT, Harness } from "../engine/support/harness.js";

// Bought 10 at 0.47, sold 4 at 0.53 (realised 0.24), paid 0.01 of fees: long 6 at 0.47.
const CARRIED = {
  ...applyTrade(applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 10_000_000n), "sell", 530_000, 4_000_000n),
  feesPico: 10_000_000_000n,
};

describe("engine restore: the state an earlier run left", () => {
  it("starts each restored token from its account; the baseline takes the rest, so nothing drifts", async () => {
    const h = new Harness({
      options: {
        restore: {
          accounts: new Map([
            ["11", CARRIED],
            ["not-traded", CARRIED],
          ]),
          orders: new Map(),
        },
      },
    });
    const [yes, no] = h.tokens();
    expect(yes).toBe("11");
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(31_000); // the start-up check and a periodic one
    expect(h.engine.positionOf(yes)).toBe(6_000_000n);
    expect(h.engine.account(yes)).toEqual(CARRIED);
    expect(h.engine.positionOf(no)).toBe(0n);
    expect(h.engine.accounts().map((a) => a.tokenId)).toEqual([yes]); // a token this run does not trade is left out
    // realised 0.24 − fees 0.01 + 6 × (mid 0.50 − cost 0.47) = 0.41 USDC
    expect(h.engine.status().pnlMicro).toBe(410_000n);
    const checks = h.eventsOf("reconcile").map((e) => e.summary);
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(checks.every((s) => s.drifts.length === 0)).toBe(true);

    h.take(yes, "sell", "0.47", "110"); // 100 from the crowd at 0.48, then our bid: we buy 10 at 0.47
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(16_000_000n);
    expect(h.engine.account(yes)).toMatchObject({
      costPico: 7_520_000_000_000n, // 6 × 0.47 + 10 × 0.47
      realisedPico: CARRIED.realisedPico,
      feesPico: CARRIED.feesPico,
    });
    await h.run(30_000);
    expect(h.eventsOf("reconcile").at(-1)?.summary.drifts).toEqual([]);
  });

  it("adopts an order an earlier run left under its own clientOrderId when the exchange omits it", async () => {
    const orders = new Map<string, string>();
    const h = new Harness({ options: { startupPolicy: "adopt", restore: { accounts: new Map(), orders } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const market = h.markets.find((m) => m.tokenId === yes);
    const left = h.venue.place({
      wallet: BOT,
      marketId: market?.marketId ?? "",
      outcome: "YES",
      side: "sell",
      price: toWei("0.53", "price"),
      quantity: toWei("10", "qty"),
    }); // no clientOrderId on the exchange's record
    const cid = clientOrderId({ session: "old", tokenId: yes, side: "sell", level: 0, seq: 7 });
    orders.set(left.orderId, cid);
    await h.engine.start();
    await h.run();
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 1 });
    expect(h.engine.liveOrders().find((o) => o.orderId === left.orderId)?.clientOrderId).toBe(cid);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.exchange.of("place").map((c) => c.arg.split(" ").slice(1).join(" "))).toEqual(["buy 0.47 10"]);
  });
});

describe("recognising / recognisedCount", () => {
  const order = (id: string, clientOrderId?: string): Order =>
    ({ id, ...(clientOrderId === undefined ? {} : { clientOrderId }) }) as Order;
  const source = (open: Order[]): ReconcileSource => ({
    openOrders: async () => open,
    order: async (id) => order(id),
    ordersByClientId: async () => ({ orders: [], complete: true }),
    trades: async () => ({ trades: [], nextCursor: null }),
  });
  const known = new Map([["o1", "mm-old-x-b0-1"]]);

  it("gives back the clientOrderId of a known order, and leaves every other record alone", async () => {
    const s = recognising(source([order("o1"), order("o2"), order("o3", "theirs")]), known);
    expect((await s.openOrders()).map((o) => o.clientOrderId)).toEqual([
      "mm-old-x-b0-1",
      undefined,
      "theirs",
    ]);
    expect((await s.order("o1")).clientOrderId).toBe("mm-old-x-b0-1");
    const plain = source([]);
    expect(recognising(plain, new Map())).toBe(plain);
  });

  it("counts the orders an earlier run left, by orderId or clientOrderId", () => {
    expect(recognisedCount([order("o1"), order("o9", "mm-old-x-b0-1"), order("o2", "x")], known)).toBe(2);
    expect(recognisedCount([order("o1")], new Map())).toBe(0);
  });
});
