import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { TokenMarket } from "../../../src/core/trading.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import {
  SIGNED_ORDERS_KEPT,
  SignatureCheck,
  type SignedOrder,
  SignedOrders,
} from "../../../src/engine/signature-check.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { canonicalFields } from "../../../src/mock/http/routes/place-signature.js";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { DOMAIN_CONFIG, MARKET, TEST_KEY, TEST_WALLET } from "../signing/fixtures.js";

/*
 * With signing.chainId or a verifying contract wrong, every placement is refused bad_signature and
 * the error-rate halt trips, but mm only re-read the market's fee: nothing pointed at the signing
 * domain. SignatureCheck compares each refusal's platform_canonical_struct with the order as signed
 * (kept by intentSigner) and logs the cause at error, once per cause-episode.
 */

const token = (negRisk: boolean): TokenMarket => ({
  tokenId: MARKET.tokenId,
  marketId: negRisk ? "mkt-nr" : MARKET.marketId,
  conditionId: "0xc0",
  outcome: "YES",
  outcomeIndex: 0,
  tickMicro: 10_000,
  minSizeMicro: 1_000_000n,
  feeTakerBps: 200,
  negRisk,
  closesAtMs: undefined,
  status: "OPEN",
});

let seq = 0;
const intent = (marketId = MARKET.marketId): PlaceIntent => ({
  kind: "place",
  tokenId: MARKET.tokenId,
  marketId,
  clientOrderId: `mm-t1-0123456789-b0-${++seq}`,
  quote: { side: "buy", level: 0, priceMicro: 470_000, sizeMicro: 12_500_000n },
  urgencyTicks: 3,
});

