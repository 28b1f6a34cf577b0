import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, PlaceOrderRequest } from "../../../../src/core/types.js";
import { mulWeiFloor, toWei } from "../../../../src/core/wei.js";
import { vaultOf } from "../../../../src/mock/vault.js";
import { orderDomain } from "../../../../src/signing/domain.js";
import { buildOrderStruct } from "../../../../src/signing/order-struct.js";
import { PrivateKeySigner } from "../../../../src/signing/private-key-signer.js";
import { MockHarness, placeRejected, WALLET } from "./harness.js";

/** POST /api/orders/place: every reject code of the spec with its status, envelope and details. */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

const asMm = () => h.client();
const asKyc = () => h.client({ key: h.keys.multiKyc, wallet: WALLET.kyc });
const raw = (body: unknown) => h.fetch("/api/orders/place", { key: h.keys.trader, body });

const rejected = (body: PlaceOrderRequest, client = asMm()) => placeRejected(client, body);

describe("rejects, each with its code and details", () => {
  it("maker neither the wallet nor its vault → 400 maker_mismatch", async () => {
    const res = await raw(await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      orderId: "",
      status: "REJECTED",
      code: "maker_mismatch",
      details: { maker: WALLET.kyc, wallet: WALLET.mm, vault: vaultOf(WALLET.mm) },
    });
  });

  it("signed with another feeRateBps → 400 bad_signature with recovered, expected_signer, platform_canonical_struct", async () => {
    const body = await h.order(WALLET.mm, "ARG-WIN", {
      side: "buy",
      price: "0.1",
      quantity: "1",
      feeTakerBps: 100,
    });
    const out = await rejected(body);
    expect(out.code).toBe("bad_signature");
    expect(out.error.httpStatus).toBe(400);
    const d = out.error.details as {
      recovered: string;
      expected_signer: string;
      platform_canonical_struct: Record<string, string>;
    };
    expect(d.recovered).toMatch(/^0x[0-9a-f]{40}$/);
    expect(d.recovered).not.toBe(WALLET.mm);
    expect(d.expected_signer).toBe(WALLET.mm);
    expect(Object.keys(d.platform_canonical_struct)).toEqual([
      "salt",
      "maker",
      "signer",
      "taker",
      "tokenId",
      "makerAmount",
      "takerAmount",
      "expiration",
      "feeRateBps",
      "side",
      "signatureType",
    ]);
    expect(d.platform_canonical_struct).toMatchObject({
      salt: body.nonce,
      feeRateBps: "200",
      makerAmount: "100000",
      side: "0",
    });
  });

  it("a signature that is not a signature → bad_signature with recovered null", async () => {
    const body = {
      ...(await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" })),
      signature: "0x1234" as const,
    };
    const res = await raw(body);
    expect(res.body).toMatchObject({
      code: "bad_signature",
      details: { recovered: null, expected_signer: WALLET.mm },
    });
  });

  it("a BUY signed with the notional rounded down → order_signed_with_floor_notional", async () => {
    const m = h.market("ARG-WIN");
    const built = buildOrderStruct({
      market: { ...marketOf("ARG-WIN"), feeTakerBps: m.feeTakerBps },
      side: "buy",
      price: "0.33",
      quantity: "1.000001",
      expiry: 0,
      salt: 777n,
      maker: WALLET.mm,
      signer: WALLET.mm,
      signatureType: 0,
      defaultFeeRateBps: 0,
    });
    const floor = mulWeiFloor(toWei("0.33"), toWei("1.000001"));
    expect(floor).toBe(built.struct.makerAmount - 1n);
    const signer = new PrivateKeySigner(scenarioKey(WALLET.mm));
    const { signature } = await signer.signOrder(
      { ...built.struct, makerAmount: floor },
      orderDomain(h.scenario.eip712, false),
    );
    const body: PlaceOrderRequest = {
      marketId: m.id,
      side: "buy",
      outcome: "YES",
      price: "0.33",
      quantity: "1.000001",
      nonce: "777",
      expiry: 0,
      maker: WALLET.mm,
      signature,
    };
    const out = await rejected(body);
    expect(out.code).toBe("order_signed_with_floor_notional");
    expect(out.error.details).toEqual({
      signedMakerAmountWei: "330000",
      expectedCeilMakerAmountWei: "330001",
      signedRounding: "FLOOR",
      expectedRounding: "CEIL",
    });
  });

  it("feeRateBps above 1000 → 400 fee_too_high", async () => {
    const res = await raw({
      ...(await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" })),
      feeRateBps: 1001,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "fee_too_high", details: { feeRateBps: 1001, max: 1000 } });
  });

  it("expiration in the past → 400 expired", async () => {
    const out = await rejected(
      await h.order(WALLET.mm, "ARG-WIN", {
        side: "buy",
        price: "0.1",
        quantity: "1",
        expiry: Math.floor(h.clock.now() / 1000) - 60,
      }),
    );
    expect([out.code, out.error.httpStatus]).toEqual(["expired", 400]);
  });

  it("an outcome the market does not have → 400 invalid_outcome", async () => {
    const res = await raw({
      ...(await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" })),
      outcome: "MAYBE",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "invalid_outcome",
      details: { outcome: "MAYBE", outcomes: ["YES", "NO"] },
    });
  });

  it.each([
    ["price 0", { price: "0" }, undefined],
    ["negative quantity", { quantity: "-1" }, undefined],
    ["price not a decimal string", { price: "abc" }, undefined],
    ["price as a JSON number", { price: 0.5 }, undefined],
    ["price off the tick", { price: "0.555" }, "off_tick"],
    ["quantity finer than 1e-6", { quantity: "1.0000001" }, "precision_exceeded"],
  ])("%s → 400 invalid_amounts", async (_name, patch, reason) => {
    const res = await raw({
      ...(await h.order(WALLET.mm, "ARG-WIN", { side: "buy", price: "0.1", quantity: "1" })),
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_amounts");
    if (reason !== undefined) expect((res.body.details as { reason: string }).reason).toBe(reason);
  });

  it("a MARKET order with GTC → 400 invalid_tif", async () => {
    const body = await h.order(WALLET.mm, "ARG-WIN", {
      side: "buy",
      price: "0.9",
      quantity: "1",
      type: "market",
      timeInForce: "ioc",
    });
    const out = await rejected({ ...body, timeInForce: "gtc" });
    expect([out.code, out.error.httpStatus]).toEqual(["invalid_tif", 400]);
  });

  it("a market that is not OPEN → 409 market_not_open", async () => {
    const out = await rejected(
      await h.order(WALLET.mm, "EXTRA-TIME", { side: "buy", price: "0.1", quantity: "1" }),
    );
    expect([out.code, out.error.httpStatus]).toEqual(["market_not_open", 409]);
    expect(out.error.details).toMatchObject({ status: "PAUSED" });
  });

  it("more than the available balance → insufficient_funds in a 201 body", async () => {
    const out = await rejected(
      await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.5", quantity: "200000" }),
      asKyc(),
    );
    expect([out.code, out.error.httpStatus]).toEqual(["insufficient_funds", 201]);
    const available = (await asKyc().me.balances()).available;
    expect(out.error.details).toMatchObject({ asset: "usdc", required: "100000", available });
  });

  it("an IOC market order with nothing to match → matcher_error in a 201 body", async () => {
    const body = await h.order(WALLET.mm, "PENALTIES", {
      side: "buy",
      price: "0.9",
      quantity: "1",
      type: "market",
      timeInForce: "ioc",
    });
    const out = await rejected(body);
    expect([out.code, out.error.httpStatus]).toEqual(["matcher_error", 201]);
  });

  it.each([
    ["a body that is not JSON", "{nope"],
    ["a JSON array", "[]"],
    [
      "a missing nonce",
      JSON.stringify({
        marketId: "x",
        side: "buy",
        outcome: "YES",
        price: "0.1",
        quantity: "1",
        expiry: 0,
        maker: WALLET.mm,
        signature: "0x",
      }),
    ],
    ["an unknown side", JSON.stringify({ marketId: "x", side: "long" })],
  ])("%s → 400 bad_request in the placement shape", async (_name, rawBody) => {
    const res = await h.fetch("/api/orders/place", { key: h.keys.trader, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      orderId: "",
      status: "REJECTED",
      filledQty: "0",
      trades: [],
      code: "bad_request",
    });
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

function scenarioKey(wallet: Address): string {
  const key = h.scenario.wallets.find((w) => w.address === wallet)?.privateKey;
  if (key === undefined) throw new Error(`no key for ${wallet}`);
  return key;
}
