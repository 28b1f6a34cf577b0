import { exchangeClient, orderBuilder } from "../../../src/app/exchange.js";
import { selectMarkets } from "../../../src/app/markets.js";
import type { MmConfig } from "../../../src/config/types.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { ApiKeyScenario, PartnerScenario, Scenario } from "../../../src/mock/scenario/types.js";
import { createLogger } from "../../../src/observability/logger.js";
import { makeApiKey } from "../../unit/config/support.js";
import { SCENARIO } from "../daemon/support.js";

/**
 * Places one resting BUY of 10 YES at 0.40 on `slug` the way the paper bot does: its configured
 * HTTP client (API key), market selection (the exchange's feeTakerBps) and intent signer over its
 * order builder (private key, signing settings). Whatever the mock says about it is the outcome.
 */
export async function placeAsPaperBot(config: MmConfig, slug: string): Promise<PlaceOrderOutcome> {
  const client = exchangeClient(config, new LiveClock(), createLogger({ level: "silent" }));
  try {
    const selected = { ...config, engine: { ...config.engine, markets: [slug] } };
    const { tokens } = await selectMarkets(client, selected);
    const yes = tokens.find((t) => t.outcome === "YES");
    if (yes === undefined) throw new Error(`no YES token on ${slug}`);
    const sign = intentSigner(orderBuilder(config), tokens);
    const body = await sign({
      kind: "place",
      tokenId: yes.tokenId,
      marketId: yes.marketId,
      clientOrderId: "paper-test-1",
      quote: { side: "buy", level: 0, priceMicro: 400_000, sizeMicro: 10_000_000n },
      urgencyTicks: 0,
    });
    return await client.orders.place(body);
  } finally {
    client.close();
  }
}

/** A fresh test API key of `partnerId` with every scope (overrides in `over`). */
export function apiKeyOf(partnerId: string, over: Partial<ApiKeyScenario> = {}): ApiKeyScenario {
  return {
    key: makeApiKey("test").key,
    partnerId,
    scopes: ["markets:read", "events:read", "portfolio:read", "orders:read", "orders:write"],
    ipAllowlist: [],
    revoked: false,
    ...over,
  };
}

/** An active single_wallet partner (overrides in `over`). */
export function partner(id: string, over: Partial<PartnerScenario> = {}): PartnerScenario {
  return {
    id,
    name: id,
    kind: "single_wallet",
    requirePerWalletKyc: true,
    status: "active",
    rateLimitPerMin: 600,
    ...over,
  };
}

/** The default scenario with extra partners and with `firstKeys` put before its own API keys. */
export function scenarioWith(
  partners: readonly PartnerScenario[],
  firstKeys: readonly ApiKeyScenario[],
  keep: (k: ApiKeyScenario) => boolean = () => true,
): Scenario {
  return {
    ...SCENARIO,
    partners: [...SCENARIO.partners, ...partners],
    apiKeys: [...firstKeys, ...SCENARIO.apiKeys.filter(keep)],
  };
}