const builder = new OrderBuilder({
  settings: { wallet: TEST_WALLET, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
  domain: DOMAIN_CONFIG,
  signer: new PrivateKeySigner(TEST_KEY),
});

function harness() {
  const sink = collectingStream();
  const signed = new SignedOrders();
  const sign = intentSigner(builder, [token(false)], { signed });
  const signNr = intentSigner(builder, [token(true)], { signed });
  const check = new SignatureCheck(pino({ level: "info" }, sink), signed, (m) => `slug-of-${m}`);
  /** Signs an intent, then answers it as the exchange would: its details built from the signed struct. */
  const refuse = async (details: (s: SignedOrder) => unknown, negRisk = false): Promise<void> => {
    const i = intent(negRisk ? "mkt-nr" : MARKET.marketId);
    await (negRisk ? signNr : sign)(i);
    const s = peek(signed, i.clientOrderId);
    check.answered(i, rejected(details(s)));
  };
  const accept = async (negRisk = false): Promise<void> => {
    const i = intent(negRisk ? "mkt-nr" : MARKET.marketId);
    await (negRisk ? signNr : sign)(i);
    check.answered(i, {
      kind: "accepted",
      result: { orderId: "o1", status: "OPEN" } as never,
      requestId: undefined,
    });
  };
  const errors = () => sink.records().filter((r) => r.level === 50);
  return { sink, signed, check, refuse, accept, errors };
}

function peek(signed: SignedOrders, cid: string): SignedOrder {
  const s = signed.take(cid);
  if (s === undefined) throw new Error("nothing signed");
  signed.remember(cid, s);
  return s;
}

function rejected(details: unknown): PlaceOrderOutcome {
  const error = new ExchangeError({
    code: "bad_signature",
    message: "the signature does not recover to the request's wallet",
    outcome: "rejected",
    endpoint: "POST /api/orders/place",
    httpStatus: 400,
    details: details as Record<string, unknown>,
  });
  return { kind: "rejected", code: "bad_signature", retryable: false, error };
}

const asExchange = (s: SignedOrder, over: Record<string, unknown> = {}) => ({
  recovered: "0x1234567890abcdef1234567890abcdef12345678",
  expected_signer: s.struct.signer,
  platform_canonical_struct: { ...canonicalFields(s.struct), ...over },
});

describe("SignatureCheck: a bad_signature's cause, against the order as signed", () => {
  it("all 11 fields agree: one error line naming signing.chainId and the contract setting with their values", async () => {
    const h = harness();
    for (let n = 0; n < 5; n++) await h.refuse((s) => asExchange(s));
    const lines = h.errors();
    expect(lines).toHaveLength(1);
    const msg = String(lines[0]?.msg);
    expect(msg).toContain("all 11 fields agree");
    expect(msg).toContain("EIP-712 domain differs");
    expect(msg).toContain(`signing.chainId (137)`);
    expect(msg).toContain(`signing.exchangeContract (${DOMAIN_CONFIG.exchangeContract.toLowerCase()}`);
    expect(msg).toContain('signing.domainName ("Integrator Exchange")');
    expect(lines[0]).toMatchObject({
      cause: "domain",
      marketId: MARKET.marketId,
      slug: `slug-of-${MARKET.marketId}`,
    });
    expect(lines[0]?.signingDomain).toMatchObject({
      chainId: 137,
      contractSetting: "signing.exchangeContract",
    });
  });

  it("a neg-risk market's order names signing.negRiskExchangeContract, an episode of its own", async () => {
    const h = harness();
    await h.refuse((s) => asExchange(s));
    await h.refuse((s) => asExchange(s), true);
    await h.refuse((s) => asExchange(s), true);
    const lines = h.errors();
    expect(lines).toHaveLength(2);
    expect(String(lines[1]?.msg)).toContain(
      `signing.negRiskExchangeContract (${DOMAIN_CONFIG.negRiskExchangeContract.toLowerCase()}`,
    );
  });

  it("one field differs: named with the signed and the exchange's value", async () => {
    const h = harness();
    await h.refuse((s) => asExchange(s, { feeRateBps: "150" }));
    await h.refuse((s) => asExchange(s, { feeRateBps: 150 }));
    const lines = h.errors();
    expect(lines).toHaveLength(1);
    expect(String(lines[0]?.msg)).toContain("feeRateBps: signed 200, exchange 150");
    expect(lines[0]?.differing).toEqual([{ field: "feeRateBps", signed: "200", exchange: "150" }]);
  });

  it("a new cause within an episode is logged; the same one again after an accepted placement", async () => {
    const h = harness();
    await h.refuse((s) => asExchange(s, { feeRateBps: "150" }));
    await h.refuse((s) => asExchange(s, { signatureType: "1" }));
    expect(h.errors()).toHaveLength(2);
    await h.accept();
    expect(
      h.sink.records().some((r) => r.msg === "placements accepted again after bad_signature refusals"),
    ).toBe(true);
    await h.refuse((s) => asExchange(s, { signatureType: "1" }));
    expect(h.errors()).toHaveLength(3);
  });

  it("an accepted placement of another verifying contract does not end a domain episode", async () => {
    const h = harness();
    await h.refuse((s) => asExchange(s), true);
    await h.accept(false);
    await h.refuse((s) => asExchange(s), true);
    expect(h.errors()).toHaveLength(1);
  });

  it("malformed details: one generic line naming the domain settings, no throw", async () => {
    const h = harness();
    await h.refuse(() => ({ platform_canonical_struct: "garbage", recovered: 5 }));
    await h.refuse(() => "not even an object");
    const lines = h.errors();
    expect(lines).toHaveLength(1);
    expect(String(lines[0]?.msg)).toMatch(
      /^bad_signature, nothing to compare \(its details carry no readable platform_canonical_struct\)/,
    );
    expect(String(lines[0]?.msg)).toContain("signing.chainId (137)");
  });

  it("recovered null and another expected signer are named as such", async () => {
    const h = harness();
    await h.refuse((s) => ({ ...asExchange(s), recovered: null }));
    await h.refuse((s) => ({
      ...asExchange(s),
      expected_signer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    }));
    const [invalid, wallet] = h.errors().map((r) => String(r.msg));
    expect(invalid).toContain("no valid EIP-712 signature in the order (recovered null)");
    expect(wallet).toContain("expects orders signed by wallet 0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    expect(wallet).toContain(`mm signs with ${TEST_WALLET.toLowerCase()}`);
    expect(wallet).toContain("secrets.privateKey");
  });

  it("a refusal whose signed order is not known: a generic line naming the settings without values", () => {
    const h = harness();
    const i = intent();
    h.check.answered(i, rejected({}));
    expect(String(h.errors()[0]?.msg)).toContain("the order as signed is no longer known here");
    expect(h.errors()[0]?.signedOrderKnown).toBe(false);
  });

  it("answers and drops forget the signed order; the memory is bounded", async () => {
    const h = harness();
    await h.accept();
    expect(h.signed.size).toBe(0);
    const s = await builder.build({ market: MARKET, side: "buy", price: "0.5", quantity: "10", expiry: 0 });
    const order = { struct: s.struct, domain: s.domain, negRisk: false };
    h.signed.remember("dropped", order);
    h.check.dropped("dropped");
    expect(h.signed.size).toBe(0);
    for (let n = 0; n <= SIGNED_ORDERS_KEPT; n++) h.signed.remember(`c${n}`, order);
    expect(h.signed.size).toBe(SIGNED_ORDERS_KEPT);
    expect(h.signed.take("c0")).toBeUndefined();
    expect(h.signed.take(`c${SIGNED_ORDERS_KEPT}`)).toBe(order);
  });
});
