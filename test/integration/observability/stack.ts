import { Registry } from "prom-client";
import { LiveClock } from "../../../src/core/live-clock.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import { createEngine, type TradingEngine } from "../../../src/engine/engine.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { intentSigner } from "../../../src/engine/intent-signer.js";
import { tokenMarkets } from "../../../src/engine/markets.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { fillFromWire } from "../../../src/execution/reconcile-fills.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed } from "../../../src/gateway/market-data-feed.js";
import { PLATFORM_STATUS_ID } from "../../../src/gateway/types.js";
import type { MockAdmin } from "../../../src/mock/faults/admin.js";
import { createMockExchange, type MockExchange } from "../../../src/mock/mock-exchange.js";
import { defaultScenarioPath, loadScenario } from "../../../src/mock/scenario/load.js";
import { startObservabilityServer } from "../../../src/observability/http-server.js";
import { instrumentExchange } from "../../../src/observability/instrument-exchange.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { readinessOf } from "../../../src/observability/readiness.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { silentLogger } from "../../support/exchange-fixtures.js";

/** A running bot on the mock exchange with its metrics server. */
export interface InstrumentedStack {
  /** e.g. http://127.0.0.1:41234/metrics */
  readonly metricsUrl: string;
  /** The observability server's base URL (/health, /ready). */
  readonly baseUrl: string;
  /** The mock's fault injection. */
  readonly admin: MockAdmin;
  /** The mock itself (incidents the admin API has no verb for, e.g. shares moved into the wallet). */
  readonly mock: MockExchange;
  /** The bot's wallet. */
  readonly wallet: string;
  /** Every token the engine trades. */
  readonly tokens: readonly TokenMarket[];
  readonly metrics: Metrics;
  readonly engine: TradingEngine;
  close(): Promise<void>;
}

/**
 * Paper trading, wired by hand with the metrics adapters, on loopback: the mock exchange (flow on,
 * admin on), the /ws/market feed into a real BookTracker (and platform_status), /ws/user fills, the real engine (bands
 * strategy on every market, risk guard, order queue) over the HTTP client, and the observability
 * server. Resolves once /ready says ready (engine reconciled, every book synced). Timings are
 * shortened so that a run of seconds shows what a live one shows in minutes: reconcile every 2 s,
 * stall detection within ~2 s, an error-rate halt that cools down in 3 s.
 * The lead replaces the body with paper mode once it exists; the returned shape stays.
 */
export async function startInstrumentedStack(): Promise<InstrumentedStack> {
  const scenario = loadScenario(defaultScenarioPath());
  const key = scenario.apiKeys[0]?.key ?? "";
  const wallet = scenario.wallets[0];
  if (wallet?.privateKey === undefined) throw new Error("scenario wallet 0 needs a private key");
  const mock = await createMockExchange({ scenario, admin: true });
  const clock = new LiveClock();
  const logger = silentLogger();
  const client = new ExchangeHttpClient({
    baseUrl: mock.httpUrl,
    apiKey: key,
    clock,
    logger,
    timeoutMs: 5_000,
  });
  const cfgMarkets = {
    defaultTickSize: "0.01",
    minOrderSize: "1",
    tickSizes: { "arg-vs-fra-final-penalties": "0.001" },
    minOrderSizes: {},
  };
  const listed = await client.markets.list({ limit: 500 });
  const tokens = tokenMarkets(listed, cfgMarkets, ["*"]);
  const slugOf = new Map(listed.map((m) => [m.id, m.slug]));

  const registry = new Registry();
  const metrics = createMetrics({ registry, maxMarketLabels: 20, clock });
  metrics.registerMarkets(tokens, (id) => slugOf.get(id));
  metrics.watchRateLimits(client.rateLimits);

  const common = { url: mock.wsUrl, apiKey: key, clock, logger };
  const feed = new MarketDataFeed({
    client: new GatewayClient({ ...common, gateway: "market" }),
    clock,
    tracker: { stall: { k: 6, floorMs: 3_000, minSamples: 5, checkEveryMs: 250 } },
  });
  const user = new GatewayClient({ ...common, gateway: "user" });
  metrics.watchBookTracker(feed.tracker);
  metrics.watchGateway("market", feed.client);
  metrics.watchGateway("user", user);

  const builder = new OrderBuilder({
    settings: { wallet: wallet.address, maker: "wallet", signatureType: 0, defaultFeeRateBps: 0 },
    domain: scenario.eip712,
    signer: new PrivateKeySigner(wallet.privateKey),
  });
  const strategy = parseStrategyConfig({
    name: "bands",
    params: {
      reference: "mid",
      bands: [
        { margin: "0.01", size: "10" },
        { margin: "0.03", size: "25" },
      ],
    },
  });
  const engine = createEngine({
    clock,
    exchange: instrumentExchange(new HttpExchange(client), metrics),
    sign: intentSigner(builder, tokens),
    markets: tokens,
    strategyFor: () => strategy,
    risk: new RiskGuard(
      parseRiskConfig({ errorRate: { maxErrors: 5, windowMs: 10_000, coolDownMs: 3_000 } }),
    ),
    logger,
    options: { session: "obsstack", reconcileIntervalMs: 2_000, reconcileDebounceMs: 100 },
    listener: metrics.listener,
    queueMetrics: metrics.queueMetrics,
    rateLimitState: (endpoint) => client.rateLimit(endpoint),
  });
  metrics.watchEngine(engine);

  const off = [
    feed.tracker.onBook((book) => engine.onBook(book.tokenId, book)),
    feed.tracker.onState((state) => engine.onBookState(state)),
    user.onEvent((e) => {
      if (e.type === "user_fill") engine.onFill(fillFromWire(e));
    }),
    feed.client.onEvent((e) => {
      if (e.type === "platform_status" && e.frozen !== undefined) engine.onPlatformStatus(e.frozen);
    }),
    feed.client.onLinkUp((_l, reconnect) => reconnect && engine.onReconnect()),
    user.onLinkUp((_l, reconnect) => reconnect && engine.onReconnect()),
  ];
  const readiness = readinessOf({ trackers: [feed.tracker], engine });
  const server = await startObservabilityServer({ port: 0, registry, readiness });

  await user.start();
  await user.subscribe("user_fills");
  await feed.start();
  await feed.subscribeBooks(tokens.map((t) => t.tokenId));
  await feed.client.subscribe("system", [PLATFORM_STATUS_ID]);
  await engine.start();
  await waitUntil(() => readiness().ready, 15_000, "the stack did not become ready");

  return {
    metricsUrl: `${server.url}/metrics`,
    baseUrl: server.url,
    admin: mock.admin,
    mock,
    wallet: wallet.address,
    tokens,
    metrics,
    engine,
    async close() {
      await engine.stop("test over", 3_000).catch(() => undefined);
      for (const f of off) f();
      metrics.close();
      await Promise.all([feed.close(), user.close(), server.close()]);
      client.close();
      await mock.close();
    },
  };
}

async function waitUntil(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
