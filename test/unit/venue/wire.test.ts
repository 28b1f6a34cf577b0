import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { weiToString as coreWeiToString } from "../../../src/core/wei.js";
import type { FillEvent, TradeEvent, VenueEvent } from "../../../src/venue/events.js";
import {
  iso,
  weiToString,
  wireBookDelta,
  wireBookSnapshot,
  wireFeeRow,
  wireOrder,
  wirePlacement,
  wireTradeMatched,
  wireTradeRow,
  wireUserFill,
} from "../../../src/venue/wire.js";
import { A, B, binaryMarket, harness, M1, NO, order, T0, YES } from "./fixture.js";

describe("weiToString", () => {
  it("equals core's decimal.js formatting for every amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (n) => {
        expect(weiToString(n)).toBe(coreWeiToString(n));
      }),
    );
    expect([0n, 530_000n, 1_000_000n, 1n, 12_345_600n].map(weiToString)).toEqual([
      "0",
      "0.53",
      "1",
      "0.000001",
      "12.3456",
    ]);
  });
});

describe("wire shapes", () => {
  it("Order record: decimal strings, ISO timestamps, clientOrderId only when given", () => {
    const { venue, clock } = harness();
    const r = venue.place(order(A, "buy", "0.53", "10", { clientOrderId: "c-9", expiry: T0 / 1000 + 3600 }));
    clock.advanceBy(1500);
    venue.place(order(B, "sell", "0.53", "2.5"));
    const o = venue.order(A, r.orderId);
    if (o === undefined) throw new Error("order missing");
    expect(wireOrder(o)).toEqual({
      id: r.orderId,
      userWallet: A,
      vault: A,
      marketId: M1,
      side: "buy",
      outcome: "YES",
      price: "0.53",
      quantity: "10",
      filledQty: "2.5",
      remainingQty: "7.5",
      expiry: T0 / 1000 + 3600,
      type: "limit",
      timeInForce: "gtc",
      status: "OPEN",
      clientOrderId: "c-9",
      createdAt: "2023-11-14T22:13:20.000Z",
      updatedAt: "2023-11-14T22:13:21.500Z",
    });
    const plain = venue.place(order(A, "buy", "0.10", "1"));
    const p = venue.order(A, plain.orderId);
    if (p === undefined) throw new Error("order missing");
    expect("clientOrderId" in wireOrder(p)).toBe(false);
  });

  it("placement result, accepted and rejected", () => {
    const { venue } = harness({}, [binaryMarket(M1, YES, NO, { feeTakerBps: 200 })]);
    venue.place(order(A, "sell", "0.40", "100"));
    const r = venue.place(order(B, "buy", "0.40", "150"));
    expect(wirePlacement(r)).toEqual({
      orderId: r.orderId,
      status: "PARTIAL",
      filledQty: "100",
      remainingQty: "50",
      trades: [
        {
          tradeId: r.trades[0]?.id,
          makerOrderId: r.trades[0]?.makerOrderId,
          side: "buy",
          price: "0.4",
          quantity: "100",
          fee: "0.48",
          feeAsset: "shares",
          createdAt: iso(T0),
        },
      ],
    });
    const rej = venue.place(order(B, "buy", "0.40", "1", { marketId: "nope" }));
    expect(wirePlacement(rej)).toEqual({
      orderId: "",
      status: "REJECTED",
      filledQty: "0",
      remainingQty: "1",
      trades: [],
      code: "market_not_open",
      message: "market nope does not exist",
    });
  });

  it("trade row, fee row, user_fill, trade_matched, book frames", () => {
    const events: VenueEvent[] = [];
    const { venue } = harness({ vaultOf: () => "0x00000000000000000000000000000000000000Ff" }, [
      binaryMarket(M1, YES, NO, { feeTakerBps: 200 }),
    ]);
    venue.subscribe((e) => events.push(e));
    const before = venue.bookSnapshot(YES);
    venue.place(order(A, "buy", "0.40", "100"));
    const r = venue.place(order(B, "sell", "0.40", "100", { clientOrderId: "s-1" }));
    const tradeId = r.trades[0]?.id;
    const row = venue.walletTrades(B, { limit: 1 }).items[0];
    if (row === undefined) throw new Error("no row");
    expect(wireTradeRow(row)).toEqual({
      id: tradeId,
      orderId: r.orderId,
      marketId: M1,
      vaultAddress: "0x00000000000000000000000000000000000000ff",
      role: "taker",
      side: "sell",
      price: "0.4",
      quantity: "100",
      fee: "0.192",
      feeAsset: "usdc",
      createdAt: iso(T0),
    });
    expect(wireFeeRow(row)).toMatchObject({ tradeId, role: "taker", amount: "0.192", asset: "usdc" });

    const fill = events.find((e): e is FillEvent => e.type === "fill" && e.role === "taker");
    if (fill === undefined) throw new Error("no fill");
    expect(wireUserFill(fill)).toEqual({
      walletAddress: B,
      side: "sell",
      tradeId,
      orderId: r.orderId,
      clientOrderId: "s-1",
      tokenId: YES,
      conditionId: venue.market(M1)?.conditionId,
      outcomeIndex: 0,
      price: "0.4",
      quantity: "100",
      source: "matcher",
      tsMs: T0,
    });
    const makerFill = events.find((e): e is FillEvent => e.type === "fill" && e.role === "maker");
    if (makerFill === undefined) throw new Error("no maker fill");
    expect(Object.keys(wireUserFill(makerFill))).not.toContain("clientOrderId");

    const print = events.find((e): e is TradeEvent => e.type === "trade");
    if (print === undefined) throw new Error("no trade");
    expect(wireTradeMatched(print)).toMatchObject({ tradeId, side: "sell", price: "0.4", source: "matcher" });

    const delta = events.filter((e) => e.type === "book_changes").at(-1);
    if (delta?.type !== "book_changes") throw new Error("no delta");
    expect(wireBookDelta(delta)).toMatchObject({
      tokenId: YES,
      seq: (before?.seq ?? 0) + 2,
      prevSeq: (before?.seq ?? 0) + 1,
      changes: [{ side: "buy", price: "0.4", size: "0" }],
    });
    venue.place(order(A, "buy", "0.35", "1.5"));
    const snap = venue.bookSnapshot(YES);
    if (snap === undefined) throw new Error("no book");
    expect(wireBookSnapshot(snap)).toEqual({
      tokenId: YES,
      conditionId: venue.market(M1)?.conditionId,
      outcomeIndex: 0,
      bids: [{ price: "0.35", size: "1.5" }],
      asks: [],
      seq: 3,
      tsMs: T0,
    });
  });
});
