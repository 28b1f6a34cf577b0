import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { adminCall } from "../../fault/harness.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { market, SCENARIO, startMock } from "../daemon/support.js";

/**
 * ExchangePort.marketRecord over real HTTP against the mock (127.0.0.1): what the engine reads after
 * a market_not_open refusal to learn whether the market resolved without a push.
 */
describe("HttpExchange.marketRecord", () => {
  const ARG = market("arg-vs-fra-final-arg-win");
  let mock: MockExchange;
  let exchange: HttpExchange;

  beforeAll(async () => {
    mock = await startMock();
    const client = new ExchangeHttpClient({
      baseUrl: mock.httpUrl,
      apiKey: SCENARIO.apiKeys[0]?.key ?? "",
      clock: new LiveClock(),
      logger: silentLogger(),
      timeoutMs: 5_000,
    });
    exchange = new HttpExchange(client);
  });
  afterAll(async () => {
    await mock.close();
  });

  it("reads the status and the fee, and once resolved the payout numerators", async () => {
    const target = { marketId: ARG.id, slug: ARG.slug };
    // feeTakerBps: read again after a bad_signature (fee-recheck.ts).
    expect(await exchange.marketRecord(target)).toEqual({ status: "OPEN", feeTakerBps: ARG.feeTakerBps });
    await adminCall(mock, "resolve-market", { marketId: ARG.id, winningOutcome: "NO" });
    expect(await exchange.marketRecord(target)).toEqual({
      status: "RESOLVED",
      feeTakerBps: ARG.feeTakerBps,
      payouts: { "0": "0", "1": "1" },
    });
  });

  it("refuses a market it cannot name (no slug) rather than guess", async () => {
    await expect(exchange.marketRecord({ marketId: ARG.id, slug: undefined })).rejects.toThrow(/no slug/);
  });
});
