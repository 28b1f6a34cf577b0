import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import { MockHarness, WALLET } from "./harness.js";

/** Cancel, cancel-all, order reads, and the trade/fee reads with their settlement delay. */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

const mm = () => h.client();
const kyc = () => h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });

async function placed(
  client: ReturnType<typeof mm>,
  body: Parameters<ReturnType<typeof mm>["orders"]["place"]>[0],
) {
  const out = await client.orders.place(body);
  if (out.kind !== "accepted") throw new Error(`placement ${out.kind}`);
  return out.result;
}

async function failure(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ExchangeError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

describe("cancel", () => {
  it("answers {orderId, status}; 409 not_cancellable once terminal; 404 order_not_found; 403 forbidden for another wallet's", async () => {
    const { orderId } = await placed(
      mm(),
      await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.2", quantity: "1" }),
    );
    expect(await mm().orders.cancel(orderId)).toEqual({ orderId, status: "CANCELLED" });
    const again = await failure(mm().orders.cancel(orderId));
    expect([again.code, again.httpStatus, again.details.status]).toEqual([
      "not_cancellable",
      409,
      "CANCELLED",
    ]);
    const unknown = await failure(mm().orders.cancel("no-such-order"));
    expect([unknown.code, unknown.httpStatus]).toEqual(["order_not_found", 404]);
    const theirs = await placed(
      kyc(),
      await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.2", quantity: "1" }),
    );
    const forbidden = await failure(mm().orders.cancel(theirs.orderId));
    expect([forbidden.code, forbidden.httpStatus]).toEqual(["forbidden", 403]);
    expect((await h.fetch("/api/orders/cancel", { key: h.keys.trader, body: {} })).body.code).toBe(
      "bad_request",
    );
  });

  it("cancel-all cancels the wallet's open orders, optionally of one market, and counts them", async () => {
    const arg = h.market("ARG-WIN").id;
    for (const symbol of ["ARG-WIN", "ARG-WIN", "FRA-WIN"]) {
      await placed(mm(), await h.order(WALLET.mm, symbol, { side: "buy", price: "0.05", quantity: "1" }));
    }
    await placed(kyc(), await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.05", quantity: "1" }));
    expect(await mm().orders.cancelAll(arg)).toEqual({ cancelled: 2, marketId: arg });
    expect((await mm().orders.open()).map((o) => o.marketId)).toEqual([h.market("FRA-WIN").id]);
    expect(await mm().orders.cancelAll()).toEqual({ cancelled: 1 });
    expect(await mm().orders.open()).toEqual([]);
    expect((await kyc().orders.open()).length).toBe(2);
  });
});

describe("order reads", () => {
  it("history filters by marketId, status (PARTIAL = open with a fill), from (inclusive) and to (exclusive)", async () => {
    const t1 = h.clock.now() + 60_000;
    h.clock.advanceTo(t1);
    const partial = await placed(
      mm(),
      await h.order(WALLET.mm, "PENALTIES", { side: "sell", price: "0.25", quantity: "10" }),
    );
    await placed(
      kyc(),
      await h.order(WALLET.kyc, "PENALTIES", { side: "buy", price: "0.25", quantity: "4" }),
    );
    h.clock.advanceBy(1_000);
    const later = await placed(
      mm(),
      await h.order(WALLET.mm, "PENALTIES", { side: "sell", price: "0.3", quantity: "1" }),
    );
    const penalties = h.market("PENALTIES").id;
    const byStatus = await mm().orders.history({ status: "PARTIAL" });
    expect(byStatus.orders.map((o) => o.id)).toEqual([partial.orderId]);
    expect(byStatus.orders[0]).toMatchObject({ status: "OPEN", filledQty: "4", remainingQty: "6" });
    const from = new Date(t1).toISOString();
    const window = await mm().orders.history({
      marketId: penalties,
      from,
      to: new Date(t1 + 1_000).toISOString(),
    });
    expect(window.orders.map((o) => o.id)).toEqual([partial.orderId]);
    const since = await mm().orders.history({
      marketId: penalties,
      from: new Date(t1 + 1_000).toISOString(),
    });
    expect(since.orders.map((o) => o.id)).toEqual([later.orderId]);
    expect((await h.fetch("/api/orders/history?from=yesterday", { key: h.keys.trader })).body.code).toBe(
      "bad_request",
    );
    const all: string[] = [];
    for await (const o of mm().orders.iterateHistory({ limit: 2 })) all.push(o.id);
    expect(all.length).toBe((await mm().orders.history({ limit: 200 })).orders.length);
  });

  it("GET /api/orders/{id} and /fills; 404 order_not_found, also for another wallet's order", async () => {
    const maker = await placed(
      mm(),
      await h.order(WALLET.mm, "OVER-2-5", { side: "sell", price: "0.47", quantity: "9" }),
    );
    await placed(kyc(), await h.order(WALLET.kyc, "OVER-2-5", { side: "buy", price: "0.47", quantity: "3" }));
    await placed(kyc(), await h.order(WALLET.kyc, "OVER-2-5", { side: "buy", price: "0.47", quantity: "2" }));
    expect(await mm().orders.get(maker.orderId)).toMatchObject({
      filledQty: "5",
      remainingQty: "4",
      status: "OPEN",
    });
    const fills = await mm().orders.fills(maker.orderId);
    expect(fills.map((f) => [f.quantity, f.price, f.role, f.side])).toEqual([
      ["3", "0.47", "maker", "sell"],
      ["2", "0.47", "maker", "sell"],
    ]);
    expect((await failure(kyc().orders.get(maker.orderId))).code).toBe("order_not_found");
    expect((await failure(kyc().orders.fills(maker.orderId))).httpStatus).toBe(404);
  });
});

describe("trades and fees: the per-wallet fee shows after the settlement delay", () => {
  it("GET /api/me/trades shows fee null before settlement and the fee (with txHash) after; /api/me/fees one row per (tradeId, role)", async () => {
    await placed(mm(), await h.order(WALLET.mm, "BOOT-KANE", { side: "sell", price: "0.2", quantity: "50" }));
    const taker = await placed(
      kyc(),
      await h.order(WALLET.kyc, "BOOT-KANE", { side: "buy", price: "0.2", quantity: "20" }),
    );
    const tradeId = (taker.trades[0] as { tradeId: string }).tradeId;
    const pending = await h.fetch("/api/me/trades", { key: h.keys.multiKyc, wallet: WALLET.kyc });
    expect((pending.body.trades as Record<string, unknown>[])[0]).toMatchObject({
      id: tradeId,
      fee: null,
      settled: false,
      txHash: null,
    });
    const pendingFees = await kyc().me.fees();
    expect(pendingFees[0]).toMatchObject({ tradeId, role: "taker", amount: null, settled: false });

    h.clock.advanceBy(h.scenario.timing.settlementDelayMs);
    const { trades } = await kyc().me.trades();
    expect(trades[0]).toMatchObject({
      id: tradeId,
      side: "buy",
      price: "0.2",
      quantity: "20",
      fee: "0.064",
      settled: true,
    });
    expect(String((trades[0] as unknown as { txHash: string }).txHash)).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await kyc().me.fees())[0]).toMatchObject({
      tradeId,
      role: "taker",
      amount: "0.064",
      asset: "shares",
    });
    const makerRows = await mm().me.fees({ role: "maker" });
    expect(makerRows.some((r) => r.tradeId === tradeId && r.role === "maker")).toBe(true);
    expect((await mm().me.fees({ role: "taker" })).some((r) => r.tradeId === tradeId)).toBe(false);
    expect(await kyc().orders.feesSummary()).toMatchObject({ taker: { shares: expect.any(String) } });
  });
});
