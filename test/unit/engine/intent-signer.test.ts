import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { type BuiltOrder, OrderBuilder, type OrderRequest } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../../src/signing/recover.js";
import { DOMAIN_CONFIG, MARKET, TEST_KEY, TEST_WALLET } from "../signing/fixtures.js";

const token: TokenMarket = {
  tokenId: MARKET.tokenId,
  marketId: MARKET.marketId,
  conditionId: "0xc0",
  outcome: "YES",
  outcomeIndex: 0,
  tickMicro: 10_000,
  minSizeMicro: 1_000_000n,
  feeTakerBps: 200,
  negRisk: false,
  closesAtMs: undefined,
  status: "OPEN",
};

const intent = (over: Partial<PlaceIntent> = {}): PlaceIntent => ({
  kind: "place",
  tokenId: token.tokenId,
  marketId: token.marketId,
  clientOrderId: "mm-t1-0123456789-b0-7",
  quote: { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 12_500_000n },
  urgencyTicks: 3,
  ...over,
});

describe("intentSigner: the engine's sign dependency over the real OrderBuilder", () => {
  const real = new OrderBuilder({
    settings: { wallet: TEST_WALLET, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
    domain: DOMAIN_CONFIG,
    signer: new PrivateKeySigner(TEST_KEY),
  });
  const built: BuiltOrder[] = [];
  const requests: OrderRequest[] = [];
  const builder = {
    build: async (r: OrderRequest) => {
      requests.push(r);
      const b = await real.build(r);
      built.push(b);
      return b;
    },
  };
  const sign = intentSigner(builder, [token]);

  it("signs a GTC limit order at the intent's price and size under its clientOrderId", async () => {
    const body = await sign(intent());
    expect(body).toMatchObject({
      marketId: token.marketId,
      side: "buy",
      outcome: "YES",
      price: "0.47",
      quantity: "12.5",
      expiry: 0,
      clientOrderId: "mm-t1-0123456789-b0-7",
      type: "limit",
      timeInForce: "gtc",
    });
    expect(requests.at(-1)?.market).toMatchObject({ tickSize: "0.01", feeTakerBps: 200, negRisk: false });
    const b = built.at(-1);
    if (b === undefined) throw new Error("nothing built");
    expect(await recoverOrderSigner(b.struct, b.signature, b.domain)).toBe(TEST_WALLET.toLowerCase());
  });

  it("takes a rolling expiry per order when given a function", async () => {
    let now = 1_000;
    const rolling = intentSigner(builder, [token], { expiry: () => now + 60 });
    expect((await rolling(intent())).expiry).toBe(1_060);
    now = 2_000;
    expect((await rolling(intent())).expiry).toBe(2_060);
  });

  it("signs the fee of the market the engine passes (re-read after a bad_signature), else the listed one", async () => {
    await sign(intent(), { feeTakerBps: 350 });
    expect(built.at(-1)?.struct.feeRateBps).toBe(350n);
    await sign(intent(), { feeTakerBps: null });
    expect(built.at(-1)?.struct.feeRateBps).toBe(0n);
    await sign(intent());
    expect(built.at(-1)?.struct.feeRateBps).toBe(200n);
  });

  it("refuses a token it has no market parameters for, before anything is signed", async () => {
    const n = built.length;
    await expect(sign(intent({ tokenId: "999" }))).rejects.toSatisfy((e) => hasCode(e, "unknown_token"));
    expect(built).toHaveLength(n);
  });
});
