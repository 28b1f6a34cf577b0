import { afterAll, beforeAll, expect, it } from "vitest";
import { MockHarness, WALLET } from "./harness.js";

/*
 * What mm reads back after a restart must still be there: the fees of a day's fills
 * (GET /api/me/trades) and, with `adopt`, an adopted order's fills (GET /api/orders/{id}/fills).
 * The mock once forgot closed orders and their trades after an hour.
 */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

it("a closed order, its fills and its trade rows are still listed two simulated hours later", async () => {
  const mm = h.client();
  const kyc = h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });
  const maker = await mm.orders.place(
    await h.order(WALLET.mm, "OVER-2-5", { side: "sell", price: "0.47", quantity: "9" }),
  );
  if (maker.kind !== "accepted") throw new Error(`placement ${maker.kind}`);
  const orderId = maker.result.orderId;
  const taker = await kyc.orders.place(
    await h.order(WALLET.kyc, "OVER-2-5", { side: "buy", price: "0.47", quantity: "3" }),
  );
  if (taker.kind !== "accepted") throw new Error(`placement ${taker.kind}`);
  await mm.orders.cancel(orderId);

  h.clock.advanceBy(2 * 3_600_000);
  await mm.orders.open(); // any venue call may sweep the history

  expect(await mm.orders.get(orderId)).toMatchObject({ status: "CANCELLED", filledQty: "3" });
  const fills = await mm.orders.fills(orderId);
  expect(fills.map((f) => [f.quantity, f.price, f.role])).toEqual([["3", "0.47", "maker"]]);
  const trades = await h.fetch("/api/me/trades", { key: h.keys.trader, wallet: WALLET.mm });
  expect((trades.body.trades as { orderId: string; fee: string | null }[]).map((t) => t.orderId)).toEqual([
    orderId,
  ]);
});
