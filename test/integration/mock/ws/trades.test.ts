import { afterEach, describe, expect, it } from "vitest";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { blockNumberAt, orderHash, settlementTxHash } from "../../../../src/mock/ws/chain.js";
import {
  connect,
  KEYS,
  MM_WALLET,
  type Mock,
  OTHER_WALLET,
  place,
  startMock,
  T0,
  type TestSocket,
} from "./helpers.js";

let mock: Mock;
afterEach(async () => {
  await mock.close();
});

function firstMarket(): MarketScenario {
  const m = mock.scenario.markets[0];
  if (m === undefined) throw new Error("scenario has no market");
  return m;
}
const marketSocket = (): Promise<TestSocket> =>
  connect(`${mock.wsUrl}/ws/market`, { "X-Api-Key": KEYS.full });

describe("token_trade_matches and token_trade_settlements", () => {
  it("trade_matched at match time; trade_settled exactly settlementDelayMs later with chain fields", async () => {
    mock = await startMock({ timing: { settlementDelayMs: 2_000 } });
    const m = firstMarket();
    const s = await marketSocket();
    await s.command("subscribe", {
      subscriptions: [
        { channel: "token_trade_matches", ids: [m.yesTokenId] },
        { channel: "token_trade_settlements", ids: [m.yesTokenId] },
      ],
    });
    const maker = place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      side: "sell",
      price: "0.55",
      qty: "10",
    });
    const taker = place(mock.ctx, {
      wallet: OTHER_WALLET,
      marketId: m.id,
      side: "buy",
      price: "0.56",
      qty: "4",
    });
    const tradeId = taker.trades[0]?.id ?? "";
    const matched = await s.take((f) => f.type === "trade_matched");
    expect(matched).toEqual({
      type: "trade_matched",
      sid: 1,
      channel: "token_trade_matches",
      id: m.yesTokenId,
      data: {
        tokenId: m.yesTokenId,
        conditionId: m.conditionId,
        outcomeIndex: 0,
        tradeId,
        price: "0.55",
        quantity: "4",
        side: "buy",
        source: "matcher",
        tsMs: T0,
      },
    });
    mock.clock.advanceBy(1_999);
    await s.barrier();
    expect(s.ofType("trade_settled")).toEqual([]);
    mock.clock.advanceBy(1);
    const settled = await s.take((f) => f.type === "trade_settled");
    expect(settled).toEqual({
      type: "trade_settled",
      sid: 2,
      channel: "token_trade_settlements",
      id: m.yesTokenId,
      data: {
        tokenId: m.yesTokenId,
        conditionId: m.conditionId,
        outcomeIndex: 0,
        orderHash: orderHash(maker.orderId),
        txHash: settlementTxHash(tradeId),
        blockNumber: blockNumberAt(T0 + 2_000),
        price: "0.55",
        quantity: "4",
        side: "buy",
        source: "chain",
        tsMs: T0 + 2_000,
      },
    });
    expect(settled.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settled.data.orderHash).toMatch(/^0x[0-9a-f]{64}$/);
    s.close();
  });

  it("no trade frames for tokens nobody subscribed, and no backfill on subscribe", async () => {
    mock = await startMock();
    const m = firstMarket();
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.55", qty: "10" });
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.55", qty: "1" });
    const s = await marketSocket();
    await s.subscribe("token_trade_matches", [m.noTokenId]);
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.55", qty: "1" });
    await s.subscribe("token_trade_matches", [m.yesTokenId]);
    await s.barrier();
    expect(s.ofType("trade_matched")).toEqual([]);
    s.close();
  });
});

describe("token_ohlc", () => {
  it("s5 bars: isClosed false while accumulating, true on the final tick at the bar's end", async () => {
    mock = await startMock({ timing: { ohlcIntervalMs: 5_000 } });
    const m = firstMarket();
    const s = await marketSocket();
    await s.subscribe("token_ohlc", [m.yesTokenId]);
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.55", qty: "10" });
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.58", qty: "10" });
    mock.clock.advanceBy(1_000);
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.55", qty: "2" });
    mock.clock.advanceBy(1_000);
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.58", qty: "9" }); // 8 @0.55, 1 @0.58
    mock.clock.advanceBy(2_999);
    await s.barrier();
    const open = s.ofType("ohlc_update");
    expect(
      open.map((f) => [f.data.open, f.data.high, f.data.low, f.data.close, f.data.volume, f.data.isClosed]),
    ).toEqual([
      ["0.55", "0.55", "0.55", "0.55", "2", false],
      ["0.55", "0.55", "0.55", "0.55", "10", false],
      ["0.55", "0.58", "0.55", "0.58", "11", false],
    ]);
    mock.clock.advanceBy(1);
    const closed = await s.take((f) => f.type === "ohlc_update" && f.data.isClosed === true);
    expect(closed).toEqual({
      type: "ohlc_update",
      sid: 1,
      channel: "token_ohlc",
      id: m.yesTokenId,
      data: {
        tokenId: m.yesTokenId,
        conditionId: m.conditionId,
        outcomeIndex: 0,
        interval: "s5",
        time: T0,
        open: "0.55",
        high: "0.58",
        low: "0.55",
        close: "0.58",
        volume: "11",
        isClosed: true,
        tsMs: T0 + 5_000,
      },
    });
    // The next trade opens a new bar at the next interval boundary.
    mock.clock.advanceBy(1_500);
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.58", qty: "1" });
    const next = await s.take((f) => f.type === "ohlc_update" && f.data.time === T0 + 5_000);
    expect(next.data).toMatchObject({
      open: "0.58",
      close: "0.58",
      volume: "1",
      isClosed: false,
      tsMs: T0 + 6_500,
    });
    mock.clock.advanceBy(3_500);
    expect((await s.take((f) => f.type === "ohlc_update" && f.data.isClosed === true)).data.time).toBe(
      T0 + 5_000,
    );
    expect(mock.clock.pending).toBe(0); // no bar open, no settlement due: nothing left scheduled
    s.close();
  });
});
