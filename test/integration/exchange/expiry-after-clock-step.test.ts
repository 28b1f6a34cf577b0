import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withExpiry } from "../../../src/app/order-expiry.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { OffsetClock } from "../../support/offset-clock.js";

describe("signed expiries after NTP steps the host clock back", () => {
  let mock: MockExchange;
  const scenario = loadScenario(defaultScenarioPath());
  beforeAll(async () => {
    mock = await createMockExchange({ scenario });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("an order signed right after the step is accepted, not refused `expired`", async () => {
    // 5 min ahead of the exchange (a VM resumed with a stale clock)
    const host = new OffsetClock(300_000, { monotonic: true });
    const client = new ExchangeHttpClient({
      baseUrl: mock.httpUrl,
      apiKey: scenario.apiKeys[0]?.key ?? "",
      clock: host,
      logger: silentLogger(),
      timeoutMs: 5_000,
    });
    const wallet = scenario.wallets[0];
    const market = scenario.markets.find((m) => m.status === "OPEN");
    if (wallet?.privateKey === undefined || market === undefined)
      throw new Error("scenario lacks a wallet or market");
    const builder = new OrderBuilder({
      settings: { wallet: wallet.address, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
      domain: scenario.eip712,
      signer: new PrivateKeySigner(wallet.privateKey),
    });
    const signing = withExpiry(builder, 60, () => client.serverClock.serverNow());
    // A daemon's reads: the X-Server-Time of each answer tells the 5 min offset.
    for (let i = 0; i < 10; i++) await client.markets.list();
    expect(Math.abs((client.serverClock.offsetMs ?? 0) + 300_000)).toBeLessThan(1_000);
    host.offsetMs = 0; // NTP steps the host clock back: it now agrees with the exchange's
    const built = await signing.build({
      market: {
        marketId: market.id,
        tokenId: market.yesTokenId,
        outcome: "YES",
        feeTakerBps: market.feeTakerBps,
        negRisk: market.negRisk,
        tickSize: market.tickSize,
      },
      side: "buy",
      price: "0.01",
      quantity: "5",
      expiry: 0,
      clientOrderId: "step-1",
    });
    const outcome = await client.orders.place(built.body);
    expect(outcome.kind === "rejected" ? outcome.code : outcome.kind).toBe("accepted");
    // The exchange keeps it for the configured 60 s from now, by its clock.
    expect(built.body.expiry - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(59);
    expect(Math.abs(client.serverClock.offsetMs ?? Number.NaN)).toBeLessThan(1_000);
    client.close();
  });
});
