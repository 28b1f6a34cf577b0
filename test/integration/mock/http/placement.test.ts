import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takerFeeWei } from "../../../../src/core/fees.js";
import type { PlaceOrderRequest } from "../../../../src/core/types.js";
import { toWei } from "../../../../src/core/wei.js";
import { vaultOf } from "../../../../src/mock/vault.js";
import { weiToString } from "../../../../src/venue/wire.js";
import { MockHarness, placeRejected, WALLET } from "./harness.js";

/** POST /api/orders/place: accepted placements and injected faults, through the real client and OrderBuilder. */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

const asMm = () => h.client();
const asKyc = () => h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });

const rejected = (body: PlaceOrderRequest, client = asMm()) => placeRejected(client, body);

describe("accepted placements", () => {
  it("a valid signed order lands OPEN and reads back", async () => {
    const out = await asMm().orders.place(
      await h.order(WALLET.mm, "ARG-WIN", { side: "sell", price: "0.6", quantity: "10" }),
    );
    expect(out.kind === "accepted" && out.result).toMatchObject({
      status: "OPEN",
      filledQty: "0",
      remainingQty: "10",
      trades: [],
    });
    const id = out.kind === "accepted" ? out.result.orderId : "";
    expect(await asMm().orders.get(id)).toMatchObject({
      id,
      status: "OPEN",
      side: "sell",
      price: "0.6",
      userWallet: WALLET.mm,
    });
  });

  it("crossing orders FILL at the maker's price, with the taker fee in shares for a BUY", async () => {
    await asMm().orders.place(
      await h.order(WALLET.mm, "FRA-WIN", { side: "sell", price: "0.4", quantity: "25" }),
    );
    const out = await asKyc().orders.place(
      await h.order(WALLET.kyc, "FRA-WIN", { side: "buy", price: "0.45", quantity: "10" }),
    );
    if (out.kind !== "accepted") throw new Error(out.kind);
    expect(out.result).toMatchObject({ status: "FILLED", filledQty: "10", remainingQty: "0" });
    const fee = weiToString(takerFeeWei("buy", 200, toWei("0.4"), toWei("10")));
    expect(out.result.trades).toEqual([
      expect.objectContaining({ side: "buy", price: "0.4", quantity: "10", fee, feeAsset: "shares" }),
    ]);
    expect(Number(fee)).toBeGreaterThan(0);
  });

  it("a SELL taker pays its fee in USDC; a partial fill answers PARTIAL", async () => {
    await asKyc().orders.place(
      await h.order(WALLET.kyc, "OVER-2-5", { side: "buy", price: "0.5", quantity: "4" }),
    );
    const out = await asMm().orders.place(
      await h.order(WALLET.mm, "OVER-2-5", { side: "sell", price: "0.5", quantity: "6" }),
    );
    if (out.kind !== "accepted") throw new Error(out.kind);
    expect(out.result).toMatchObject({ status: "PARTIAL", filledQty: "4", remainingQty: "2" });
    // OVER-2-5 has feeTakerBps null: the platform default (0) applies and is what the order signs.
    expect(out.result.trades).toEqual([expect.objectContaining({ fee: "0", feeAsset: "usdc" })]);
  });

  it("maker may be the wallet's vault", async () => {
    const built = await h
      .builder(WALLET.mm, { maker: "vault", vault: vaultOf(WALLET.mm) })
      .build({ market: marketOf("ARG-WIN"), side: "buy", price: "0.1", quantity: "2", expiry: 0 });
    const out = await asMm().orders.place(built.body);
    expect(out.kind).toBe("accepted");
  });

  it("a repeated clientOrderId returns the original order, never a second one (even re-signed)", async () => {
    const first = await asMm().orders.place(
      await h.order(WALLET.mm, "ARG-WIN", {
        side: "buy",
        price: "0.11",
        quantity: "3",
        clientOrderId: "dup-1",
      }),
    );
    const again = await asMm().orders.place(
      await h.order(WALLET.mm, "ARG-WIN", {
        side: "buy",
        price: "0.11",
        quantity: "3",
        clientOrderId: "dup-1",
      }),
    );
    expect(first.kind === "accepted" && again.kind === "accepted").toBe(true);
    const id = first.kind === "accepted" ? first.result.orderId : "";
    expect(again.kind === "accepted" && again.result.orderId).toBe(id);
    const open = (await asMm().orders.open()).filter((o) => o.clientOrderId === "dup-1");
    expect(open.map((o) => o.id)).toEqual([id]);
  });
});

describe("faults", () => {
  it("a hung placement is ambiguous to the client, and the order exists on the mock", async () => {
    h.ctx.faults.hangPlacements = 1;
    const body = await h.order(WALLET.mm, "ARG-WIN", {
      side: "buy",
      price: "0.12",
      quantity: "2",
      clientOrderId: "hang-1",
    });
    const out = await h.client({ timeoutMs: 300 }).orders.place(body);
    expect(out.kind).toBe("ambiguous");
    expect(h.ctx.faults.hangPlacements).toBe(0);
    const found = (await asMm().orders.open()).find((o) => o.clientOrderId === "hang-1");
    expect(found).toMatchObject({ status: "OPEN", price: "0.12" });
    const retry = await asMm().orders.place(body);
    expect(retry.kind === "accepted" && retry.result.orderId).toBe(found?.id);
  });

  it("while the platform is frozen placements are 503 exchange_unavailable (nested), retryable", async () => {
    h.ctx.faults.platformFrozen = true;
    try {
      const out = await rejected(
        await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" }),
      );
      expect([out.code, out.error.httpStatus, out.retryable]).toEqual(["exchange_unavailable", 503, true]);
      expect(out.error.traceId).toMatch(/.+/);
    } finally {
      h.ctx.faults.platformFrozen = false;
    }
  });
});

function marketOf(symbol: string) {
  const m = h.market(symbol);
  return {
    marketId: m.id,
    tokenId: m.yesTokenId,
    outcome: "YES",
    feeTakerBps: m.feeTakerBps,
    negRisk: m.negRisk,
    tickSize: m.tickSize,
  };
}
