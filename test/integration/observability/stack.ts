import { observed } from "../../../src/app/observed.js";
import { startPaperDaemon } from "../../../src/app/paper-daemon.js";
import { loadConfig } from "../../../src/config/load.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import type { TradingEngine } from "../../../src/engine/engine.js";
import type { MockAdmin } from "../../../src/mock/faults/admin.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import type { Metrics } from "../../../src/observability/metrics.js";
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
 * Paper mode, as `mm paper` runs it (startPaperDaemon under the observed wrapper: the mock exchange
 * in process with flow and admin, the daemon over real HTTP and WebSocket, the metrics server), on
 * loopback and free ports. Resolves once /ready says ready (engine reconciled, every book synced).
 * Timings are shortened through the same MM_* settings an operator would use, so a run of seconds
 * shows what a live one shows in minutes: reconcile every 2 s, a drift corrected once it has lasted
 * two such periods (4 s, its settlement window: the run gauge is above 0 for at least one whole
 * period before the correction, so a 1 s scrape always sees it — with one period, only from the
 * correcting check to the next, which a triggered reconcile can make shorter than a scrape), an
 * error-rate halt that cools down in 3 s.
 */
export async function startInstrumentedStack(): Promise<InstrumentedStack> {
  const env = {
    MM_RECONCILE_INTERVAL_MS: "2000",
    MM_RECONCILE_DRIFT_SETTLE_MS: "4000",
    // Its floor: a subscription the server drops is found within 7.5–12.5 s however quiet its book.
    MM_EXCHANGE_WS_SUBSCRIPTION_CHECK_MS: "10000",
    MM_RISK: JSON.stringify({ errorRate: { maxErrors: 5, windowMs: 10_000, coolDownMs: 3_000 } }),
    MM_METRICS_PORT: "0",
    MM_METRICS_MAX_MARKET_LABELS: "20",
    MM_LOG_LEVEL: "silent",
    // Paper mode's journal would stay in /tmp after every run: these tests read metrics only.
    MM_JOURNAL_ENABLED: "false",
  };
  const early = loadConfig({ files: [], env, cwd: process.cwd() });
  const logger = silentLogger();
  const paper = await observed(early, logger, true, (metrics) =>
    startPaperDaemon({ env, cwd: process.cwd(), port: 0, logger, metrics }),
  );
  const url = paper.observability.url;
  await waitUntil(
    async () => (await fetch(`${url}/ready`)).status === 200,
    20_000,
    "paper mode did not become ready",
  );
  return {
    metricsUrl: `${url}/metrics`,
    baseUrl: url,
    admin: paper.mock.admin,
    mock: paper.mock,
    wallet: paper.mock.context.scenario.wallets[0]?.address ?? "",
    tokens: paper.markets.tokens,
    metrics: paper.observability.metrics,
    engine: paper.engine,
    async close() {
      await paper.stop("test over");
      await paper.done;
    },
  };
}

async function waitUntil(cond: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
